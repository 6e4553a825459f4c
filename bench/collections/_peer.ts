// The hand-written peer of the collections benchmark: `Deno.serve` and the database driver
// (`node:sqlite` or `npm:pg`) directly, no query builder and no Strata piece. It knows the
// four requests the benchmark sends and answers them with Strata's bytes: fields in
// definition order, booleans as booleans, `_updatedAt` last, the paginated envelope.
// `POST /collections/posts?outbox` also writes an outbox row in the insert's transaction: the
// guarantee Strata's change log gives (a row per committed write, none for a rolled-back one),
// done by hand, to tell what the log costs beyond what that guarantee costs anyone.
import { DatabaseSync } from "node:sqlite";
import pg from "pg";

type Handler = (request: Request) => Promise<Response> | Response;

interface Post {
  UUID: string;
  title: string | null;
  excerpt: string | null;
  views: number | null;
  published: boolean | null;
  _updatedAt: number;
}

/** What a peer's database does; each returns rows already shaped as records. */
interface PostStore {
  list(minViews: number, limit: number, offset: number): Promise<Post[]>;
  count(minViews: number): Promise<number>;
  byUUID(uuid: string): Promise<Post | undefined>;
  insert(post: Post, table?: string): Promise<void>;
  /** Inserts into Posts and, in the same transaction, its outbox row. */
  insertWithOutbox(post: Post): Promise<void>;
}

const COLUMNS =
  `"UUID", "title", "excerpt", "views", "published", "_updatedAt"`;
const UUID_PATH = /^\/collections\/posts\/([0-9a-f-]{36})$/;
/** The peer's outbox: the change log's columns. */
const OUTBOX = "_peer_outbox";
const OUTBOX_COLUMNS =
  `"collection", "uuid", "op", "at", "changed", "locale", "actor"`;
/** What an outbox row of a create lists as changed: the fields it was given. */
const CHANGED = JSON.stringify(["title", "excerpt", "views", "published"]);

function outboxTable(seq: string): string {
  return `create table if not exists "${OUTBOX}" ("seq" ${seq} primary key, "collection" text not null, "uuid" text not null, "op" text not null, "at" bigint not null, "changed" text not null, "locale" text, "actor" text)`;
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });
}

const badRequest = () => json({ statusCode: 400, message: "Bad request" }, 400);
const notFound = () => json({ statusCode: 404, message: "Not found" }, 404);

/** A valid create body as a post, or `null`. */
function postFrom(body: unknown): Post | null {
  if (body === null || typeof body !== "object") return null;
  const { title, excerpt, views = 0, published = false } = body as Record<
    string,
    unknown
  >;
  const text = (value: unknown, max: number) =>
    value === undefined || value === null ||
    (typeof value === "string" && value.length <= max);
  if (!text(title, 200) || !text(excerpt, 500)) return null;
  if (!Number.isSafeInteger(views) || typeof published !== "boolean") {
    return null;
  }
  return {
    UUID: crypto.randomUUID(),
    title: (title ?? null) as string | null,
    excerpt: (excerpt ?? null) as string | null,
    views: views as number,
    published,
    _updatedAt: Date.now(),
  };
}

function handlerOf(store: PostStore): Handler {
  return async (request) => {
    const url = new URL(request.url);
    if (url.pathname === "/collections/drafts" && request.method === "POST") {
      const post = postFrom(await request.json().catch(() => null));
      if (!post) return badRequest();
      await store.insert(post, "Drafts");
      return json(post, 201);
    }
    if (url.pathname === "/collections/posts") {
      if (request.method === "POST") {
        const post = postFrom(await request.json().catch(() => null));
        if (!post) return badRequest();
        if (url.searchParams.has("outbox")) await store.insertWithOutbox(post);
        else await store.insert(post);
        return json(post, 201);
      }
      // The one filter and order this endpoint knows, read out of the wire literals.
      const params = url.searchParams;
      const match = /^\{views:\{atLeast:(-?\d+)\}\}$/.exec(
        params.get("where") ?? "",
      );
      if (!match || params.get("order") !== "[-views]") return badRequest();
      const minViews = Number(match[1]);
      if (params.has("page") || params.has("perPage")) {
        const page = Number(params.get("page") ?? 1);
        const perPage = Number(params.get("perPage") ?? 20);
        if (
          !Number.isInteger(page) || page < 1 || !Number.isInteger(perPage) ||
          perPage < 1 || perPage > 500
        ) return badRequest();
        const total = await store.count(minViews);
        const records = await store.list(
          minViews,
          perPage,
          (page - 1) * perPage,
        );
        return json({
          records,
          total,
          page,
          perPage,
          lastPage: Math.max(1, Math.ceil(total / perPage)),
        });
      }
      const limit = Number(params.get("limit") ?? 20);
      if (!Number.isInteger(limit) || limit < 0) return badRequest();
      return json(await store.list(minViews, Math.min(limit, 2000), 0));
    }
    const byUUID = UUID_PATH.exec(url.pathname);
    if (byUUID && request.method === "GET") {
      const post = await store.byUUID(byUUID[1]);
      return post ? json(post) : notFound();
    }
    return notFound();
  };
}

