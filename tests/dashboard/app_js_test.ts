// The client script: it loads as a module without a DOM, and its pure helpers
// (messages, routes, list queries, form values) behave.
import assert from "node:assert/strict";
import { appJs } from "../../dashboard/assets/app_js.ts";
import { DATE_PATTERNS, TIME_PATTERNS } from "../../auth/types/date_pattern.ts";
import { stylesCss } from "../../dashboard/assets/styles_css.ts";
import { dashboardMessageKeys } from "../../dashboard/message_keys.ts";

// deno-lint-ignore no-explicit-any
const app: any = await import(
  "data:text/javascript," + encodeURIComponent(appJs)
);

const posts = {
  name: "Posts",
  path: "posts",
  translatable: true,
  locales: ["en", "de"],
  operations: { read: true, create: true, update: true, delete: true },
  fields: [
    { name: "title", type: "text", kind: "text", readable: true },
    { name: "body", type: "text", kind: "text", readable: true },
    { name: "views", type: "integer", kind: "integer", readable: true },
    { name: "tags", type: "multiSelect", kind: "multiSelect", choices: ["a"] },
    { name: "author", type: "record", kind: "record", target: "Authors" },
    { name: "password", type: "password", kind: "text", readable: false },
  ],
};

Deno.test("the script imports without a DOM and exports its helpers", () => {
  assert.equal(typeof app.formatMessage, "function");
  assert.equal(typeof app.parseRoute, "function");
  assert.equal(typeof app.listQuery, "function");
  assert.ok(!("document" in globalThis), "the test runs without a DOM");
});

Deno.test("the style sheet contains no template-literal breakers", () => {
  assert.ok(!stylesCss.includes("`"));
  assert.ok(!stylesCss.includes("${"));
});

