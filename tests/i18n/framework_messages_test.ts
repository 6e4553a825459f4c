import assert from "node:assert/strict";
import { flattenMessages, mergeCatalogs } from "../../i18n/catalog.ts";
import { frameworkMessages } from "../../i18n/framework_messages.ts";
import { renderMessage } from "../../i18n/render.ts";
import { createTranslator } from "../../i18n/translator.ts";

const en = flattenMessages(frameworkMessages.en);
const de = flattenMessages(frameworkMessages.de);

const REQUIRED_KEYS = {
  validation:
    "required invalidType tooShort tooLong tooSmall tooLarge tooFew tooMany invalidChoice unknownField notUnique invalidReference empty invalidDate invalidTime invalidDateTime invalidEmail invalidTimezone invalidLanguage invalidPattern invalidRole notInteger notFinite duplicateValue",
  errors:
    "badRequest unauthorized forbidden notFound methodNotAllowed conflict payloadTooLarge unsupportedMediaType unprocessableContent tooManyRequests serviceUnavailable internalServerError invalidCredentials installDone malformedJson bodyTooDeep incompleteBody handlerTimeout queryTimeout restrictDelete",
  query:
    "unknownParam invalidField unknownOperator invalidValue invalidShape nullEquality tooDeep invalidNumber invalidPagination emptySelect duplicateOrderField duplicatePopulateField invalidLocale localeNotApplicable sameLocale tooManyConditions listTooLong tooManyFields tooManyOrderKeys tooManyPopulate populateTooDeep valueTooLarge tooManyPatterns patternsTooLarge",
  dashboard:
    "signIn signOut email password rememberMe installTitle installIntro account language timezone dateFormat timeFormat smartClipboard save saved create edit delete confirmDelete filter previous next pageOf records collections noAccess locale",
};

Deno.test("framework catalogs ship English and German", () => {
  assert.deepEqual(Object.keys(frameworkMessages).sort(), ["de", "en"]);
});

Deno.test("German and English catalogs have exactly the same keys", () => {
  assert.deepEqual(Object.keys(de).sort(), Object.keys(en).sort());
});

Deno.test("framework catalogs hold every required key", () => {
  for (const [group, keys] of Object.entries(REQUIRED_KEYS)) {
    for (const key of keys.split(" ")) {
      assert.equal(
        typeof en[`${group}.${key}`],
        "string",
        `en ${group}.${key}`,
      );
      assert.equal(
        typeof de[`${group}.${key}`],
        "string",
        `de ${group}.${key}`,
      );
    }
  }
});

Deno.test("framework templates are well-formed and non-empty", () => {
  const params = {
    min: 2,
    max: 2,
    page: 1,
    lastPage: 3,
    count: 2,
    email: "ada@example.com",
    link: "https://example.com/dashboard/reset?token=abc",
    hours: 24,
    when: "2030-01-01 10:00",
    target: "Posts",
    name: "Hello",
    source: "Comments",
    collection: "Posts",
    filter: "Views at least 3",
    locale: "en",
    position: 1,
  };
  for (const [language, flat] of Object.entries({ en, de })) {
    for (const [key, template] of Object.entries(flat)) {
      assert.ok(template.trim() !== "", `${language} ${key} is empty`);
      const rendered = renderMessage(template, params, language);
      assert.ok(!/[{}]/.test(rendered), `${language} ${key}: ${rendered}`);
    }
  }
});

Deno.test("German and English templates use the same placeholders", () => {
  const names = (template: string) =>
    [...template.matchAll(/\{\s*([A-Za-z]+)\s*[,}]/g)].map((m) => m[1])
      .sort();
  for (const key of Object.keys(en)) {
    assert.deepEqual(names(de[key]), names(en[key]), key);
  }
});

Deno.test("framework catalogs differ between languages", () => {
  const translator = createTranslator(mergeCatalogs([frameworkMessages]), "en");
  assert.equal(translator.t("errors.notFound", {}, ["de"]), "Nicht gefunden");
  assert.equal(translator.t("errors.notFound", {}, ["en"]), "Not found");
  assert.equal(
    translator.t("dashboard.records", { count: 1 }, ["de"]),
    "1 Datensatz",
  );
  assert.equal(
    translator.t("dashboard.records", { count: 0 }, ["en"]),
    "No records",
  );
  assert.equal(
    translator.t("dashboard.pageOf", { page: 2, lastPage: 1500 }, ["de-AT"]),
    "Seite 2 von 1.500",
  );
  assert.equal(
    translator.t("validation.tooShort", { min: 1 }, ["en"]),
    "Must be at least 1 character long",
  );
  const identical = Object.keys(en).filter((key) => en[key] === de[key]);
  assert.deepEqual(identical, []);
});

Deno.test("the catalogs hold every key the dashboard asks for", async () => {
  const { dashboardMessageKeys } = await import(
    "../../dashboard/message_keys.ts"
  );
  const { flattenMessages } = await import("../../i18n/catalog.ts");
  const { frameworkMessages } = await import(
    "../../i18n/framework_messages.ts"
  );
  for (const language of ["en", "de"]) {
    const flat = flattenMessages(frameworkMessages[language]);
    const missing = dashboardMessageKeys.filter((key) => !(key in flat));
    assert.deepEqual(missing, [], language);
  }
});
