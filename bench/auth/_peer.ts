// The hand-written peer of `GET /auth/me`: `Deno.serve` and the driver directly
// (`node:sqlite` / `npm:pg`), looking the session up on every request: cookie → SHA-256 of
// the token → one join of the session and its user → the User JSON Strata answers.
import { createHash } from "node:crypto";
import { DatabaseSync } from "node:sqlite";
import pg from "pg";

type Handler = (request: Request) => Promise<Response> | Response;

interface Row {
  expiresAt: number | string;
  passwordStamp: string;
  UUID: string;
  email: string;
  roles: string | string[];
  dashboardLanguage: string | null;
  contentLanguage: string | null;
  timezone: string;
  dateFormat: string;
  timeFormat: string;
  smartClipboard: number | boolean;
  password: string;
}

const LOOKUP =
  `select s."expiresAt", s."passwordStamp", u."UUID", u."email", u."roles",
  u."dashboardLanguage", u."contentLanguage", u."timezone", u."dateFormat", u."timeFormat",
  u."smartClipboard", u."password"
  from "Sessions" as s join "Users" as u on u."UUID" = s."user"
  where s."tokenHash" = `;

const unauthorized = () =>
  new Response(
    JSON.stringify({ statusCode: 401, message: "Unauthorized" }),
    { status: 401, headers: { "content-type": "application/json" } },
  );

/** The token of the `session` cookie, if it has a token's shape. */
function tokenOf(request: Request): string | undefined {
  const match = /(?:^|;\s*)session=([A-Za-z0-9_-]{43})(?:;|$)/.exec(
    request.headers.get("cookie") ?? "",
  );
  return match?.[1];
}

/** The salt of a password hash (`scrypt$N$r$p$salt$key`): a session's stamp. */
function stampOf(hash: string): string {
  return hash.split("$")[4] ?? "";
}

function handlerOf(
  lookup: (hash: string) => Row | undefined | Promise<Row | undefined>,
): Handler {
  return async (request) => {
    const url = new URL(request.url);
    if (url.pathname !== "/auth/me" || request.method !== "GET") {
      return new Response("Not found", { status: 404 });
    }
    const token = tokenOf(request);
    if (!token) return unauthorized();
    const row = await lookup(
      createHash("sha256").update(token).digest("base64url"),
    );
    if (
      !row || Number(row.expiresAt) <= Date.now() ||
      stampOf(row.password) !== row.passwordStamp
    ) return unauthorized();
    return Response.json({
      UUID: row.UUID,
      email: row.email,
      roles: typeof row.roles === "string" ? JSON.parse(row.roles) : row.roles,
      dashboardLanguage: row.dashboardLanguage,
      contentLanguage: row.contentLanguage,
      timezone: row.timezone,
      dateFormat: row.dateFormat,
      timeFormat: row.timeFormat,
      smartClipboard: row.smartClipboard === 1 || row.smartClipboard === true,
    });
  };
}

/** The peer over a SQLite file: one prepared statement. */
export function sqliteMePeer(path: string): Handler {
  const db = new DatabaseSync(path);
  db.exec("pragma busy_timeout = 5000");
  const statement = db.prepare(LOOKUP + "?");
  return handlerOf((hash) => statement.get(hash) as Row | undefined);
}

/** The peer over PostgreSQL: a `pg` pool of 10 connections (Strata's size). */
export function postgresMePeer(url: string, schema: string): Handler {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    options: `-c search_path=${schema}`,
  });
  pool.on("error", () => {});
  return handlerOf(async (hash) =>
    (await pool.query(LOOKUP + "$1", [hash])).rows[0]
  );
}