Deno.test("every key the script looks up is listed, and has a fallback", () => {
  const used = new Set<string>();
  for (const match of appJs.matchAll(/\bt\(\s*"(\w+)"/g)) used.add(match[1]);
  const listed = dashboardMessageKeys.map((key) =>
    key.replace(/^dashboard\./, "")
  );
  for (const key of used) {
    assert.ok(listed.includes(key), `${key} is in dashboardMessageKeys`);
  }
  assert.deepEqual(
    Object.keys(app.fallbackMessages).sort(),
    [...listed].sort(),
  );
  assert.ok(used.size > 30, "the scan found the lookups");
  for (const key of dashboardMessageKeys) assert.match(key, /^dashboard\.\w+$/);
});

Deno.test("formatMessage fills placeholders and leaves missing ones visible", () => {
  assert.equal(
    app.formatMessage("Page {page} of {lastPage}", { page: 2, lastPage: 7 }),
    "Page 2 of 7",
  );
  assert.equal(
    app.formatMessage("Signed in as {email}", { email: "a@b.c" }),
    "Signed in as a@b.c",
  );
  assert.equal(app.formatMessage("Hi {name}", {}), "Hi {name}");
  assert.equal(app.formatMessage("{n}", { n: 1234567 }, "de"), "1.234.567");
});

Deno.test("formatMessage picks plural branches with Intl.PluralRules", () => {
  const records =
    "{count, plural, =0 {No records} one {# record} other {# records}}";
  assert.equal(app.formatMessage(records, { count: 0 }, "en"), "No records");
  assert.equal(app.formatMessage(records, { count: 1 }, "en"), "1 record");
  assert.equal(app.formatMessage(records, { count: 2 }, "en"), "2 records");
  assert.equal(
    app.formatMessage(records, { count: 1500 }, "en"),
    "1,500 records",
  );
  // Polish has a "few" category: a wrong language would pick "other".
  const polish = "{n, plural, one {# plik} few {# pliki} other {# plików}}";
  assert.equal(app.formatMessage(polish, { n: 3 }, "pl"), "3 pliki");
  assert.equal(app.formatMessage(polish, { n: 5 }, "pl"), "5 plików");
  assert.equal(
    app.formatMessage(
      "{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}",
      {
        n: 22,
      },
      "en",
    ),
    "22nd",
  );
  assert.equal(
    app.formatMessage(
      "{n, plural, offset:1 =0 {nobody} one {you} other {you and #}}",
      {
        n: 3,
      },
    ),
    "you and 2",
  );
});

Deno.test("formatMessage handles select, nesting and apostrophe quoting", () => {
  const message =
    "{role, select, admin {{n, plural, one {# admin} other {# admins}}} other {someone}}";
  assert.equal(app.formatMessage(message, { role: "admin", n: 2 }), "2 admins");
  assert.equal(app.formatMessage(message, { role: "x", n: 2 }), "someone");
  assert.equal(app.formatMessage("It's '{literal}'", {}), "It's {literal}");
  assert.equal(app.formatMessage("a '' b", {}), "a ' b");
  assert.equal(
    app.formatMessage("{n, plural, other {'#' is #}}", { n: 4 }),
    "# is 4",
  );
});

Deno.test("a malformed template is shown as written", () => {
  for (const bad of ["{unclosed", "{n, plural, one {x}}", "{a, fancy}", "}"]) {
    assert.throws(() => app.parseMessage(bad), SyntaxError);
    assert.equal(app.formatMessage(bad, { n: 1 }), bad);
  }
});

Deno.test("translate reads the catalog, then the English fallback", () => {
  const catalog = {
    "dashboard.records": {
      template: "{count, plural, one {# Eintrag} other {# Einträge}}",
      language: "de",
    },
    "dashboard.signOut": { template: "Abmelden", language: "de" },
  };
  assert.equal(app.translate(catalog, "signOut", {}, "de"), "Abmelden");
  assert.equal(
    app.translate(catalog, "records", { count: 1000 }, "de"),
    "1.000 Einträge",
  );
  assert.equal(app.translate(catalog, "cancel", {}, "de"), "Cancel");
  assert.equal(app.translate({}, "nope", {}, "en"), "nope");
});

Deno.test("catalogLanguage names the language the catalog answered in", () => {
  const entry = (language: string) => ({ template: "x", language });
  const catalog = {
    "dashboard.a": entry("de"),
    "dashboard.b": entry("en"),
    "dashboard.c": entry("en"),
  };
  assert.equal(app.catalogLanguage(catalog, "de-AT"), "de");
  assert.equal(app.catalogLanguage(catalog, "DE"), "de");
  assert.equal(app.catalogLanguage(catalog, "fr"), "en");
  assert.equal(
    app.catalogLanguage({
      "dashboard.a": entry("pt-BR"),
      "dashboard.b": entry("pt"),
    }, "pt-BR"),
    "pt-BR",
  );
  assert.equal(app.catalogLanguage({}, "sv"), "sv");
});

Deno.test("parseRoute names the page of a path under the base", () => {
  assert.deepEqual(app.parseRoute("/api/dashboard", "/api"), { name: "home" });
  assert.deepEqual(app.parseRoute("/api/dashboard/", "/api"), { name: "home" });
  assert.deepEqual(app.parseRoute("/dashboard/install", ""), {
    name: "install",
  });
  assert.deepEqual(app.parseRoute("/dashboard/sign-in", ""), {
    name: "signIn",
  });
  assert.deepEqual(app.parseRoute("/dashboard/account/", "/"), {
    name: "account",
  });
  assert.deepEqual(
    app.parseRoute("/api/dashboard/collections/user-groups", "/api/"),
    { name: "collection", path: "user-groups" },
  );
  for (const other of ["/dashboard", "/api/dashboardx", "/api/dashboard/x"]) {
    assert.deepEqual(app.parseRoute(other, "/api"), { name: "notFound" });
  }
  assert.deepEqual(app.parseRoute("/dashboard/collections/%E0%A4%A", ""), {
    name: "notFound",
  });
});

Deno.test("list state round-trips through the query string", () => {
  const state = app.readListState("?page=3&order=-views&q=o%27x&locale=de");
  assert.deepEqual(state, {
    page: 3,
    order: "-views",
    q: "o'x",
    locale: "de",
    filters: [],
  });
  assert.deepEqual(app.readListState(app.listSearch(state)), state);
  assert.deepEqual(app.readListState("?page=-2"), {
    page: 1,
    order: "",
    q: "",
    locale: "",
    filters: [],
  });
  // Field filters travel as f=field:op:value; a value may hold colons and commas.
  const filtered = {
    ...state,
    filters: [
      { field: "views", op: "atLeast", value: "10" },
      { field: "title", op: "contains", value: "a:b, c" },
      { field: "author", op: "isNull", value: "" },
    ],
  };
  const search = app.listSearch(filtered);
  assert.match(search, /f=views%3AatLeast%3A10/);
  assert.deepEqual(app.readListState(search), filtered);
  assert.deepEqual(app.readListState("?f=nonsense&f=:x:y").filters, []);
  assert.equal(
    app.listSearch({ page: 1, order: "", q: "", locale: "" }),
    "",
  );
});

Deno.test("the filter searches readable text fields with an or of contains", () => {
  assert.deepEqual(app.filterWhere(posts.fields, "  o'x "), {
    or: [{ title: { contains: "o'x" } }, { body: { contains: "o'x" } }],
  });
  assert.deepEqual(app.filterWhere(posts.fields.slice(0, 1), "x"), {
    title: { contains: "x" },
  });
  assert.equal(app.filterWhere(posts.fields, "   "), undefined);
  assert.equal(app.filterWhere([posts.fields[2]], "x"), undefined);
});

Deno.test("listQuery sends page, perPage, order and where as JSON", () => {
  const query = app.listQuery(
    posts,
    { page: 2, order: "-views", q: 'say "hi"', locale: "" },
    "de",
  );
  assert.deepEqual(query, {
    page: "2",
    perPage: "20",
    order: '["-views"]',
    where: JSON.stringify({
      or: [
        { title: { contains: 'say "hi"' } },
        { body: { contains: 'say "hi"' } },
      ],
    }),
    locale: "de",
  });
  assert.deepEqual(JSON.parse(query.where).or[0].title.contains, 'say "hi"');
  // An order on a field the list may not sort by is dropped, not sent.
  for (const order of ["tags", "password", "nope"]) {
    assert.equal(
      app.listQuery(posts, { page: 1, order, q: "", locale: "" }).order,
      undefined,
    );
  }
  // Without an order in the URL, the collection's default order; populated links.
  assert.deepEqual(
    app.listQuery(
      { ...posts, defaultOrder: ["-views", "title"] },
      { page: 1, order: "", q: "", locale: "" },
      "",
      ["author"],
    ),
    {
      page: "1",
      perPage: "20",
      order: '["-views","title"]',
      populate: '["author"]',
    },
  );
  assert.equal(app.nextOrder("", "views"), "views");
  assert.equal(app.nextOrder("views", "views"), "-views");
  assert.equal(app.nextOrder("-views", "views"), "views");
  assert.equal(app.nextOrder("-title", "views"), "views");
});

Deno.test("listQuery searches a searchable collection with search=, not contains", () => {
  const searchable = { ...posts, search: true };
  assert.deepEqual(
    app.listQuery(searchable, {
      page: 1,
      order: "",
      q: ' deno "routes" ',
      locale: "",
    }, ""),
    { page: "1", perPage: "20", search: 'deno "routes"' },
  );
  assert.deepEqual(
    app.listQuery(
      searchable,
      { page: 1, order: "-views", q: "x", locale: "" },
      "",
    ),
    { page: "1", perPage: "20", order: '["-views"]', search: "x" },
  );
  assert.deepEqual(
    app.listQuery(searchable, { page: 1, order: "", q: "  ", locale: "" }, ""),
    { page: "1", perPage: "20" },
  );
});

Deno.test("pickLocale prefers the URL, then the content language, then the first", () => {
  assert.equal(app.pickLocale(posts, "de", "en"), "de");
  assert.equal(app.pickLocale(posts, "fr", "de"), "de");
  assert.equal(app.pickLocale(posts, "", "fr"), "en");
});

Deno.test("form values convert between fields and inputs", () => {
  const field = (kind: string, extra = {}) => ({ name: "f", kind, ...extra });
  assert.deepEqual(app.fromInputValue(field("integer"), "42"), {
    empty: false,
    value: 42,
  });
  assert.deepEqual(app.fromInputValue(field("number"), ""), {
    empty: true,
    value: null,
  });
  assert.deepEqual(app.fromInputValue(field("time"), "09:30"), {
    empty: false,
    value: "09:30:00",
  });
  assert.deepEqual(app.fromInputValue(field("records"), "a, b  c,"), {
    empty: false,
    value: ["a", "b", "c"],
  });
  assert.deepEqual(app.fromInputValue(field("text"), " keep "), {
    empty: false,
    value: " keep ",
  });
  const local = app.toInputValue(field("dateTime"), 1_700_000_000_000);
  assert.match(local, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  assert.deepEqual(app.fromInputValue(field("dateTime"), local), {
    empty: false,
    value: 1_700_000_000_000,
  });
  assert.equal(app.toInputValue(field("records"), ["a", "b"]), "a, b");
  assert.equal(app.toInputValue(field("integer"), null), "");
  assert.equal(app.emptyValue(field("text")), "");
  assert.equal(app.emptyValue(field("text", { nullable: true })), null);
  assert.deepEqual(app.emptyValue(field("multiSelect")), []);
  assert.equal(app.emptyValue(field("integer")), null);
});

Deno.test("fieldErrors keys 422 messages by field name", () => {
  assert.deepEqual(
    app.fieldErrors({
      statusCode: 422,
      message: "Invalid",
      data: {
        errors: { email: "Bad", "tags[1]": "Not a choice", "a.b": "Nested" },
      },
    }),
    { email: "Bad", tags: "Not a choice", a: "Nested" },
  );
  assert.deepEqual(app.fieldErrors({ statusCode: 401, message: "x" }), {});
  assert.deepEqual(app.fieldErrors(null), {});
});

Deno.test("table cells name links by their target, never by a UUID, and format by kind", () => {
  const settings = {
    language: "en",
    timezone: "UTC",
    dateFormat: "LL",
    timeFormat: "LTS",
  };
  const uuid = "0f0e0d0c-1111-4222-8333-444455556666";
  // An unpopulated link (the target is not readable) and an empty one show a dash.
  assert.equal(app.formatCell({ kind: "record" }, uuid, settings), "—");
  assert.equal(
    app.formatCell({ kind: "records" }, [uuid, uuid], settings),
    "—",
  );
  assert.equal(app.relationText(undefined, null, settings), "—");
  assert.equal(app.relationText(undefined, [], settings), "—");
  const tags = { label: "Blog tags", displayField: "name" };
  assert.equal(
    app.relationText(tags, [{ UUID: uuid, name: "deno" }, {
      UUID: uuid,
      name: "web",
    }], settings),
    "deno, web",
  );
  const at = Date.UTC(2026, 2, 12, 10);
  // Without a display value: the collection's label and the record's last change.
  const ratings = { label: "Ratings", displayField: null };
  assert.equal(
    app.relationText(
      ratings,
      { UUID: uuid, score: 4, _updatedAt: at },
      settings,
    ),
    "Ratings · Mar 12, 2026",
  );
  assert.equal(
    app.recordName(tags, { UUID: uuid, name: "", _updatedAt: at }, settings),
    "Blog tags · Mar 12, 2026",
  );
  assert.equal(
    app.recordName(ratings, { UUID: uuid, _updatedAt: at }, {
      ...settings,
      language: "de",
    }),
    "Ratings · 12.03.2026",
  );
  assert.equal(app.isSortable({ kind: "record" }), false);
  assert.equal(app.formatCell({ kind: "integer" }, 1234, settings), "1,234");
  assert.equal(
    app.formatCell({ kind: "date" }, "2024-01-02", settings),
    "January 2, 2024",
  );
  assert.equal(
    app.formatCell({ kind: "dateTime" }, Date.UTC(2024, 0, 2, 3, 4, 5), {
      ...settings,
      timezone: "Europe/Berlin",
    }),
    "January 2, 2024 at 4:04:05 AM",
  );
  assert.equal(
    app.formatCell({ kind: "multiSelect" }, ["a", "b"], settings),
    "a, b",
  );
  assert.equal(app.formatCell({ kind: "text" }, null, settings), "");
  assert.equal(app.formatCell({ kind: "boolean" }, true, settings), "✓");
  assert.equal(app.isRelation({ kind: "records" }), true);
  assert.equal(app.isSortable({ kind: "multiSelect" }), false);
  assert.equal(app.fieldKind({ type: "integer" }), "integer");
});

Deno.test("table cells render every date and time format an account may choose", () => {
  const at = Date.UTC(2024, 0, 2, 3, 4, 5);
  const base = { language: "en", timezone: "Europe/Berlin" };
  const cases: [string, string, string, string][] = [
    ["YYYY-MM-DD", "HH:mm", "2024-01-02", "2024-01-02 04:04"],
    ["DD.MM.YYYY", "HH:mm:ss", "02.01.2024", "02.01.2024 04:04:05"],
    ["DD/MM/YYYY", "LT", "02/01/2024", "02/01/2024 4:04 AM"],
    ["MM/DD/YYYY", "LTS", "01/02/2024", "01/02/2024 4:04:05 AM"],
  ];
  for (const [dateFormat, timeFormat, day, moment] of cases) {
    const settings = { ...base, dateFormat, timeFormat };
    assert.equal(app.formatCell({ kind: "date" }, "2024-01-02", settings), day);
    assert.equal(app.formatCell({ kind: "dateTime" }, at, settings), moment);
  }
  for (const dateFormat of ["L", "l", "ll", "LL", "LLL", "LLLL"]) {
    const text = app.formatCell({ kind: "date" }, "2024-01-02", {
      ...base,
      dateFormat,
      timeFormat: "LT",
    });
    assert.match(text, /2024|24/, dateFormat);
  }
});

Deno.test("the account page offers exactly the formats the server accepts, each with a preview", () => {
  assert.deepEqual(app.FORMAT_CHOICES, {
    date: DATE_PATTERNS,
    time: TIME_PATTERNS,
  });
  const at = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));
  const settings = { language: "en", timezone: "Europe/Berlin" };
  for (const pattern of DATE_PATTERNS) {
    assert.match(
      app.formatSample("date", pattern, at, settings),
      /2024|24/,
      pattern,
    );
  }
  for (const pattern of TIME_PATTERNS) {
    assert.match(
      app.formatSample("time", pattern, at, settings),
      /^0?4:04/,
      pattern,
    );
  }
  assert.equal(
    app.formatSample("date", "YYYY-MM-DD", at, settings),
    "2024-01-02",
  );
  assert.equal(app.formatSample("time", "HH:mm:ss", at, settings), "04:04:05");
});

