// Differential testing of the collections API: the same seeded data in an app on SQLite and
// one on PostgreSQL, the same random list queries to both, and the answers must be equal
// (status, error code and path, records). Record UUIDs differ between the two databases, so
// every UUID in an answer is replaced by its record's name before comparing. PostgreSQL only.
import assert from "node:assert/strict";
import pg from "pg";
import { type App, createApp } from "../../mod.ts";
import { type Client, clientOf, PG_URL } from "../_helpers/db_apps.ts";

type Answer = Awaited<ReturnType<Client["req"]>>;
import { fixturePath } from "../_helpers/fixture_app.ts";
import { mulberry32, pick, type Rng } from "../_helpers/random.ts";

const ROUNDS = Number(Deno.env.get("STRATA_DIFF_ROUNDS") ?? "400");
const SEED = Number(Deno.env.get("STRATA_DIFF_SEED") ?? "7");

const WORDS = [
  "alpha",
  "Alpha beta",
  "ALPHA",
  "Äpfel",
  "äpfel",
  "Über",
  "über alles",
  "zebra",
  "Zebra",
  "a-b",
  "ab",
  "a_b",
  "100%",
  "10",
  "9",
  "",
  "Straße",
  "STRASSE",
  "émile",
  "Émile",
  "日本",
  "😀 smile",
];

interface Seeded {
  /** UUID → a stable name, per app. */
  names: Map<string, string>;
}

/** The same records, created in the same order, in `app`. */
async function seed(app: App, rng: Rng): Promise<Seeded> {
  const names = new Map<string, string>();
  const tags: string[] = [];
  for (let i = 0; i < 5; i++) {
    const created = await app.query("Tags").create({ name: `tag${i}` });
    if (!created.ok) throw new Error(JSON.stringify(created.errors));
    tags.push(created.record.UUID);
    names.set(created.record.UUID, `tag${i}`);
  }
  const authors: string[] = [];
  for (let i = 0; i < 4; i++) {
    const created = await app.query("Authors").create({
      name: pick(rng, WORDS) || `author${i}`,
      email: i % 2 ? null : `a${i}@example.com`,
    });
    if (!created.ok) throw new Error(JSON.stringify(created.errors));
    authors.push(created.record.UUID);
    names.set(created.record.UUID, `author${i}`);
  }
  // Distinct view counts: every query orders by views last, which settles every tie (a
  // title can be missing in a locale, and ties would otherwise fall to the UUIDs).
  const views = Array.from({ length: 40 }, (_, i) => i * 3);
  for (let i = views.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [views[i], views[j]] = [views[j], views[i]];
  }
  for (let i = 0; i < 40; i++) {
    const title = `${pick(rng, WORDS)} #${String(i).padStart(2, "0")}`;
    const created = await app.query("Posts").create({
      title,
      status: pick(rng, ["draft", "published"]),
      views: views[i],
      rating: rng() < 0.3 ? null : Math.round(rng() * 100) / 10 - 2,
      published: rng() < 0.5,
      slug: rng() < 0.5 ? null : pick(rng, WORDS) || "-",
      author: rng() < 0.2 ? null : pick(rng, authors),
      tags: tags.filter(() => rng() < 0.4),
    });
    if (!created.ok) throw new Error(JSON.stringify(created.errors));
    names.set(created.record.UUID, `post${i}`);
    if (rng() < 0.6) {
      const translated = await app.query("Posts").locale("de")
        .where({ UUID: created.record.UUID })
        .update({
          title: `${pick(rng, WORDS)} de${String(i).padStart(2, "0")}`,
        });
      if (!translated.ok) throw new Error(JSON.stringify(translated.errors));
    }
  }
  return { names };
}

const TEXT_OPS = [
  "equalsTo",
  "contains",
  "startsWith",
  "endsWith",
  "like",
  "greaterThan",
  "lessThan",
  "atLeast",
  "atMost",
] as const;
const NUMBER_OPS = [
  "equalsTo",
  "greaterThan",
  "lessThan",
  "atLeast",
  "atMost",
] as const;

