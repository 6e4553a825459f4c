// The hand-written peer of the search benchmark: `Deno.serve` and the database driver
// (`node:sqlite` or `npm:pg`) directly, no query builder and no Strata piece, over the
// full-text index the schema holds (FTS5 on SQLite, the tsvector column on PostgreSQL). It
// answers `GET /collections/posts?search=<word>&page=<n>&perPage=<n>` with Strata's bytes:
// the paginated envelope, most relevant first, ties by UUID descending.
import { DatabaseSync } from "node:sqlite";
import pg from "pg";

type Handler = (request: Request) => Promise<Response> | Response;

interface Post {
  UUID: string;
  title: string;
  body: string;
  _updatedAt: number;
}

interface Store {
  page(word: string, limit: number, offset: number): Promise<Post[]>;
  count(word: string): Promise<number>;
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });
}

function handler(store: Store): Handler {
  return async (request) => {
    const url = new URL(request.url);
    const search = url.searchParams.get("search") ?? "";
    const page = Number(url.searchParams.get("page") ?? "1");
    const perPage = Number(url.searchParams.get("perPage") ?? "20");
    // The benchmark searches one plain word: letters only, lower-cased.
    const word = search.toLowerCase();
    if (
      url.pathname !== "/collections/posts" || !/^[a-z]+$/.test(word) ||
      !Number.isSafeInteger(page) || page < 1 ||
      !Number.isSafeInteger(perPage) ||
      perPage < 1 || perPage > 500
    ) {
      return json({ statusCode: 400, message: "Bad request" }, 400);
    }
    const total = await store.count(word);
    const records = await store.page(word, perPage, (page - 1) * perPage);
    return json({
      records,
      total,
      page,
      perPage,
      lastPage: Math.max(1, Math.ceil(total / perPage)),
    });
  };
}

/** The peer on a SQLite file (WAL). */
export function sqlitePeer(path: string): Handler {
  const db = new DatabaseSync(path);
  db.exec("pragma busy_timeout = 2000");
  const page = db.prepare(
    `select p."UUID", p."title", p."body", p."_updatedAt"
     from "Posts__search"
     join "Posts__search_ids" as i on i."id" = "Posts__search".rowid
     join "Posts" as p on p."UUID" = i."record"
     where "Posts__search" match ? and i."locale" = ''
     order by bm25("Posts__search") asc, p."UUID" desc limit ? offset ?`,
  );
  const count = db.prepare(
    `select count(*) as n from "Posts__search" where "Posts__search" match ?`,
  );
  return handler({
    page: (word, limit, offset) =>
      Promise.resolve(
        page.all(`"${word}"`, limit, offset) as unknown as Post[],
      ),
    count: (word) =>
      Promise.resolve(Number((count.get(`"${word}"`) as { n: number }).n)),
  });
}

/** The peer on PostgreSQL, in `schema`, with a pool of 10. */
export function postgresPeer(url: string, schema: string): Handler {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    options: `-c search_path="${schema}"`,
  });
  return handler({
    async page(word, limit, offset) {
      const { rows } = await pool.query(
        `select "UUID", "title", "body", "_updatedAt" from "Posts"
         where "_search_body" @@ to_tsquery('simple', $1)
         order by ts_rank("_search_body", to_tsquery('simple', $1)) desc, "UUID" desc
         limit $2 offset $3`,
        [`'${word}'`, limit, offset],
      );
      return rows.map((row) => ({
        ...row,
        _updatedAt: Number(row._updatedAt),
      }));
    },
    async count(word) {
      const { rows } = await pool.query(
        `select count(*) as n from "Posts" where "_search_body" @@ to_tsquery('simple', $1)`,
        [`'${word}'`],
      );
      return Number(rows[0].n);
    },
  });
}
