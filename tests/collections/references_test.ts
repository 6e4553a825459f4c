import { kyselyOf } from "../../collections/database.ts";
import assert from "node:assert/strict";
import { defineCollection, field, HTTPError } from "./_imports.ts";
import { created, dataTest, refused } from "./_helpers.ts";

const collections = {
  Users: defineCollection({ fields: { name: field("text") } }),
  Tags: defineCollection({ fields: { label: field("text") } }),
  Categories: defineCollection({ fields: { label: field("text") } }),
  Posts: defineCollection({
    fields: {
      title: field("text"),
      author: field("record", { collection: "Users", onDelete: "cascade" }),
      editor: field("record", {
        collection: "Users",
        nullable: true,
        onDelete: "setNull",
      }),
      category: field("record", {
        collection: "Categories",
        nullable: true,
        onDelete: "restrict",
      }),
      tags: field("records", { collection: "Tags", default: [] }),
      sticky: field("records", {
        collection: "Categories",
        default: [],
        onDelete: "restrict",
      }),
    },
  }),
  Comments: defineCollection({
    fields: {
      post: field("record", { collection: "Posts", onDelete: "cascade" }),
      parent: field("record", {
        collection: "Comments",
        nullable: true,
        onDelete: "cascade",
      }),
    },
  }),
};

dataTest("setNull clears the link and bumps _updatedAt", {
  collections,
  now: (() => {
    let t = 1;
    return () => t++;
  })(),
}, async (data) => {
  const ann = created(await data.query("Users").create({ name: "ann" }));
  const bob = created(await data.query("Users").create({ name: "bob" }));
  const post = created(
    await data.query("Posts").create({
      title: "p",
      author: ann.UUID,
      editor: bob.UUID,
    }),
  );
  const result = await data.query("Users").where({ UUID: bob.UUID }).delete();
  assert.deepEqual(result.records.map((r) => r.name), ["bob"]);
  const after = await data.query("Posts").findByUUID(post.UUID);
  assert.equal(after!.editor, null);
  assert.ok((after!._updatedAt as number) > (post._updatedAt as number));
});

dataTest("cascade deletes referencing records, transitively", {
  collections,
}, async (data) => {
  const ann = created(await data.query("Users").create({ name: "ann" }));
  const bob = created(await data.query("Users").create({ name: "bob" }));
  const p1 = created(
    await data.query("Posts").create({ title: "1", author: ann.UUID }),
  );
  const p2 = created(
    await data.query("Posts").create({ title: "2", author: bob.UUID }),
  );
  const c1 = created(await data.query("Comments").create({ post: p1.UUID }));
  created(
    await data.query("Comments").create({ post: p2.UUID, parent: c1.UUID }),
  );
  created(await data.query("Comments").create({ post: p2.UUID }));
  await data.query("Users").where({ UUID: ann.UUID }).delete();
  assert.deepEqual(
    (await data.query("Posts").findMany()).map((p) => p.title),
    ["2"],
  );
  // c1 went with p1, and its child (on p2) went with c1.
  assert.equal(await data.query("Comments").count(), 1);
  assert.equal(await data.query("Users").count(), 1);
});

dataTest("restrict refuses the delete with a 409 and changes nothing", {
  collections,
}, async (data) => {
  const ann = created(await data.query("Users").create({ name: "ann" }));
  const cat = created(await data.query("Categories").create({ label: "c" }));
  const other = created(await data.query("Categories").create({ label: "d" }));
  const post = created(
    await data.query("Posts").create({
      title: "p",
      author: ann.UUID,
      category: cat.UUID,
      sticky: [other.UUID],
    }),
  );
  for (const uuid of [cat.UUID, other.UUID]) {
    await assert.rejects(
      () => data.query("Categories").where({ UUID: uuid }).delete(),
      (error: unknown) => {
        assert.ok(error instanceof HTTPError);
        assert.equal(error.status, 409);
        return true;
      },
    );
  }
  assert.equal(await data.query("Categories").count(), 2);
  // Still refused while the post exists; once it is gone, the categories may go.
  await assert.rejects(() => data.query("Categories").delete());
  await data.query("Posts").where({ UUID: post.UUID }).delete();
  const removed = await data.query("Categories").delete();
  assert.equal(removed.records.length, 2);
});