/** The peer over a SQLite file: prepared statements on one connection. */
export function sqlitePeer(path: string): Handler {
  const db = new DatabaseSync(path);
  db.exec("pragma busy_timeout = 5000");
  db.exec("pragma journal_mode = wal");
  db.exec("pragma synchronous = normal");
  const list = db.prepare(
    `select ${COLUMNS} from "Posts" where "views" >= ? order by "views" desc, "UUID" desc limit ? offset ?`,
  );
  const count = db.prepare(
    `select count(*) as n from "Posts" where "views" >= ?`,
  );
  const byUUID = db.prepare(`select ${COLUMNS} from "Posts" where "UUID" = ?`);
  const inserts = new Map(
    ["Posts", "Drafts"].map((table) => [
      table,
      db.prepare(
        `insert into "${table}" ("UUID", "_updatedAt", "title", "excerpt", "views", "published") values (?, ?, ?, ?, ?, ?)`,
      ),
    ]),
  );
  db.exec(outboxTable("integer"));
  const begin = db.prepare("begin immediate");
  const commit = db.prepare("commit");
  const outbox = db.prepare(
    `insert into "${OUTBOX}" (${OUTBOX_COLUMNS}) values ('Posts', ?, 'create', ?, ?, null, null)`,
  );
  const insert = (post: Post, table: string) =>
    inserts.get(table)!.run(
      post.UUID,
      post._updatedAt,
      post.title,
      post.excerpt,
      post.views,
      post.published === null ? null : post.published ? 1 : 0,
    );
  const toPost = (row: Record<string, unknown>): Post => ({
    UUID: row.UUID as string,
    title: row.title as string | null,
    excerpt: row.excerpt as string | null,
    views: row.views as number | null,
    published: row.published === null ? null : row.published === 1,
    _updatedAt: row._updatedAt as number,
  });
  return handlerOf({
    list: (minViews, limit, offset) =>
      Promise.resolve(list.all(minViews, limit, offset).map(toPost)),
    count: (minViews) =>
      Promise.resolve((count.get(minViews) as { n: number }).n),
    byUUID: (uuid) => {
      const row = byUUID.get(uuid);
      return Promise.resolve(row ? toPost(row) : undefined);
    },
    insert: (post, table = "Posts") => {
      insert(post, table);
      return Promise.resolve();
    },
    insertWithOutbox: (post) => {
      begin.run();
      try {
        insert(post, "Posts");
        outbox.run(post.UUID, post._updatedAt, CHANGED);
        commit.run();
      } catch (error) {
        if (db.isTransaction) db.exec("rollback");
        throw error;
      }
      return Promise.resolve();
    },
  });
}

/** The peer over PostgreSQL: a `pg` pool of 10 connections (Strata's size), `$n` parameters. */
export function postgresPeer(url: string, schema: string): Handler {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    options: `-c search_path=${schema}`,
  });
  pool.on("error", () => {});
  const outboxReady = pool.query(outboxTable("bigserial"));
  outboxReady.catch(() => {});
  // bigint columns as numbers, as a hand-written endpoint would.
  const toPost = (row: Record<string, unknown>): Post => ({
    UUID: row.UUID as string,
    title: row.title as string | null,
    excerpt: row.excerpt as string | null,
    views: row.views === null ? null : Number(row.views),
    published: row.published as boolean | null,
    _updatedAt: Number(row._updatedAt),
  });
  return handlerOf({
    async list(minViews, limit, offset) {
      const result = await pool.query(
        `select ${COLUMNS} from "Posts" where "views" >= $1 order by "views" desc nulls last, "UUID" desc limit $2 offset $3`,
        [minViews, limit, offset],
      );
      return result.rows.map(toPost);
    },
    async count(minViews) {
      const result = await pool.query(
        `select count(*) as n from "Posts" where "views" >= $1`,
        [minViews],
      );
      return Number(result.rows[0].n);
    },
    async byUUID(uuid) {
      const result = await pool.query(
        `select ${COLUMNS} from "Posts" where "UUID" = $1`,
        [uuid],
      );
      return result.rows[0] ? toPost(result.rows[0]) : undefined;
    },
    async insert(post, table = "Posts") {
      await pool.query(
        `insert into "${table}" ("UUID", "_updatedAt", "title", "excerpt", "views", "published") values ($1, $2, $3, $4, $5, $6)`,
        [
          post.UUID,
          post._updatedAt,
          post.title,
          post.excerpt,
          post.views,
          post.published,
        ],
      );
    },
    async insertWithOutbox(post) {
      await outboxReady;
      // One statement is one transaction, and one round trip.
      await pool.query(
        `with p as (insert into "Posts" ("UUID", "_updatedAt", "title", "excerpt", "views", "published") values ($1, $2, $3, $4, $5, $6) returning "UUID", "_updatedAt")
         insert into "${OUTBOX}" (${OUTBOX_COLUMNS}) select 'Posts', "UUID", 'create', "_updatedAt", $7, null, null from p`,
        [
          post.UUID,
          post._updatedAt,
          post.title,
          post.excerpt,
          post.views,
          post.published,
          CHANGED,
        ],
      );
    },
  });
}
