// One server of the collections benchmark: `deno run -A server.ts <strata|kysely> <port> <db>`.
// Prints "ready" once it listens.
//
// `kysely` is the hand-written peer: `Deno.serve` + Kysely on the same node:sqlite dialect
// and connection settings, running the SQL Strata runs for the list request and answering
// the same JSON (Strata's record shape: booleans as booleans, fields in definition order).
import type { Kysely } from "kysely";
import { openDatabase } from "../../collections/db/open_database.ts";
import { createApp } from "../../mod.ts";
import { APP_ROOT } from "./_seed.ts";

const [kind, portText, database] = Deno.args;

async function kyselyHandler(): Promise<
  (request: Request) => Promise<Response>
> {
  // deno-lint-ignore no-explicit-any
  const { db }: { db: Kysely<any> } = await openDatabase({ url: database });
  return async (request) => {
    const url = new URL(request.url);
    if (url.pathname !== "/collections/posts") {
      return new Response("Not found", { status: 404 });
    }
    // The one filter this endpoint knows, read out of the wire literal.
    const match = /atLeast:(-?\d+)/.exec(url.searchParams.get("where") ?? "");
    const limit = Number(url.searchParams.get("limit") ?? 20);
    if (!match || !Number.isInteger(limit)) {
      return new Response("Bad request", { status: 400 });
    }
    const rows = await db.selectFrom("Posts as m")
      .select([
        "m.UUID",
        "m._updatedAt",
        "m.title",
        "m.excerpt",
        "m.views",
        "m.published",
      ])
      .where("m.views", ">=", Number(match[1]))
      .orderBy("m.views", (order) => order.desc().nullsLast())
      .orderBy("m.UUID")
      .limit(limit)
      .offset(0)
      .execute();
    const records = rows.map((row) => ({
      UUID: row.UUID,
      title: row.title,
      excerpt: row.excerpt,
      views: row.views,
      published: row.published === 1,
      _updatedAt: row._updatedAt,
    }));
    return Response.json(records);
  };
}

async function strataHandler(): Promise<
  (request: Request) => Promise<Response>
> {
  const app = await createApp({ root: APP_ROOT, database });
  return app.fetch;
}

const handler = kind === "strata"
  ? await strataHandler()
  : await kyselyHandler();
Deno.serve({
  port: Number(portText),
  hostname: "127.0.0.1",
  onListen: () => console.log("ready"),
}, handler);