dataTest(
  "restrict ignores referencing rows that the same delete cascades away",
  {
    collections: {
      Owners: defineCollection({ fields: { name: field("text") } }),
      Things: defineCollection({
        fields: {
          owner: field("record", { collection: "Owners", onDelete: "cascade" }),
          peer: field("record", {
            collection: "Owners",
            nullable: true,
            onDelete: "restrict",
          }),
        },
      }),
    },
  },
  async (data) => {
    const o = created(await data.query("Owners").create({ name: "o" }));
    const p = created(await data.query("Owners").create({ name: "p" }));
    created(await data.query("Things").create({ owner: o.UUID, peer: o.UUID }));
    created(await data.query("Things").create({ owner: p.UUID, peer: o.UUID }));
    // The second thing (owned by p) still restricts o.
    await assert.rejects(() =>
      data.query("Owners").where({ UUID: o.UUID }).delete()
    );
    assert.equal(await data.query("Things").count(), 2);
    // Deleting both owners cascades both things, so nothing restricts any more.
    await data.query("Owners").delete();
    assert.equal(await data.query("Things").count(), 0);
  },
);

dataTest("records: cascade removes the link and keeps the order of the rest", {
  collections,
}, async (data) => {
  const ann = created(await data.query("Users").create({ name: "ann" }));
  const tags = [];
  for (const label of ["a", "b", "c"]) {
    tags.push(created(await data.query("Tags").create({ label })));
  }
  const post = created(
    await data.query("Posts").create({
      title: "p",
      author: ann.UUID,
      tags: [tags[2].UUID, tags[0].UUID, tags[1].UUID],
    }),
  );
  await data.query("Tags").where({ label: "a" }).delete();
  const after = await data.query("Posts").findByUUID(post.UUID);
  assert.deepEqual(after!.tags, [tags[2].UUID, tags[1].UUID]);
  assert.ok((after!._updatedAt as number) >= (post._updatedAt as number));
});

dataTest(
  "invalidReference on update; references are checked in the transaction",
  {
    collections,
  },
  async (data) => {
    const ann = created(await data.query("Users").create({ name: "ann" }));
    const post = created(
      await data.query("Posts").create({ title: "p", author: ann.UUID }),
    );
    const missing = crypto.randomUUID();
    const one = data.query("Posts").where({ UUID: post.UUID });
    assert.deepEqual(
      refused(await one.update({ author: missing, tags: [missing] })),
      {
        author: "This record does not exist",
        "tags[0]": "This record does not exist",
      },
    );
    const tag = created(await data.query("Tags").create({ label: "t" }));
    const updated = await one.update({ tags: [tag.UUID] });
    assert.ok(updated.ok);
    assert.deepEqual(updated.records[0].tags, [tag.UUID]);
    const cleared = await one.update({ tags: [] });
    assert.ok(cleared.ok);
    assert.deepEqual(cleared.records[0].tags, []);
  },
);

dataTest("deleting a record removes its own links, translations and rows", {
  collections,
}, async (data) => {
  const ann = created(await data.query("Users").create({ name: "ann" }));
  const tag = created(await data.query("Tags").create({ label: "t" }));
  created(
    await data.query("Posts").create({
      title: "p",
      author: ann.UUID,
      tags: [tag.UUID],
    }),
  );
  await data.query("Posts").delete();
  const links = await kyselyOf(data.db).selectFrom("Posts__tags").selectAll()
    .execute();
  assert.deepEqual(links, []);
  // The tag is free to go now.
  await data.query("Tags").delete();
  assert.equal(await data.query("Tags").count(), 0);
});

dataTest(
  "a delete that matches nothing answers an empty list",
  { collections },
  async (data) => {
    assert.deepEqual(
      await data.query("Users").where({ name: "nobody" }).delete(),
      {
        ok: true,
        records: [],
      },
    );
  },
);