function textValue(rng: Rng): string {
  const word = pick(rng, WORDS);
  const roll = rng();
  if (roll < 0.3) return word.slice(0, 1 + Math.floor(rng() * 3));
  if (roll < 0.4) return word.toUpperCase();
  if (roll < 0.5) return `%${word.slice(0, 2)}%`;
  return word;
}

function randomCondition(
  rng: Rng,
  authors: readonly string[],
  tags: readonly string[],
  depth: number,
): Record<string, unknown> {
  const roll = rng();
  if (depth < 2 && roll < 0.1) {
    return {
      or: Array.from(
        { length: 1 + Math.floor(rng() * 3) },
        () => randomCondition(rng, authors, tags, depth + 1),
      ),
    };
  }
  if (depth < 2 && roll < 0.15) {
    return { not: randomCondition(rng, authors, tags, depth + 1) };
  }
  switch (pick(rng, ["title", "slug", "views", "rating", "misc"] as const)) {
    case "title":
    case "slug": {
      const field = rng() < 0.6 ? "title" : "slug";
      const op = pick(rng, TEXT_OPS);
      if (rng() < 0.1) return { [field]: { isNull: rng() < 0.5 } };
      if (rng() < 0.1) {
        return { [field]: { in: [textValue(rng), textValue(rng)] } };
      }
      return { [field]: { [op]: textValue(rng) } };
    }
    case "views":
      return {
        views: { [pick(rng, NUMBER_OPS)]: Math.floor(rng() * 125) - 3 },
      };
    case "rating":
      if (rng() < 0.2) return { rating: { isNull: rng() < 0.5 } };
      return {
        rating: { [pick(rng, NUMBER_OPS)]: Math.round(rng() * 120) / 10 - 2 },
      };
    default: {
      const which = Math.floor(rng() * 5);
      if (which === 0) return { published: rng() < 0.5 };
      if (which === 1) return { status: pick(rng, ["draft", "published"]) };
      if (which === 2) {
        return rng() < 0.3
          ? { author: { isNull: rng() < 0.5 } }
          : { author: pick(rng, authors) };
      }
      if (which === 3) {
        const op = pick(rng, ["includes", "includesAny", "includesAll"]);
        return {
          tags: {
            [op]: op === "includes"
              ? pick(rng, tags)
              : tags.filter(() => rng() < 0.4),
          },
        };
      }
      return rng() < 0.5
        ? { author: { has: { name: { contains: textValue(rng) } } } }
        : { tags: { has: { name: pick(rng, ["tag0", "tag3", "x"]) } } };
    }
  }
}

/** A random list query string, built against the SQLite app's UUIDs. */
function randomQuery(
  rng: Rng,
  authors: readonly string[],
  tags: readonly string[],
): string {
  const params: string[] = [];
  if (rng() < 0.85) {
    const where = rng() < 0.3
      ? {
        ...randomCondition(rng, authors, tags, 0),
        ...randomCondition(rng, authors, tags, 0),
      }
      : randomCondition(rng, authors, tags, 0);
    params.push(`where=${encodeURIComponent(JSON.stringify(where))}`);
  }
  const order: string[] = [];
  for (const field of ["rating", "published", "status", "slug", "title"]) {
    if (rng() < 0.3) order.push(rng() < 0.5 ? `-${field}` : field);
  }
  order.push(rng() < 0.5 ? "-views" : "views");
  params.push(`order=${encodeURIComponent(JSON.stringify(order))}`);
  if (rng() < 0.4) {
    params.push(
      `select=${
        encodeURIComponent(JSON.stringify(["title", "views", "author"]))
      }`,
    );
  }
  if (rng() < 0.3) {
    const populate = pick(rng, [["author"], ["tags"], ["author", "tags"]]);
    params.push(`populate=${encodeURIComponent(JSON.stringify(populate))}`);
  }
  if (rng() < 0.4) params.push(`locale=${pick(rng, ["en", "de", "fr"])}`);
  if (rng() < 0.3) {
    params.push(
      `page=${1 + Math.floor(rng() * 3)}&perPage=${1 + Math.floor(rng() * 15)}`,
    );
  } else if (rng() < 0.5) {
    params.push(
      `limit=${Math.floor(rng() * 20)}&offset=${Math.floor(rng() * 10)}`,
    );
  }
  return params.join("&");
}