Deno.test("normalizeBase keeps only a leading-slash path without trailing slashes", () => {
  assert.equal(app.normalizeBase("/api/"), "/api");
  assert.equal(app.normalizeBase("/"), "");
  assert.equal(app.normalizeBase(""), "");
  assert.equal(app.normalizeBase(null), "");
  assert.equal(app.normalizeBase("http://evil"), "");
});

Deno.test("the style sheet has visible focus and a narrow-screen layout", () => {
  assert.match(stylesCss, /:focus-visible\s*\{[^}]*outline:/);
  assert.match(stylesCss, /@media \(max-width: \d+px\)/);
  let depth = 0;
  for (const char of stylesCss) {
    if (char === "{") depth++;
    if (char === "}") depth--;
    assert.ok(depth >= 0);
  }
  assert.equal(depth, 0, "braces balance");
});

Deno.test("field filters become wire conditions, merged per field and ANDed with the search", () => {
  const fields = [
    { name: "title", kind: "text" },
    { name: "views", kind: "integer" },
    { name: "published", kind: "boolean" },
    { name: "status", kind: "select", choices: ["a", "b"], nullable: true },
    { name: "tags", kind: "records", target: "Tags" },
    { name: "author", kind: "record", target: "Users", nullable: true },
    { name: "on", kind: "date" },
    { name: "secret", kind: "text", readable: false },
  ];
  const f = (field: string, op: string, value = "") => ({ field, op, value });
  assert.deepEqual(
    app.filtersWhere(fields, [
      f("views", "atLeast", "10"),
      f("views", "atMost", "20"),
      f("title", "contains", "deno"),
      f("published", "equalsTo", "true"),
      f("status", "in", "a, b"),
      f("tags", "includes", "t-uuid"),
      f("author", "isNull"),
      f("on", "atLeast", "2026-03-01"),
    ]),
    {
      views: { atLeast: 10, atMost: 20 },
      title: { contains: "deno" },
      published: { equalsTo: true },
      status: { in: ["a", "b"] },
      tags: { includes: "t-uuid" },
      author: { isNull: true },
      on: { atLeast: "2026-03-01" },
    },
  );
  // Operators that do not fit, values that are not values, and unreadable fields are dropped.
  assert.deepEqual(
    app.filtersWhere(fields, [
      f("views", "contains", "1"),
      f("views", "atLeast", "ten"),
      f("published", "equalsTo", "maybe"),
      f("title", "isNull"),
      f("on", "atLeast", "March"),
      f("secret", "contains", "x"),
      f("nope", "equalsTo", "x"),
    ]),
    {},
  );
  assert.deepEqual(app.filterOps(fields[0]), ["contains", "equalsTo"]);
  assert.deepEqual(app.filterOps(fields[5]), [
    "equalsTo",
    "isNull",
    "isNotNull",
  ]);
  const query = app.listQuery(
    { fields },
    {
      page: 1,
      order: "",
      q: "x",
      locale: "",
      filters: [f("views", "atLeast", "3")],
    },
    "",
  );
  assert.deepEqual(JSON.parse(query.where), {
    views: { atLeast: 3 },
    or: [{ title: { contains: "x" } }],
  });
});

