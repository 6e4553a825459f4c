// GET /messages/[group]/[language] and translated errors (issue 6, points 1–3).
import assert from "node:assert/strict";
import { bootFixture, call, json } from "../_helpers/fixture_app.ts";
import { defineLayer } from "../../mod.ts";
import { dbAppTest } from "../_helpers/db_apps.ts";

const base = defineLayer({
  name: "base",
  messages: { en: { app: { greeting: "Base greeting", farewell: "Goodbye" } } },
});
const app = await bootFixture("http_app", {
  layers: [base],
  config: { disable: { messages: ["app.internal.*"] } },
});
globalThis.addEventListener("unload", () => app.close());

Deno.test("a group answers flat keys with the language each template came from", async () => {
  const response = await call(app, "/messages/app/de-AT");
  assert.equal(response.status, 200);
  assert.deepEqual(await json(response), {
    "app.greeting": { template: "Hallo {name}", language: "de" },
    "app.items": {
      template: "{count, plural, one {# Eintrag} other {# Einträge}}",
      language: "de",
    },
    "app.onlyEnglish": { template: "Only in English", language: "en" },
    "app.farewell": { template: "Goodbye", language: "en" },
  });
});

Deno.test("layers merge per key: the closer layer wins, the farther one fills gaps", async () => {
  const body = await json(await call(app, "/messages/app/en")) as Record<
    string,
    { template: string }
  >;
  assert.equal(body["app.greeting"].template, "Hello {name}");
  assert.equal(body["app.farewell"].template, "Goodbye");
});

Deno.test("disable.messages drops keys by glob", async () => {
  const body = await json(await call(app, "/messages/app/en")) as Record<
    string,
    unknown
  >;
  assert.equal("app.internal.secret" in body, false);
});

Deno.test("a malformed language tag is 400; an empty group 404", async () => {
  const malformed = await call(app, "/messages/app/not_a_tag!");
  assert.equal(malformed.status, 400);
  await malformed.body?.cancel();
  const empty = await call(app, "/messages/nothing/en");
  assert.equal(empty.status, 404);
  await empty.body?.cancel();
});

Deno.test("the answer is cacheable: ETag, and 304 when it matches", async () => {
  const first = await call(app, "/messages/validation/de");
  const etag = first.headers.get("etag");
  assert.ok(etag);
  await first.body?.cancel();
  const again = await call(app, "/messages/validation/de", {
    headers: { "if-none-match": etag! },
  });
  assert.equal(again.status, 304);
  assert.equal(await again.text(), "");
  const other = await call(app, "/messages/validation/en", {
    headers: { "if-none-match": etag! },
  });
  assert.equal(other.status, 200);
  await other.body?.cancel();
});

Deno.test("framework catalogs ship English and German for every framework message", async () => {
  for (const group of ["validation", "errors", "query", "dashboard"]) {
    const en = await json(await call(app, `/messages/${group}/en`)) as Record<
      string,
      { language: string }
    >;
    const de = await json(await call(app, `/messages/${group}/de`)) as Record<
      string,
      { language: string }
    >;
    assert.deepEqual(Object.keys(de).sort(), Object.keys(en).sort(), group);
    assert.ok(
      Object.values(de).every((entry) => entry.language === "de"),
      group,
    );
  }
});

dbAppTest(
  "a 422 speaks German for Accept-Language: de",
  "api_app",
  async ({ req }) => {
    const english = await req("POST", "/collections/posts", {
      json: { views: -1 },
    });
    const german = await req("POST", "/collections/posts", {
      json: { views: -1 },
      headers: { "accept-language": "de" },
    });
    assert.equal(german.status, 422);
    const en = english.body as {
      message: string;
      data: { errors: Record<string, string> };
    };
    const de = german.body as {
      message: string;
      data: { errors: Record<string, string> };
    };
    assert.equal(en.data.errors.title, "This field is required");
    assert.equal(de.data.errors.title, "Dieses Feld ist erforderlich");
    assert.notEqual(de.data.errors.views, en.data.errors.views);
    assert.notEqual(de.message, en.message);
  },
);

dbAppTest(
  "a malformed query's message is translated; its code and path are not",
  "api_app",
  async ({ req }) => {
    const en = await req("GET", "/collections/posts?where={nope:1}");
    const de = await req("GET", "/collections/posts?where={nope:1}", {
      headers: { "accept-language": "de-CH" },
    });
    assert.deepEqual(
      (de.body as { data: unknown }).data,
      (en.body as { data: unknown }).data,
    );
    assert.notEqual(
      (de.body as { message: string }).message,
      (en.body as { message: string }).message,
    );
  },
);

Deno.test("translate() renders an app message in the request's language", async () => {
  const de = await call(app, "/greet?name=Ada", {
    headers: { "accept-language": "de" },
  });
  assert.deepEqual(await json(de), { message: "Hallo Ada" });
  const en = await call(app, "/greet?name=Ada");
  assert.deepEqual(await json(en), { message: "Hello Ada" });
});
