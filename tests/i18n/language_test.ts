import assert from "node:assert/strict";
import {
  canonicalLanguage,
  languageFallbacks,
  parseAcceptLanguage,
} from "../../i18n/language.ts";

Deno.test("canonicalLanguage canonicalises case and aliases", () => {
  assert.equal(canonicalLanguage("de-at"), "de-AT");
  assert.equal(canonicalLanguage("EN"), "en");
  assert.equal(canonicalLanguage("zh-hant-tw"), "zh-Hant-TW");
  assert.equal(canonicalLanguage("sr-latn"), "sr-Latn");
  assert.equal(canonicalLanguage("de-AT-u-nu-latn"), "de-AT-u-nu-latn");
});

Deno.test("canonicalLanguage returns null for malformed tags", () => {
  for (
    const tag of [
      "",
      " ",
      "de_AT",
      "de AT",
      "*",
      "1234",
      "de-",
      "-de",
      "toolongprimarytag",
      "de-AT-u",
      "a".repeat(300),
    ]
  ) {
    assert.equal(canonicalLanguage(tag), null, JSON.stringify(tag));
  }
  assert.equal(canonicalLanguage(null as unknown as string), null);
  assert.equal(canonicalLanguage(42 as unknown as string), null);
});

Deno.test("languageFallbacks walks from specific to default", () => {
  assert.deepEqual(languageFallbacks("de-AT", "en"), ["de-AT", "de", "en"]);
  assert.deepEqual(languageFallbacks("de", "en"), ["de", "en"]);
  assert.deepEqual(languageFallbacks("en", "en"), ["en"]);
  assert.deepEqual(languageFallbacks("en-GB", "en"), ["en-GB", "en"]);
  assert.deepEqual(languageFallbacks("de-at", "EN"), ["de-AT", "de", "en"]);
  assert.deepEqual(languageFallbacks("zh-Hant-TW", "en"), [
    "zh-Hant-TW",
    "zh-Hant",
    "zh",
    "en",
  ]);
  assert.deepEqual(languageFallbacks("de", "en-US"), ["de", "en-US", "en"]);
});

Deno.test("languageFallbacks drops extension singletons", () => {
  assert.deepEqual(languageFallbacks("de-AT-u-nu-latn", "en"), [
    "de-AT-u-nu-latn",
    "de-AT-u-nu",
    "de-AT",
    "de",
    "en",
  ]);
});

Deno.test("languageFallbacks ignores a malformed tag", () => {
  assert.deepEqual(languageFallbacks("de_AT", "en"), ["en"]);
  assert.deepEqual(languageFallbacks("", "de"), ["de"]);
});

Deno.test("parseAcceptLanguage orders by q-value, then position", () => {
  assert.deepEqual(parseAcceptLanguage("fr;q=0.5, de-AT, en;q=0.8"), [
    "de-AT",
    "en",
    "fr",
  ]);
  assert.deepEqual(
    parseAcceptLanguage("de-CH, de;q=0.9, en;q=0.8, fr;q=0.8, *;q=0.5"),
    ["de-CH", "de", "en", "fr"],
  );
  assert.deepEqual(parseAcceptLanguage("en;q=0.1,de"), ["de", "en"]);
  assert.deepEqual(parseAcceptLanguage("  DE-at ;Q=1.000 "), ["de-AT"]);
});

Deno.test("parseAcceptLanguage skips malformed entries, q=0 and wildcards", () => {
  assert.deepEqual(parseAcceptLanguage(null), []);
  assert.deepEqual(parseAcceptLanguage(""), []);
  assert.deepEqual(parseAcceptLanguage("*"), []);
  assert.deepEqual(
    parseAcceptLanguage(
      "de_AT, en;q=abc, fr;q=1.5, it;q=0.5.5, es;q=-1, pt;q=0, nl;q=0.000, pl;q=0.3",
    ),
    ["pl"],
  );
  assert.deepEqual(parseAcceptLanguage(",,, ;q=0.5, ;"), []);
});

Deno.test("parseAcceptLanguage removes duplicates, keeping the best", () => {
  assert.deepEqual(parseAcceptLanguage("en;q=0.2, de, EN;q=0.9, de-de"), [
    "de",
    "de-DE",
    "en",
  ]);
});

Deno.test("parseAcceptLanguage reads at most 20 entries", () => {
  const tags = Array.from(
    { length: 25 },
    (_, i) =>
      `x${String.fromCharCode(97 + Math.floor(i / 26))}${
        String.fromCharCode(97 + (i % 26))
      }`,
  );
  const parsed = parseAcceptLanguage(tags.join(","));
  assert.equal(parsed.length, 20);
  assert.deepEqual(parsed, tags.slice(0, 20));
});

Deno.test("parseAcceptLanguage reads at most 1000 characters", () => {
  assert.deepEqual(parseAcceptLanguage(`${"x".repeat(1200)},de`), []);
  // An entry cut by the limit is dropped, not read as a shorter tag.
  const cut = `${" ".repeat(995)}de,en-GB`;
  assert.equal(cut.length, 1003);
  assert.deepEqual(parseAcceptLanguage(cut), ["de"]);
  const whole = `${" ".repeat(990)}de,en-GB`;
  assert.deepEqual(parseAcceptLanguage(whole), ["de", "en-GB"]);
});