/** A random access scope for reading Posts. */
function randomScope(
  rng: Rng,
  authors: readonly string[],
  tags: readonly string[],
): Record<string, unknown> {
  const scope: Record<string, unknown> = {};
  if (rng() < 0.7) scope.where = randomCondition(rng, authors, tags, 0);
  if (rng() < 0.3) {
    scope.select = ["title", "views", "rating", "author", "tags", "published"]
      .filter(() => rng() < 0.6);
  }
  if (rng() < 0.3) scope.limit = Math.floor(rng() * 30);
  if (rng() < 0.2) scope.locale = pick(rng, ["de", "fr"]);
  return scope;
}

/** `value` with every known UUID replaced by its name. */
function named(value: unknown, names: ReadonlyMap<string, string>): unknown {
  if (typeof value === "string") return names.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => named(v, names));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, named(v, names)]),
    );
  }
  return value;
}

/** The two apps of a differential test, seeded alike, with their UUID maps. */
interface Twins {
  lite: Client;
  other: Client;
  /** SQLite app's UUIDs of the seeded posts, authors and tags. */
  posts: string[];
  authors: string[];
  tags: string[];
  /** A SQLite-side text with every UUID changed to the PostgreSQL app's. */
  toOther(text: string): string;
  /** An answer of each app with UUIDs replaced by record names. */
  namedLite(value: unknown): unknown;
  namedOther(value: unknown): unknown;
  /** Learns the names of records created during the test (in both apps). */
  learn(liteUuid: string, otherUuid: string, name: string): void;
}

const UUID_PATTERN =
  /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * Runs `fn` with an app on SQLite and one on a fresh PostgreSQL database that collates by a
 * language's rules (as most installations do), both seeded alike on one clock.
 */
