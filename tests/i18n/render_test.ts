import assert from "node:assert/strict";
import { renderMessage } from "../../i18n/render.ts";

Deno.test("renderMessage substitutes simple placeholders", () => {
  assert.equal(
    renderMessage("Hello {name}!", { name: "Ada" }, "en"),
    "Hello Ada!",
  );
  assert.equal(
    renderMessage("{ a } and {b}", { a: "x", b: "y" }, "en"),
    "x and y",
  );
  assert.equal(renderMessage("No placeholders", {}, "en"), "No placeholders");
  assert.equal(renderMessage("", {}, "en"), "");
  assert.equal(renderMessage("{ok}", { ok: true }, "en"), "true");
});

Deno.test("renderMessage formats numbers for the language", () => {
  assert.equal(renderMessage("{n}", { n: 1234.5 }, "en"), "1,234.5");
  assert.equal(renderMessage("{n}", { n: 1234.5 }, "de"), "1.234,5");
  assert.equal(renderMessage("{n, number}", { n: 1234.5 }, "de"), "1.234,5");
  assert.equal(renderMessage("{n, number, integer}", { n: 2.6 }, "en"), "3");
  assert.equal(renderMessage("{n, number, percent}", { n: 0.25 }, "en"), "25%");
  assert.equal(renderMessage("{n}", { n: 10n ** 6n }, "en"), "1,000,000");
  assert.equal(renderMessage("{s}", { s: "1234" }, "en"), "1234");
});

Deno.test("renderMessage leaves placeholders with missing params as written", () => {
  assert.equal(renderMessage("Hello {name}", {}, "en"), "Hello {name}");
  assert.equal(
    renderMessage("Hello { name }", { name: null }, "en"),
    "Hello { name }",
  );
  assert.equal(
    renderMessage("{a} {b}", { a: 1 }, "en"),
    "1 {b}",
  );
  const plural = "{n, plural, one {# item} other {# items}}";
  assert.equal(renderMessage(`Got ${plural}`, {}, "en"), `Got ${plural}`);
  // Inherited properties are not parameters.
  assert.equal(renderMessage("{constructor}", {}, "en"), "{constructor}");
  assert.equal(renderMessage("{toString}", {}, "en"), "{toString}");
});

Deno.test("renderMessage picks English plural categories", () => {
  const template = "{count, plural, one {# item} other {# items}}";
  assert.equal(renderMessage(template, { count: 1 }, "en"), "1 item");
  assert.equal(renderMessage(template, { count: 0 }, "en"), "0 items");
  assert.equal(renderMessage(template, { count: 2 }, "en"), "2 items");
  assert.equal(renderMessage(template, { count: 1.5 }, "en"), "1.5 items");
  assert.equal(renderMessage(template, { count: 1000 }, "en"), "1,000 items");
  assert.equal(renderMessage(template, { count: "1" }, "en"), "1 item");
});

Deno.test("renderMessage uses Intl plural rules with several categories", () => {
  const polish =
    "{n, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}";
  assert.equal(renderMessage(polish, { n: 1 }, "pl"), "1 plik");
  assert.equal(renderMessage(polish, { n: 2 }, "pl"), "2 pliki");
  assert.equal(renderMessage(polish, { n: 5 }, "pl"), "5 plików");
  assert.equal(renderMessage(polish, { n: 22 }, "pl"), "22 pliki");
  assert.equal(renderMessage(polish, { n: 1.5 }, "pl"), "1,5 pliku");

  const russian =
    "{n, plural, one {# файл} few {# файла} many {# файлов} other {# файла}}";
  assert.equal(renderMessage(russian, { n: 1 }, "ru"), "1 файл");
  assert.equal(renderMessage(russian, { n: 2 }, "ru"), "2 файла");
  assert.equal(renderMessage(russian, { n: 5 }, "ru"), "5 файлов");
  assert.equal(renderMessage(russian, { n: 21 }, "ru"), "21 файл");

  // The same template in English only knows one/other.
  assert.equal(renderMessage(polish, { n: 2 }, "en"), "2 pliku");
});

Deno.test("renderMessage prefers exact matches and applies offset", () => {
  const template =
    "{n, plural, =0 {nothing} =1 {just one} one {# one} other {# many}}";
  assert.equal(renderMessage(template, { n: 0 }, "en"), "nothing");
  assert.equal(renderMessage(template, { n: 1 }, "en"), "just one");
  assert.equal(renderMessage(template, { n: 7 }, "en"), "7 many");
  const guests =
    "{n, plural, offset:1 =0 {nobody} =1 {Ann} one {Ann and # other} other {Ann and # others}}";
  assert.equal(renderMessage(guests, { n: 0 }, "en"), "nobody");
  assert.equal(renderMessage(guests, { n: 1 }, "en"), "Ann");
  assert.equal(renderMessage(guests, { n: 2 }, "en"), "Ann and 1 other");
  assert.equal(renderMessage(guests, { n: 5 }, "en"), "Ann and 4 others");
});

