// GET /dashboard/api/collections on a real app: which collections a caller
// may read, the operations they may start, and the field descriptions the
// dashboard's app.js renders. Runs on SQLite and, with STRATA_TEST_POSTGRES,
// on PostgreSQL.
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../testing/mod.ts";
import {
  type DashboardCollection,
  type DashboardField,
  dashboardMessageKeys,
} from "../../dashboard/mod.ts";

const POLICY_APP = fixture("dashboard_policy_app");
const DASHBOARD_APP = fixture("dashboard_app");
const PLAIN_APP = fixture("auth_plain_app");
const PG_URL = Deno.env.get("STRATA_TEST_POSTGRES") || undefined;
const ADMIN = { email: "admin@example.com", password: "correct horse" };

const ADMIN_APP = fixture("dashboard_admin_app");

function fixture(name: string): string {
  return new URL(`../fixtures/${name}/`, import.meta.url).pathname;
}

/** Runs `fn` on a fresh app of `root` per database. */
function dbTest(
  name: string,
  root: string,
  fn: (app: TestApp) => Promise<void>,
): void {
  for (const dialect of ["sqlite", "postgres"] as const) {
    Deno.test({
      name: `${name} (${dialect})`,
      ignore: dialect === "postgres" && PG_URL === undefined,
      async fn() {
        const app = await createTestApp({
          root,
          database: dialect === "postgres" ? PG_URL : ":memory:",
        });
        try {
          await fn(app);
        } finally {
          await app.close();
        }
      },
    });
  }
}

async function install(app: TestApp): Promise<void> {
  const response = await app.request("/auth/install", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  assert.equal(response.status, 200, await response.text());
}

async function createUser(
  app: TestApp,
  email: string,
  roles: string[],
): Promise<void> {
  const created = await app.query("Users").create({
    email,
    password: "correct horse",
    roles,
  });
  assert.ok(created.ok, JSON.stringify(created));
}

async function listAs(
  app: TestApp,
  email: string,
  language?: string,
): Promise<DashboardCollection[]> {
  const client = await app.signIn(email, "correct horse");
  const response = await client.request("/dashboard/api/collections", {
    headers: language ? { "accept-language": language } : {},
  });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("cache-control"), "no-store");
  return await response.json();
}

function byName(
  list: DashboardCollection[],
  name: string,
): DashboardCollection {
  const found = list.find((collection) => collection.name === name);
  assert.ok(found, `${name} is listed`);
  return found;
}

function fieldOf(collection: DashboardCollection, name: string) {
  return collection.fields.find((field) => field.name === name);
}

dbTest("signed out, the list is 401", POLICY_APP, async (app) => {
  for (const installed of [false, true]) {
    if (installed) await install(app);
    const response = await app.request("/dashboard/api/collections");
    assert.equal(response.status, 401);
    const body = await response.json();
    assert.equal(body.statusCode, 401);
  }
});