async function withTwins(fn: (twins: Twins) => Promise<void>): Promise<void> {
  const database = `strata_diff_${crypto.randomUUID().slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(
    `create database "${database}" template template0 locale_provider icu icu_locale 'en' locale 'C.UTF-8'`,
  );
  const url = new URL(PG_URL!);
  url.pathname = `/${database}`;
  // One clock for both, so `_updatedAt` agrees too.
  const now = () => Date.UTC(2030, 0, 1);
  const lite = await createApp({
    root: fixturePath("api_app"),
    database: ":memory:",
    now,
  });
  const other = await createApp({
    root: fixturePath("api_app"),
    database: url.href,
    now,
  });
  try {
    const liteNames = (await seed(lite, mulberry32(SEED))).names;
    const otherNames = (await seed(other, mulberry32(SEED))).names;
    const byName = new Map([...otherNames].map(([uuid, n]) => [n, uuid]));
    const toOther = new Map(
      [...liteNames].map(([uuid, n]) => [uuid, byName.get(n)!]),
    );
    const uuidsOf = (prefix: string) =>
      [...liteNames].filter(([, n]) => n.startsWith(prefix)).map(([u]) => u);
    await fn({
      lite: clientOf(lite),
      other: clientOf(other),
      posts: uuidsOf("post"),
      authors: uuidsOf("author"),
      tags: uuidsOf("tag"),
      toOther: (text) =>
        text.replace(UUID_PATTERN, (uuid) => toOther.get(uuid) ?? uuid),
      namedLite: (value) => named(value, liteNames),
      namedOther: (value) => named(value, otherNames),
      learn(liteUuid, otherUuid, name) {
        liteNames.set(liteUuid, name);
        otherNames.set(otherUuid, name);
        toOther.set(liteUuid, otherUuid);
      },
    });
  } finally {
    await other.close();
    await lite.close();
    await admin.query(`drop database "${database}" with (force)`);
    await admin.end();
  }
}

Deno.test({
  name: "differential: list queries answer alike on SQLite and PostgreSQL",
  ignore: !PG_URL,
  fn: () =>
    withTwins(async (twins) => {
      const rng = mulberry32(SEED + 1);
      let compared = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const query = randomQuery(rng, twins.authors, twins.tags);
        // Now and then under an access scope (the fixture reads it from a header).
        // Header values are bytes: non-ASCII travels as JSON \u escapes.
        const scope = rng() < 0.3
          ? JSON.stringify(randomScope(rng, twins.authors, twins.tags))
            .replace(
              /[\u007f-\uffff]/g,
              (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
            )
          : undefined;
        const headers = (text: string | undefined) =>
          text === undefined ? {} : { headers: { "x-scope-posts-read": text } };
        const [left, right] = await Promise.all([
          twins.lite.req("GET", `/collections/posts?${query}`, headers(scope)),
          twins.other.req(
            "GET",
            `/collections/posts?${twins.toOther(query)}`,
            headers(scope && twins.toOther(scope)),
          ),
        ]);
        const what = `${decodeURIComponent(query)} scope ${scope}`;
        assert.equal(right.status, left.status, what);
        assert.deepEqual(
          twins.namedOther(right.body),
          twins.namedLite(left.body),
          what,
        );
        if (left.status === 200) compared++;
      }
      // Most queries are valid: the comparison is about answers, not refusals.
      assert.ok(compared > ROUNDS * 0.8, `only ${compared} answered 200`);
    }),
});

/** A random create or update body for Posts: mostly valid, sometimes not. */
function randomBody(
  rng: Rng,
  authors: readonly string[],
  tags: readonly string[],
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const maybe = (p: number) => rng() < p;
  // Three bodies in four hold valid values only; the rest may hold anything.
  const valid = maybe(0.75);
  const value = <T>(good: readonly T[], bad: readonly unknown[]) =>
    valid || maybe(0.5) ? pick(rng, good) : pick(rng, bad);
  body.title = value([textValue(rng) || "t", `${textValue(rng)}!`], [
    7,
    "",
    null,
  ]);
  if (maybe(0.4)) body.status = value(["draft", "published"], ["Draft", ""]);
  if (maybe(0.5)) {
    body.views = value([0, 1, 41, 2 ** 40], [-1, 2 ** 53, 1.5, "3", null]);
  }
  if (maybe(0.4)) body.rating = value([null, 0, -2.5, 3.25, 1e300], ["x"]);
  if (maybe(0.3)) body.published = value([true, false], ["true", 1]);
  if (maybe(0.3)) body.slug = value([null, `${textValue(rng)}s`], [""]);
  if (maybe(0.3)) {
    body.author = value([null, pick(rng, authors)], [crypto.randomUUID()]);
  }
  if (maybe(0.3)) {
    body.tags = tags.filter(() => maybe(0.4));
    if (!valid && maybe(0.3)) (body.tags as string[]).push(crypto.randomUUID());
  }
  if (!valid && maybe(0.2)) body.nope = 1;
  if (!valid && maybe(0.2)) body.computed = "x";
  return body;
}

Deno.test({
  name:
    "differential: writes, deletes and translation routes answer and store alike",
  ignore: !PG_URL,
  fn: () =>
    withTwins(async (twins) => {
      const rng = mulberry32(SEED + 2);
      // SQLite-side UUIDs; paths and bodies are mapped to the other app's by toOther.
      const posts = [...twins.posts];
      const json = { "content-type": "application/json" };
      let created = 0;
      // `learn` sees the answers to a create, once its record is named.
      const both = async (
        method: string,
        path: string,
        body?: unknown,
        learn?: (left: Answer, right: Answer) => void,
      ) => {
        const text = body === undefined ? undefined : JSON.stringify(body);
        const options = (mapped: string | undefined) =>
          mapped === undefined ? {} : { body: mapped, headers: json };
        const [left, right] = await Promise.all([
          twins.lite.req(method, path, options(text)),
          twins.other.req(
            method,
            twins.toOther(path),
            options(text && twins.toOther(text)),
          ),
        ]);
        const what = `${method} ${path} ${text ?? ""}`;
        assert.equal(right.status, left.status, what);
        if (left.status === 201) {
          // A created record is known by one name on both sides from now on.
          const uuid = (left.body as { UUID: string }).UUID;
          twins.learn(
            uuid,
            (right.body as { UUID: string }).UUID,
            `new${created++}`,
          );
          learn?.(left, right);
        }
        assert.deepEqual(
          twins.namedOther(right.body),
          twins.namedLite(left.body),
          what,
        );
        return [left, right] as const;
      };
      const statuses = new Set<number>();
      const commented: string[] = [];
      for (let round = 0; round < ROUNDS / 4; round++) {
        const post = pick(rng, posts);
        const at = `/collections/posts/${post}`;
        const locale = pick(rng, ["", "?locale=de", "?locale=fr"]);
        const roll = rng();
        let status: number;
        if (roll < 0.3) {
          [{ status }] = await both(
            "POST",
            `/collections/posts${locale}`,
            randomBody(rng, twins.authors, twins.tags),
            (left) => posts.push((left.body as { UUID: string }).UUID),
          );
        } else if (roll < 0.55) {
          [{ status }] = await both(
            "PATCH",
            `${at}${locale}`,
            randomBody(rng, twins.authors, twins.tags),
          );
        } else if (roll < 0.65) {
          [{ status }] = await both(
            "GET",
            `${at}?populate=${encodeURIComponent('["author"]')}${
              locale && `&${locale.slice(1)}`
            }`,
          );
        } else if (roll < 0.72) {
          [{ status }] = await both("GET", `${at}/translations`);
        } else if (roll < 0.8) {
          const target = pick(rng, ["de", "fr", "en"]);
          const body = rng() < 0.3
            ? undefined
            : { source: pick(rng, ["en", "de", "fr", "xx"]) };
          [{ status }] = await both(
            "POST",
            `${at}/translations/copy?locale=${target}`,
            body,
          );
        } else if (roll < 0.86) {
          [{ status }] = await both(
            "DELETE",
            `${at}/translations?locale=${pick(rng, ["de", "fr", "en"])}`,
          );
        } else if (roll < 0.93) {
          // A comment makes its post undeletable (restrict): a 409 on both.
          [{ status }] = await both("POST", "/collections/comments", {
            body: textValue(rng) || "c",
            post,
          }, () => commented.push(post));
        } else {
          const doomed = commented.length > 0 && rng() < 0.5
            ? pick(rng, commented)
            : post;
          [{ status }] = await both("DELETE", `/collections/posts/${doomed}`);
        }
        statuses.add(status);
      }
      for (const expected of [200, 201, 204, 404, 409, 422]) {
        assert.ok(statuses.has(expected), `no ${expected} in ${[...statuses]}`);
      }
      // What was stored reads back alike, in every locale.
      for (const locale of ["en", "de", "fr"]) {
        const [left, right] = await Promise.all(
          [twins.lite, twins.other].map((client) =>
            client.req(
              "GET",
              `/collections/posts?order=["views"]&locale=${locale}&limit=500`,
            )
          ),
        );
        assert.equal(left.status, 200);
        // New records can tie on every field: compare them by name, not by position.
        const byName = (records: unknown) =>
          (records as { UUID: string }[]).toSorted((x, y) =>
            x.UUID < y.UUID ? -1 : x.UUID > y.UUID ? 1 : 0
          );
        assert.deepEqual(
          byName(twins.namedOther(right.body)),
          byName(twins.namedLite(left.body)),
          locale,
        );
      }
    }),
});
