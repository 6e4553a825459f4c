// Fills an empty database with demo accounts, authors, tags, posts in English and German,
// and a comment. Runs outside any request: trusted, so the query:filter hook and access
// scopes do not apply.
import type { App } from "@strata/strata";

/** The password of every demo account (documented in the README and docs). */
export const DEMO_PASSWORD = "strata-demo-password";

/** The demo accounts: email → roles. */
export const DEMO_ACCOUNTS: Readonly<Record<string, readonly string[]>> = {
  "admin@example.com": ["admin"],
  "editor@example.com": ["editor"],
  "ada@example.com": ["author"],
  "grace@example.com": ["author"],
};

interface SeedPost {
  slug: string;
  author: string;
  tags: string[];
  publishedOn: string | null;
  en: { title: string; body: string };
  de?: { title: string; body: string };
}

const POSTS: SeedPost[] = [
  {
    slug: "hello-strata",
    author: "ada@example.com",
    tags: ["news"],
    publishedOn: "2025-01-15",
    en: {
      title: "Hello Strata",
      body: "An app is a folder: routes, collections, roles, messages.",
    },
    de: {
      title: "Hallo Strata",
      body:
        "Eine App ist ein Ordner: Routen, Collections, Rollen, Nachrichten.",
    },
  },
  {
    slug: "routes-from-files",
    author: "ada@example.com",
    tags: ["guide"],
    publishedOn: "2025-03-02",
    en: {
      title: "Routes from files",
      body: "api/posts/[slug].get.ts answers GET /posts/:slug.",
    },
    de: {
      title: "Routen aus Dateien",
      body: "api/posts/[slug].get.ts beantwortet GET /posts/:slug.",
    },
  },
  {
    slug: "access-scopes",
    author: "grace@example.com",
    tags: ["guide", "security"],
    publishedOn: "2025-03-20",
    en: {
      title: "Access scopes",
      body: "Authors edit only their own posts.",
    },
    de: {
      title: "Zugriffsbereiche",
      body: "Autorinnen bearbeiten nur ihre eigenen Beiträge.",
    },
  },
  {
    slug: "draft-ideas",
    author: "grace@example.com",
    tags: [],
    publishedOn: null,
    en: { title: "Draft ideas", body: "Not ready yet." },
  },
];

function ok<T extends { ok: boolean }>(
  result: T,
  what: string,
): Extract<T, { ok: true }> {
  if (!result.ok) {
    throw new Error(
      `Seeding ${what} failed: ${
        JSON.stringify((result as { errors?: unknown }).errors)
      }`,
    );
  }
  return result as Extract<T, { ok: true }>;
}

/** Seeds `app` unless it already has users; returns whether it seeded. */
export async function seedBlog(app: App): Promise<boolean> {
  if (await app.query("Users").count() > 0) return false;
  const users = new Map<string, string>();
  for (const [email, roles] of Object.entries(DEMO_ACCOUNTS)) {
    const { record } = ok(
      await app.query("Users").create({
        email,
        password: DEMO_PASSWORD,
        roles: [...roles],
      }),
      email,
    );
    users.set(email, record.UUID);
  }
  const authors = new Map<string, string>();
  for (
    const [email, name, bio] of [
      ["ada@example.com", "Ada", "Writes about routes."],
      ["grace@example.com", "Grace", "Writes about access."],
    ]
  ) {
    const { record } = ok(
      await app.query("Authors").create({ name, bio, user: users.get(email) }),
      name,
    );
    authors.set(email, record.UUID);
  }
  const tags = new Map<string, string>();
  for (const name of ["news", "guide", "security"]) {
    const { record } = ok(await app.query("Tags").create({ name }), name);
    tags.set(name, record.UUID);
  }
  for (const post of POSTS) {
    const { record } = ok(
      await app.query("Posts").create({
        ...post.en,
        slug: post.slug,
        author: authors.get(post.author),
        tags: post.tags.map((tag) => tags.get(tag)),
        published: post.publishedOn !== null,
        publishedOn: post.publishedOn,
      }),
      post.slug,
    );
    if (post.de) {
      ok(
        await app.query("Posts").where({ UUID: record.UUID }).locale("de")
          .update(post.de),
        `${post.slug} (de)`,
      );
    }
    if (post.slug === "hello-strata") {
      ok(
        await app.query("Comments").create({
          post: record.UUID,
          author: users.get("editor@example.com"),
          body: "Welcome aboard!",
        }),
        "a comment",
      );
    }
  }
  return true;
}
