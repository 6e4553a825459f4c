import assert from "node:assert/strict";
import { mergeCatalogs } from "../../i18n/catalog.ts";
import {
  createTranslator,
  defaultLanguageOf,
  preferenceChain,
} from "../../i18n/translator.ts";

const catalog = mergeCatalogs([{
  en: {
    validation: {
      required: "Required",
      tooShort: "At least {min}",
      onlyEnglish: "Only English",
    },
    app: {
      items: "{count, plural, one {# item} other {# items}}",
      hello: "Hello {name}",
    },
    validationExtra: "Not in the group",
  },
  de: {
    validation: { required: "Erforderlich", tooShort: "Mindestens {min}" },
    app: { items: "{count, plural, one {# Eintrag} other {# Einträge}}" },
  },
  "de-AT": { validation: { required: "Pflichtfeld" } },
  fr: { app: { hello: "Bonjour {name}" } },
  pl: {
    app: {
      items:
        "{count, plural, one {# element} few {# elementy} many {# elementów} other {# elementu}}",
    },
  },
}]);

Deno.test("preferenceChain expands each preference before the default", () => {
  assert.deepEqual(preferenceChain(["de-AT", "fr"], "en"), [
    "de-AT",
    "de",
    "fr",
    "en",
  ]);
  assert.deepEqual(preferenceChain([], "en"), ["en"]);
  assert.deepEqual(preferenceChain(["bad_tag", "en-GB", "de"], "en"), [
    "en-GB",
    "en",
    "de",
  ]);
  assert.deepEqual(preferenceChain(["de-AT"], "de-CH"), [
    "de-AT",
    "de",
    "de-CH",
  ]);
});

Deno.test("lookup follows the fallback chain", () => {
  const { lookup } = createTranslator(catalog, "en");
  assert.deepEqual(lookup("validation.required", "de-AT"), {
    template: "Pflichtfeld",
    language: "de-AT",
  });
  assert.deepEqual(lookup("validation.tooShort", "de-AT"), {
    template: "Mindestens {min}",
    language: "de",
  });
  assert.deepEqual(lookup("validation.onlyEnglish", "de-AT"), {
    template: "Only English",
    language: "en",
  });
  assert.deepEqual(lookup("validation.required", "de-at"), {
    template: "Pflichtfeld",
    language: "de-AT",
  });
  assert.equal(lookup("validation.missing", "de"), undefined);
  assert.deepEqual(lookup("validation.required", "not a tag"), {
    template: "Required",
    language: "en",
  });
});

Deno.test("t renders in the first language that has the key", () => {
  const { t } = createTranslator(catalog, "en");
  assert.equal(t("validation.required", {}, ["de-AT"]), "Pflichtfeld");
  assert.equal(t("validation.required", {}, ["de-CH"]), "Erforderlich");
  assert.equal(t("validation.required", {}, ["fr", "de"]), "Erforderlich");
  assert.equal(t("validation.required", {}, ["fr"]), "Required");
  assert.equal(t("validation.required"), "Required");
  assert.equal(t("app.hello", { name: "Ada" }, ["fr", "de"]), "Bonjour Ada");
  assert.equal(t("app.hello", { name: "Ada" }, ["de", "fr"]), "Bonjour Ada");
  assert.equal(t("app.hello", { name: "Ada" }, ["de"]), "Hello Ada");
  assert.equal(t("validation.tooShort", { min: 3 }, ["de"]), "Mindestens 3");
});

Deno.test("t uses the plural rules of the template's language", () => {
  const { t } = createTranslator(catalog, "en");
  assert.equal(t("app.items", { count: 1 }, ["de"]), "1 Eintrag");
  assert.equal(t("app.items", { count: 1234 }, ["de"]), "1.234 Einträge");
  assert.equal(t("app.items", { count: 2 }, ["pl"]), "2 elementy");
  assert.equal(t("app.items", { count: 5 }, ["pl"]), "5 elementów");
  assert.equal(t("app.items", { count: 1 }, ["pl"]), "1 element");
  // Served from English when the wanted language lacks the key.
  assert.equal(t("app.items", { count: 2 }, ["fr"]), "2 items");
});

Deno.test("t renders a key missing everywhere as the key", () => {
  const { t } = createTranslator(catalog, "en");
  assert.equal(t("nope.missing", {}, ["de"]), "nope.missing");
  assert.equal(t("validation"), "validation");
  assert.equal(t("constructor"), "constructor");
  assert.equal(t("__proto__"), "__proto__");
});

Deno.test("group returns every key of the group from the best language", () => {
  const { group } = createTranslator(catalog, "en");
  assert.deepEqual(group("validation", "de-AT"), {
    "validation.onlyEnglish": { template: "Only English", language: "en" },
    "validation.required": { template: "Pflichtfeld", language: "de-AT" },
    "validation.tooShort": { template: "Mindestens {min}", language: "de" },
  });
  assert.deepEqual(group("validation", "en"), {
    "validation.onlyEnglish": { template: "Only English", language: "en" },
    "validation.required": { template: "Required", language: "en" },
    "validation.tooShort": { template: "At least {min}", language: "en" },
  });
  assert.deepEqual(Object.keys(group("app", "fr")), ["app.hello", "app.items"]);
  assert.equal(group("app", "fr")["app.hello"].language, "fr");
  assert.deepEqual(group("nothing", "de"), {});
  assert.deepEqual(group("validationExtra", "en"), {});
  assert.deepEqual(group("valid", "en"), {});
});

Deno.test("createTranslator uses a canonical default language", () => {
  const translator = createTranslator({ "de-de": { a: "Hallo" } }, "DE-de");
  assert.equal(translator.defaultLanguage, "de-DE");
  assert.equal(translator.t("a"), "Hallo");
  assert.deepEqual(translator.lookup("a", "fr"), {
    template: "Hallo",
    language: "de-DE",
  });
  assert.throws(() => createTranslator({}, "en_US"), {
    name: "TypeError",
    message: 'Invalid default language "en_US"',
  });
});

Deno.test("defaultLanguageOf is createTranslator's check of the default language", () => {
  assert.equal(defaultLanguageOf("DE-de"), "de-DE");
  assert.throws(() => defaultLanguageOf("en_US"), {
    name: "TypeError",
    message: 'Invalid default language "en_US"',
  });
});

Deno.test("createTranslator copies the catalog", () => {
  const source = { en: { a: "before" } };
  const { t } = createTranslator(source, "en");
  source.en.a = "after";
  assert.equal(t("a"), "before");
});
