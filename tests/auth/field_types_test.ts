import assert from "node:assert/strict";
import { authTest, createUser } from "./_helpers.ts";
import { isEmailAddress } from "../../auth/types/email.ts";
import { canonicalLanguageTag } from "../../auth/types/language.ts";
import { canonicalTimeZone } from "../../auth/types/timezone.ts";
import type { App } from "../../mod.ts";

async function refusedFields(
  app: App,
  input: Record<string, unknown>,
): Promise<string[]> {
  const result = await app.query("Users").create({
    email: "someone@example.com",
    password: "long-enough",
    ...input,
  });
  return result.ok ? [] : Object.keys(result.errors).sort();
}

Deno.test("email: the address check", () => {
  for (
    const good of [
      "ada@example.com",
      "a.b+tag@sub.example.co",
      "o'hara@example.ie",
      "user@bücher.de",
    ]
  ) assert.equal(isEmailAddress(good), true, good);
  for (
    const bad of [
      "",
      "ada",
      "ada@",
      "@example.com",
      "ada@localhost",
      "ada@example..com",
      ".ada@example.com",
      "ada..b@example.com",
      "ada@-example.com",
      "ada@example.123",
      "a b@example.com",
      "ada@exa mple.com",
      `${"a".repeat(65)}@example.com`,
      `a@${"b".repeat(250)}.com`,
    ]
  ) assert.equal(isEmailAddress(bad), false, bad);
});

authTest("email field: trimmed, lowercased, validated, unique", async (h) => {
  const app = await h.boot();
  const result = await app.query("Users").create({
    email: "  Ada.Lovelace@Example.COM ",
    password: "long-enough",
  });
  assert.equal(result.ok && result.record.email, "ada.lovelace@example.com");
  assert.deepEqual(
    await refusedFields(app, { email: "ADA.lovelace@example.com" }),
    [
      "email",
    ],
  );
  for (const email of ["", "   ", "nope", 42, null, ["a@b.co"]]) {
    assert.deepEqual(
      await refusedFields(app, { email }),
      ["email"],
      String(email),
    );
  }
  const found = await app.query("Users")
    .where({ email: "ada.lovelace@example.com" }).count();
  assert.equal(found, 1);
});

authTest(
  "password field: 8 to 1024 characters, hashed, never read back",
  async (h) => {
    const app = await h.boot();
    for (
      const password of [
        "short",
        "1234567",
        "",
        12345678,
        null,
        "x".repeat(1025),
        // The policy refuses the 10,000 most common passwords.
        "12345678",
        "Password1",
      ]
    ) {
      assert.deepEqual(await refusedFields(app, { password }), ["password"]);
    }
    assert.deepEqual(
      await refusedFields(app, {
        email: "c@example.com",
        password: "1234-5678",
      }),
      [],
    );
    const created = await app.query("Users").create({
      email: "ada@example.com",
      password: "correct horse",
    });
    assert.ok(created.ok);
    assert.equal("password" in created.record, false);
    const read = await app.query("Users").where({ email: "ada@example.com" })
      .findFirst();
    assert.equal("password" in read!, false);
    const hash = await app.query("Users").where({ email: "ada@example.com" })
      .select("password").findFirst();
    assert.match(hash!.password as string, /^scrypt\$1024\$8\$1\$/);
    assert.notEqual(hash!.password, "correct horse");
    // Not even the password's spelling is kept: a second hash of it differs (fresh salt).
    await app.query("Users").where({ email: "ada@example.com" }).update({
      password: "correct horse",
    });
    const again = await app.query("Users").where({ email: "ada@example.com" })
      .select("password").findFirst();
    assert.notEqual(again!.password, hash!.password);
  },
);

Deno.test("language: canonical BCP-47 tags", () => {
  assert.equal(canonicalLanguageTag("de-at"), "de-AT");
  assert.equal(canonicalLanguageTag("EN"), "en");
  assert.equal(canonicalLanguageTag("zh-hant-tw"), "zh-Hant-TW");
  assert.equal(canonicalLanguageTag("not a tag"), undefined);
  assert.equal(canonicalLanguageTag(""), undefined);
});

authTest("language field: canonicalised or refused; nullable", async (h) => {
  const app = await h.boot();
  const result = await app.query("Users").create({
    email: "l@example.com",
    password: "long-enough",
    dashboardLanguage: " pt-br ",
    contentLanguage: null,
  });
  assert.ok(result.ok);
  assert.equal(result.record.dashboardLanguage, "pt-BR");
  assert.equal(result.record.contentLanguage, null);
  for (const tag of ["english please", "", 7, "x".repeat(80)]) {
    assert.deepEqual(await refusedFields(app, { dashboardLanguage: tag }), [
      "dashboardLanguage",
    ]);
  }
});

Deno.test("timezone: IANA names in canonical spelling, plus UTC", () => {
  assert.equal(canonicalTimeZone("europe/berlin"), "Europe/Berlin");
  assert.equal(canonicalTimeZone("UTC"), "UTC");
  assert.equal(canonicalTimeZone("utc"), "UTC");
  assert.equal(canonicalTimeZone("Mars/Olympus"), undefined);
  assert.equal(canonicalTimeZone("+01:00"), undefined);
  assert.equal(canonicalTimeZone("Etc/UTC"), "UTC");
  // Aliases resolve to the runtime's canonical name, one Intl lists.
  const zones = Intl.supportedValuesOf("timeZone");
  for (const alias of ["Asia/Kolkata", "US/Eastern", "Europe/Kyiv"]) {
    assert.ok(zones.includes(canonicalTimeZone(alias)!), alias);
  }
});

authTest(
  "timezone field: default UTC, canonicalised, invalid refused",
  async (h) => {
    const app = await h.boot();
    const uuid = await createUser(app, {
      email: "t@example.com",
      password: "long-enough",
    });
    const user = await app.query("Users").where({ UUID: uuid }).findFirst();
    assert.equal(user!.timezone, "UTC");
    const updated = await app.query("Users").where({ UUID: uuid }).update({
      timezone: "america/argentina/buenos_aires",
    });
    assert.equal(
      updated.ok && updated.records[0].timezone,
      canonicalTimeZone("America/Argentina/Buenos_Aires"),
    );
    assert.ok(
      updated.ok &&
        String(updated.records[0].timezone).includes("Buenos_Aires"),
    );
    for (const timezone of ["Mars/Olympus", "", null, 3, "GMT+1"]) {
      assert.deepEqual(await refusedFields(app, { timezone }), ["timezone"]);
    }
  },
);

authTest(
  "datePattern fields: defaults LL / LTS, trimmed, blank refused",
  async (h) => {
    const app = await h.boot();
    const created = await app.query("Users").create({
      email: "d@example.com",
      password: "long-enough",
      timeFormat: "  HH:mm ",
    });
    assert.ok(created.ok);
    assert.equal(created.record.dateFormat, "LL");
    assert.equal(created.record.timeFormat, "HH:mm");
    assert.equal(created.record.smartClipboard, false);
    assert.deepEqual(created.record.roles, []);
    for (const pattern of ["", "   ", null, 5, "x".repeat(65)]) {
      assert.deepEqual(
        await refusedFields(app, { dateFormat: pattern, timeFormat: pattern }),
        ["dateFormat", "timeFormat"],
      );
    }
  },
);
