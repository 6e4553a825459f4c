import assert from "node:assert/strict";
import {
  filterCatalog,
  flattenMessages,
  mergeCatalogs,
  messageKeyMatcher,
  type NestedMessages,
} from "../../i18n/catalog.ts";

Deno.test("flattenMessages joins nested keys with dots", () => {
  assert.deepEqual(
    flattenMessages({
      app: { greeting: "Hello {name}", nav: { home: "Home" } },
      top: "Top",
    }),
    { "app.greeting": "Hello {name}", "app.nav.home": "Home", top: "Top" },
  );
  assert.deepEqual(flattenMessages({ a: "x", b: { c: "y" } }, "root"), {
    "root.a": "x",
    "root.b.c": "y",
  });
  assert.deepEqual(flattenMessages({}), {});
  assert.deepEqual(flattenMessages({ empty: {} }), {});
});

Deno.test("flattenMessages keeps prototype-named keys as plain keys", () => {
  const nested = JSON.parse('{"__proto__": {"x": "p"}, "constructor": "c"}');
  const flat = flattenMessages(nested);
  assert.equal(Object.getPrototypeOf(flat), Object.prototype);
  assert.deepEqual(Object.keys(flat).sort(), ["__proto__.x", "constructor"]);
  assert.equal(flat["constructor"], "c");
  const top = flattenMessages(JSON.parse('{"__proto__": "p"}'));
  assert.ok(Object.hasOwn(top, "__proto__"));
  assert.equal(Object.getPrototypeOf(top), Object.prototype);
});

Deno.test("flattenMessages refuses values that are not strings or objects", () => {
  const bad = [
    { a: { b: 1 } },
    { a: ["x"] },
    { a: null },
    { a: true },
  ] as unknown as NestedMessages[];
  for (const nested of bad) {
    assert.throws(() => flattenMessages(nested), {
      name: "TypeError",
      message: /^Message "a(\.b)?" must be a string or an object$/,
    });
  }
  assert.throws(
    () => flattenMessages(null as unknown as NestedMessages),
    { name: "TypeError", message: "Messages must be an object" },
  );
});

Deno.test("mergeCatalogs lets later layers win per key", () => {
  const catalog = mergeCatalogs([
    {
      en: { app: { title: "Strata", save: "Save" }, other: "x" },
      de: { app: { title: "Strata DE" } },
    },
    { en: { app: { title: "My blog" } }, fr: { app: { title: "Mon blog" } } },
    { en: { app: { extra: "Extra" } } },
  ]);
  assert.deepEqual(catalog, {
    en: {
      "app.title": "My blog",
      "app.save": "Save",
      other: "x",
      "app.extra": "Extra",
    },
    de: { "app.title": "Strata DE" },
    fr: { "app.title": "Mon blog" },
  });
});

Deno.test("mergeCatalogs canonicalises languages and merges aliases", () => {
  const catalog = mergeCatalogs([
    { "de-at": { a: "1", b: "far" } },
    { "DE-AT": { b: "close" } },
  ]);
  assert.deepEqual(catalog, { "de-AT": { a: "1", b: "close" } });
});

Deno.test("mergeCatalogs refuses a malformed language", () => {
  assert.throws(() => mergeCatalogs([{ de_AT: { a: "x" } }]), {
    name: "TypeError",
    message: 'Invalid message catalog language "de_AT"',
  });
  assert.deepEqual(mergeCatalogs([]), {});
});

Deno.test("mergeCatalogs does not share objects with its input", () => {
  const layer = { en: { a: "x" } };
  const catalog = mergeCatalogs([layer]);
  catalog.en.a = "changed";
  assert.equal(layer.en.a, "x");
});

Deno.test("messageKeyMatcher matches globs over keys", () => {
  const matches = messageKeyMatcher(["dashboard.*", "errors.notFound"]);
  assert.equal(matches("dashboard.save"), true);
  assert.equal(matches("dashboard.install.title"), true);
  assert.equal(matches("dashboard"), false);
  assert.equal(matches("dashboardx.save"), false);
  assert.equal(matches("errors.notFound"), true);
  assert.equal(matches("errors.notFoundX"), false);
  assert.equal(matches("validation.required"), false);
  const middle = messageKeyMatcher(["*.required"]);
  assert.equal(middle("validation.required"), true);
  assert.equal(middle("validation.requiredX"), false);
  // Regex syntax in a glob is literal.
  const literal = messageKeyMatcher(["a+b.(c)"]);
  assert.equal(literal("a+b.(c)"), true);
  assert.equal(literal("aab.c"), false);
  assert.equal(messageKeyMatcher([])("anything"), false);
  assert.throws(() => messageKeyMatcher([""]), TypeError);
});

Deno.test("filterCatalog drops matching keys in every language", () => {
  const catalog = {
    en: {
      "dashboard.save": "Save",
      "dashboard.install.title": "Welcome",
      "errors.notFound": "Not found",
    },
    de: { "dashboard.save": "Speichern", "errors.notFound": "Nicht gefunden" },
  };
  const filtered = filterCatalog(catalog, ["dashboard.*"]);
  assert.deepEqual(filtered, {
    en: { "errors.notFound": "Not found" },
    de: { "errors.notFound": "Nicht gefunden" },
  });
  // The input is untouched.
  assert.equal(catalog.en["dashboard.save"], "Save");
  assert.deepEqual(filterCatalog(catalog, []), catalog);
  assert.notEqual(filterCatalog(catalog, []).en, catalog.en);
});