dbTest(
  "an administrator sees every readable collection, sorted",
  POLICY_APP,
  async (app) => {
    await install(app);
    const list = await listAs(app, ADMIN.email);
    // Drafts: read closed. Hidden: the verdict refuses. Internal: no api.
    // The app's own first, then the auth layer's.
    assert.deepEqual(list.map((collection) => collection.name), [
      "Articles",
      "Contacts",
      "Notices",
      "ApiTokens",
      "Sessions",
      "Users",
    ]);
    assert.deepEqual(
      list.map((collection) => collection.system),
      [false, false, false, true, true, true],
    );
    const articles = byName(list, "Articles");
    assert.equal(articles.path, "articles");
    assert.equal(articles.translatable, true);
    assert.deepEqual(articles.locales, ["en", "de"]);
    assert.deepEqual(articles.operations, {
      read: true,
      create: true,
      update: true,
      delete: true,
    });
    const expected: DashboardField[] = [
      {
        name: "title",
        type: "text",
        kind: "text",
        nullable: false,
        required: true,
        readable: true,
        writable: true,
        immutable: false,
        translatable: true,
        label: "Title",
        hidden: false,
      },
      {
        name: "status",
        type: "select",
        kind: "select",
        nullable: false,
        required: false,
        readable: true,
        writable: true,
        immutable: false,
        translatable: false,
        choices: ["draft", "published"],
        label: "Status",
        hidden: false,
      },
      {
        name: "author",
        type: "record",
        kind: "record",
        nullable: true,
        required: false,
        readable: true,
        writable: true,
        immutable: false,
        translatable: false,
        target: "Users",
        label: "Author",
        hidden: false,
      },
      {
        name: "slug",
        type: "text",
        kind: "text",
        nullable: true,
        required: false,
        readable: true,
        writable: true,
        immutable: true,
        translatable: false,
        label: "Slug",
        hidden: false,
      },
      {
        // Write-only: an input in the form, never a column.
        name: "secret",
        type: "text",
        kind: "text",
        nullable: true,
        required: false,
        readable: false,
        writable: true,
        immutable: false,
        translatable: false,
        label: "Secret",
        hidden: false,
      },
      {
        name: "computed",
        type: "text",
        kind: "text",
        nullable: true,
        required: false,
        readable: true,
        writable: false,
        immutable: false,
        translatable: false,
        label: "Computed",
        hidden: false,
      },
    ];
    // `token` is neither readable nor writable: of no use, not listed.
    assert.deepEqual(articles.fields, expected);

    const users = byName(list, "Users");
    assert.deepEqual(users.locales, []);
    assert.equal(users.translatable, false);
    assert.ok(!users.fields.some((field) => field.name === "UUID"));
    assert.deepEqual(fieldOf(users, "password"), {
      name: "password",
      type: "password",
      kind: "text",
      nullable: false,
      required: true,
      readable: false,
      writable: true,
      immutable: false,
      translatable: false,
      label: "Password",
      hidden: false,
    });
    assert.equal(fieldOf(users, "email")?.type, "email");
    assert.equal(fieldOf(users, "roles")?.kind, "multiSelect");

    const sessions = byName(list, "Sessions");
    assert.deepEqual(sessions.operations, {
      read: true,
      create: false,
      update: false,
      delete: true,
    });
    // tokenHash is write-only and not writable through the API either way.
    assert.equal(fieldOf(sessions, "tokenHash")?.readable ?? false, false);
    assert.equal(fieldOf(sessions, "user")?.target, "Users");

    // The read scope selects name only: phone is write-only for the caller.
    const contacts = byName(list, "Contacts");
    assert.equal(fieldOf(contacts, "name")?.readable, true);
    assert.equal(fieldOf(contacts, "phone")?.readable, false);
    assert.equal(fieldOf(contacts, "phone")?.writable, true);
    assert.deepEqual(contacts.operations, {
      read: true,
      create: true,
      update: false,
      delete: false,
    });
  },
);

dbTest(
  "a role sees what its capabilities read, with its own operations",
  POLICY_APP,
  async (app) => {
    await install(app);
    await createUser(app, "reader@example.com", ["reader"]);
    await createUser(app, "editor@example.com", ["editor"]);
    await createUser(app, "nobody@example.com", []);

    const reader = await listAs(app, "reader@example.com");
    assert.deepEqual(reader.map((collection) => collection.name), [
      "Articles",
      "Contacts",
      "Notices",
      "ApiTokens",
      "Sessions",
    ]);
    assert.deepEqual(byName(reader, "Articles").operations, {
      read: true,
      create: false,
      update: false,
      delete: false,
    });

    const editor = await listAs(app, "editor@example.com");
    assert.deepEqual(byName(editor, "Articles").operations, {
      read: true,
      create: true,
      update: true,
      delete: true,
    });
    assert.ok(!editor.some((collection) => collection.name === "Users"));

    // No role at all: only what is open to any signed-in account.
    const nobody = await listAs(app, "nobody@example.com");
    assert.deepEqual(nobody.map((collection) => collection.name), [
      "Contacts",
      "Notices",
      "ApiTokens",
      "Sessions",
    ]);
  },
);

