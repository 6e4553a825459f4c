import assert from "node:assert/strict";
import { defineCollection, field } from "./_imports.ts";
import { created, dataTest, refused } from "./_helpers.ts";

const options = {
  locales: ["en", "de", "fr-ch"],
  collections: {
    Posts: defineCollection({
      fields: {
        slug: field("text", { unique: true }),
        title: field("text", { translatable: true }),
        summary: field("text", { translatable: true, nullable: true }),
        label: field("text", { translatable: true, default: "none" }),
        views: field("integer", { default: 0 }),
      },
    }),
    Plain: defineCollection({ fields: { name: field("text") } }),
  },
};

dataTest(
  "translatable values are written and read per locale, without fallback",
  options,
  async (data) => {
    const posts = data.query("Posts");
    const post = created(
      await posts.locale("de").create({ slug: "a", title: "Hallo" }),
    );
    assert.deepEqual(
      {
        title: post.title,
        summary: post.summary,
        label: post.label,
        t: post._translations,
      },
      { title: "Hallo", summary: null, label: "none", t: ["de"] },
    );
    const en = await posts.findByUUID(post.UUID);
    assert.deepEqual(
      {
        title: en!.title,
        label: en!.label,
        views: en!.views,
        t: en!._translations,
      },
      { title: null, label: null, views: 0, t: ["de"] },
      "no fallback to another locale; plain fields are shared",
    );
    const one = posts.where({ UUID: post.UUID });
    assert.deepEqual(
      refused(await one.update({ summary: "s" })),
      { title: "This field is required" },
      "a new translation must hold the required translatable fields",
    );
    const updated = await one.update({ title: "Hello", views: 3 });
    assert.ok(updated.ok);
    assert.deepEqual(updated.records[0]._translations, ["en", "de"]);
    assert.equal(
      updated.records[0].label,
      "none",
      "defaults fill a new translation",
    );
    const fr = await posts.locale("fr-CH").where({ UUID: post.UUID }).update({
      title: "Salut",
    });
    assert.ok(fr.ok);
    assert.deepEqual(
      fr.records[0]._translations,
      ["en", "de", "fr-CH"],
      "configured order",
    );
    const de = await posts.locale("de").findByUUID(post.UUID);
    assert.equal(de!.title, "Hallo");
    assert.equal(de!.views, 3);
    // Updating an existing translation leaves the other locales alone.
    assert.ok((await one.locale("de").update({ summary: "Kurz" })).ok);
    const again = await posts.locale("de").findByUUID(post.UUID);
    assert.deepEqual([again!.title, again!.summary], ["Hallo", "Kurz"]);
    assert.equal((await posts.findByUUID(post.UUID))!.summary, null);
  },
);

dataTest(
  "where over a translatable field matches at the read's locale",
  options,
  async (data) => {
    const posts = data.query("Posts");
    const a = created(await posts.create({ slug: "a", title: "Apple" }));
    await posts.where({ UUID: a.UUID }).locale("de").update({ title: "Apfel" });
    created(await posts.locale("de").create({ slug: "b", title: "Birne" }));
    assert.deepEqual(
      (await posts.where({ title: "Apple" }).findMany()).map((p) => p.slug),
      ["a"],
    );
    assert.equal(await posts.locale("de").where({ title: "Apple" }).count(), 0);
    assert.deepEqual(
      (await posts.locale("de").where({ title: { startsWith: "a" } })
        .findMany())
        .map((p) => p.slug),
      ["a"],
    );
    assert.deepEqual(
      (await posts.where({ title: { isNull: true } }).findMany()).map((p) =>
        p.slug
      ),
      ["b"],
    );
    assert.deepEqual(
      (await posts.locale("de").order("-title").findMany()).map((p) => p.title),
      ["Birne", "Apfel"],
    );
  },
);

dataTest(
  "deleteTranslation removes one locale and says whether one was there",
  options,
  async (data) => {
    const posts = data.query("Posts");
    const post = created(await posts.create({ slug: "a", title: "Hello" }));
    const one = posts.where({ UUID: post.UUID });
    await one.locale("de").update({ title: "Hallo" });
    assert.equal(await one.deleteTranslation("de"), true);
    assert.equal(await one.deleteTranslation("de"), false);
    assert.equal(await one.deleteTranslation("fr-CH"), false);
    const after = await posts.findByUUID(post.UUID);
    assert.deepEqual(after!._translations, ["en"]);
    assert.equal(after!.title, "Hello", "other locales survive");
    assert.equal(await one.deleteTranslation("en"), true);
    const bare = await posts.findByUUID(post.UUID);
    assert.ok(bare, "the record survives");
    assert.deepEqual(bare!._translations, []);
    await assert.rejects(() => one.deleteTranslation("it"), /Locale it/);
    await assert.rejects(
      () => data.query("Plain").deleteTranslation("en"),
      /no translatable fields/,
    );
  },
);

dataTest(
  "records without translatable fields carry no _translations",
  options,
  async (data) => {
    const plain = created(await data.query("Plain").create({ name: "x" }));
    assert.equal("_translations" in plain, false);
    const post = created(
      await data.query("Posts").create({ slug: "s", title: "t" }),
    );
    const selected = await data.query("Posts").select("slug").findByUUID(
      post.UUID,
    );
    assert.deepEqual(selected, {
      UUID: post.UUID,
      slug: "s",
      _translations: ["en"],
    });
  },
);

dataTest("translatable unique fields are unique per locale", {
  locales: ["en", "de"],
  collections: {
    Pages: defineCollection({
      fields: { path: field("text", { translatable: true, unique: true }) },
    }),
  },
}, async (data) => {
  const pages = data.query("Pages");
  const a = created(await pages.create({ path: "/home" }));
  created(await pages.locale("de").create({ path: "/home" }));
  assert.deepEqual(refused(await pages.create({ path: "/home" })), {
    path: "This value is already taken",
  });
  assert.ok((await pages.where({ UUID: a.UUID }).update({ path: "/home" })).ok);
});

dataTest("locales are canonicalised and checked", options, async (data) => {
  assert.equal(await data.query("Posts").count(), 0);
  assert.deepEqual(data.locales, ["en", "de", "fr-CH"]);
  assert.throws(
    () => data.query("Posts").locale("it"),
    /not one of en, de, fr-CH/,
  );
  assert.throws(
    () => data.query("Posts").locale("not a tag"),
    /Invalid locale/,
  );
});