Deno.test("renderMessage renders select and selectordinal", () => {
  const template =
    "{kind, select, post {a post} page {a page} other {something}}";
  assert.equal(renderMessage(template, { kind: "post" }, "en"), "a post");
  assert.equal(renderMessage(template, { kind: "page" }, "en"), "a page");
  assert.equal(renderMessage(template, { kind: "x" }, "en"), "something");
  assert.equal(renderMessage(template, { kind: 1 }, "en"), "something");
  const ordinal =
    "{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}";
  assert.deepEqual(
    [1, 2, 3, 4, 11, 21, 22, 101].map((n) =>
      renderMessage(ordinal, { n }, "en")
    ),
    ["1st", "2nd", "3rd", "4th", "11th", "21st", "22nd", "101st"],
  );
});

Deno.test("renderMessage renders nested arguments", () => {
  const template = "{gender, select, " +
    "female {{n, plural, one {She has # message} other {She has # messages from {from}}}} " +
    "other {{n, plural, one {They have # message} other {They have # messages}}}}";
  assert.equal(
    renderMessage(template, { gender: "female", n: 1 }, "en"),
    "She has 1 message",
  );
  assert.equal(
    renderMessage(template, { gender: "female", n: 3, from: "Bob" }, "en"),
    "She has 3 messages from Bob",
  );
  assert.equal(
    renderMessage(template, { gender: "male", n: 2 }, "en"),
    "They have 2 messages",
  );
  // `#` inside a select nested in a plural refers to the plural.
  const inner =
    "{n, plural, other {{kind, select, a {# of A} other {# of others}}}}";
  assert.equal(
    renderMessage(inner, { n: 1200, kind: "a" }, "de"),
    "1.200 of A",
  );
});

Deno.test("renderMessage keeps # literal outside plurals", () => {
  assert.equal(renderMessage("Item #{n}", { n: 4 }, "en"), "Item #4");
  assert.equal(
    renderMessage("{k, select, other {#}}", { k: "a" }, "en"),
    "#",
  );
});

Deno.test("renderMessage falls back to other for non-numeric plural values", () => {
  const template = "{n, plural, one {# item} other {# items}}";
  assert.equal(renderMessage(template, { n: "many" }, "en"), "many items");
  assert.equal(renderMessage(template, { n: NaN }, "en"), "NaN items");
});

Deno.test("renderMessage handles ICU apostrophe quoting", () => {
  assert.equal(renderMessage("Don't panic", {}, "en"), "Don't panic");
  assert.equal(renderMessage("It''s {x}", { x: 1 }, "en"), "It's 1");
  assert.equal(
    renderMessage("Use '{name}' literally, {name}", { name: "x" }, "en"),
    "Use {name} literally, x",
  );
  assert.equal(
    renderMessage("{n, plural, other {'#' is # here}}", { n: 3 }, "en"),
    "# is 3 here",
  );
  assert.equal(renderMessage("'{unterminated", {}, "en"), "{unterminated");
});

Deno.test("renderMessage returns malformed templates unchanged", () => {
  const malformed = [
    "Hello {name",
    "Hello name}",
    "{}",
    "{ }",
    "{n, plural, one {# item}}", // no other
    "{n, plural, one {# item} other {# items}",
    "{n, plural, one # item other # items}",
    "{n, plural, other {a} other {b}}", // duplicate selector
    "{n, plural, =x {a} other {b}}",
    "{n, plural, offset:x other {b}}",
    "{n, select, a {x}}", // no other
    "{n, unknownType}",
    "{n, number, currency}",
    "{n, plural}",
    "{a b}",
    "{n, plural, other {{m, plural, other {{k, select, other {" +
    "{".repeat(40) + "}}}}}}}",
  ];
  for (const template of malformed) {
    assert.equal(
      renderMessage(template, { name: "x", n: 1, a: 1 }, "en"),
      template,
      template,
    );
  }
});

Deno.test("renderMessage survives deep nesting and odd inputs", () => {
  const deep = "{a, select, other {".repeat(50) + "x" + "}}".repeat(50);
  assert.equal(renderMessage(deep, { a: "y" }, "en"), deep);
  const fine = "{a, select, other {".repeat(3) + "x" + "}}".repeat(3);
  assert.equal(renderMessage(fine, { a: "y" }, "en"), "x");
  assert.equal(renderMessage("{n}", { n: 5 }, "not a language!"), "5");
  assert.equal(renderMessage("{n}", { n: 5 }, ""), "5");
});

Deno.test("renderMessage gives the same answer from its cache", () => {
  const template = "{count, plural, one {# Eintrag} other {# Einträge}}";
  for (let i = 0; i < 3; i++) {
    assert.equal(renderMessage(template, { count: 1 }, "de"), "1 Eintrag");
    assert.equal(renderMessage(template, { count: 2 }, "de"), "2 Einträge");
    assert.equal(renderMessage("{x", {}, "de"), "{x");
  }
});