dbTest(
  "every listed collection answers its list read for that caller",
  POLICY_APP,
  async (app) => {
    await install(app);
    await createUser(app, "reader@example.com", ["reader"]);
    for (const email of [ADMIN.email, "reader@example.com"]) {
      const client = await app.signIn(email, "correct horse");
      const list = await (await client.request("/dashboard/api/collections"))
        .json() as DashboardCollection[];
      for (const collection of list) {
        // What app.js sends: a page, and a filter over readable text fields.
        const searchable = collection.fields.filter((field) =>
          field.readable && field.kind === "text"
        );
        const where = searchable.length === 0 ? undefined : {
          or: searchable.map((field) => ({
            [field.name]: { contains: "x" },
          })),
        };
        const params = new URLSearchParams({ page: "1", perPage: "20" });
        if (where) params.set("where", JSON.stringify(where));
        const response = await client.request(
          `/collections/${collection.path}?${params}`,
        );
        assert.equal(
          response.status,
          200,
          `${email} lists ${collection.path}: ${await response.text()}`,
        );
      }
    }
  },
);

dbTest(
  "the dashboard exists with the auth layer",
  DASHBOARD_APP,
  async (app) => {
    const shell = await app.request("/dashboard/collections/articles");
    assert.equal(shell.status, 200);
    assert.match(await shell.text(), /<div id="app"/);
    const script = await app.request("/dashboard/assets/app.js");
    assert.equal(script.status, 200);
    await script.body?.cancel();
    // Every text the dashboard shows is in both shipped catalogs.
    for (const language of ["en", "de"]) {
      const messages = await app.request(`/messages/dashboard/${language}`);
      assert.equal(messages.status, 200);
      const catalog = await messages.json();
      for (const key of dashboardMessageKeys) {
        assert.equal(catalog[key]?.language, language, `${language} ${key}`);
      }
      if (language === "de") {
        assert.equal(catalog["dashboard.signOut"].template, "Abmelden");
      }
    }
  },
);

Deno.test("without the auth layer there is no dashboard", async () => {
  const app = await createTestApp({ root: PLAIN_APP });
  try {
    for (
      const path of [
        "/dashboard",
        "/dashboard/sign-in",
        "/dashboard/assets/app.js",
        "/dashboard/api/collections",
      ]
    ) {
      const response = await app.request(path);
      assert.equal(response.status, 404, path);
      await response.body?.cancel();
    }
  } finally {
    await app.close();
  }
});

dbTest(
  "presentation options arrive resolved in the request's language",
  ADMIN_APP,
  async (app) => {
    await install(app);
    const en = await listAs(app, ADMIN.email, "en");
    const posts = byName(en, "Posts");
    assert.equal(posts.label, "Posts");
    assert.equal(posts.description, "Articles of the blog");
    assert.equal(posts.displayField, "title");
    assert.deepEqual(posts.listFields, [
      "title",
      "author",
      "tags",
      "views",
      "published",
    ]);
    assert.deepEqual(posts.defaultOrder, ["-views", "title"]);
    const title = fieldOf(posts, "title");
    assert.equal(title?.label, "Title");
    assert.equal(title?.placeholder, "A headline");
    assert.equal(title?.max, 200);
    // A literal is shown as written; a missing label is the name, words split.
    assert.equal(
      fieldOf(posts, "body")?.description,
      "Shown on the post's page",
    );
    assert.equal(fieldOf(posts, "body")?.display, "textarea");
    assert.equal(fieldOf(posts, "published")?.display, "switch");
    assert.equal(fieldOf(posts, "publishedOn")?.label, "Published on");
    assert.equal(fieldOf(posts, "views")?.min, 0);
    assert.equal(fieldOf(posts, "internalNote")?.hidden, true);
    assert.equal(fieldOf(posts, "title")?.hidden, false);
    assert.equal(byName(en, "BlogTags").label, "Blog tags");
    assert.equal(byName(en, "BlogTags").displayField, "name");
    // Users are named by their email; a collection without a naming field by nothing.
    assert.equal(byName(en, "Users").displayField, "email");
    assert.equal(byName(en, "Ratings").displayField, null);
    assert.deepEqual(byName(en, "Ratings").listFields, ["score"]);
    assert.deepEqual(byName(en, "Ratings").defaultOrder, []);

    const de = byName(await listAs(app, ADMIN.email, "de"), "Posts");
    assert.equal(de.label, "Beiträge");
    assert.equal(de.description, "Artikel des Blogs");
    assert.equal(fieldOf(de, "title")?.label, "Titel");
    assert.equal(fieldOf(de, "title")?.placeholder, "Eine Schlagzeile");
    assert.equal(fieldOf(de, "body")?.description, "Shown on the post's page");
  },
);