Deno.test("columns follow listFields; labels fall back to names", () => {
  const collection = {
    fields: [
      { name: "title", label: "Title", readable: true },
      { name: "body", readable: true },
      { name: "secret", readable: false },
    ],
    listFields: ["body", "secret", "title", "nope"],
  };
  assert.deepEqual(
    app.listColumns(collection).map((field: { name: string }) => field.name),
    ["body", "title"],
  );
  assert.deepEqual(
    app.listColumns({ fields: collection.fields }).map((
      field: { name: string },
    ) => field.name),
    ["title", "body"],
  );
  assert.equal(app.fieldLabel(collection.fields[0]), "Title");
  assert.equal(app.fieldLabel(collection.fields[1]), "body");
});

Deno.test("dateTime inputs show and read wall time in the account's time zone", () => {
  const field = { name: "at", kind: "dateTime" };
  const at = Date.UTC(2024, 6, 1, 10, 30, 5);
  assert.equal(
    app.toInputValue(field, at, "Europe/Berlin"),
    "2024-07-01T12:30:05",
  );
  assert.equal(
    app.toInputValue(field, at, "America/New_York"),
    "2024-07-01T06:30:05",
  );
  assert.deepEqual(
    app.fromInputValue(field, "2024-07-01T12:30:05", "Europe/Berlin"),
    {
      empty: false,
      value: at,
    },
  );
  // Winter: another offset; seconds may be left out.
  assert.equal(
    app.fromWallTime("2024-01-15T09:00", "Europe/Berlin"),
    Date.UTC(2024, 0, 15, 8, 0, 0),
  );
  assert.equal(
    app.fromWallTime("2024-01-15T09:00", "UTC"),
    Date.UTC(2024, 0, 15, 9),
  );
  // A round trip on the day of the autumn DST change keeps the instant.
  const autumn = Date.UTC(2024, 9, 27, 2, 30);
  assert.equal(
    app.fromWallTime(
      app.toInputValue(field, autumn, "Europe/Berlin"),
      "Europe/Berlin",
    ),
    autumn,
  );
  assert.equal(app.fromWallTime("nope", "Europe/Berlin"), null);
  assert.equal(app.fromWallTime("2024-01-15T09:00", "Mars/Olympus"), null);
});
