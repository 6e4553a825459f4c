// GET /archive/2025 or /archive/2025/03: a catch-all route; params.date is "2025/03".
import { badRequest, defineHandler, query } from "@strata/strata";
import { requestedLocale } from "../../lib/locale.ts";

function range(date: string): [string, string] {
  const match = /^(\d{4})(?:\/(0[1-9]|1[0-2]))?$/.exec(date);
  if (!match) {
    throw badRequest("Use /archive/<year> or /archive/<year>/<month>");
  }
  const year = Number(match[1]);
  if (!match[2]) return [`${year}-01-01`, `${year + 1}-01-01`];
  const month = Number(match[2]);
  const next = month === 12
    ? `${year + 1}-01`
    : `${year}-${String(month + 1).padStart(2, "0")}`;
  return [`${year}-${match[2]}-01`, `${next}-01`];
}

export default defineHandler(async (event) => {
  const [from, until] = range(event.params.date);
  const posts = await query("Posts")
    .where({ publishedOn: { atLeast: from, lessThan: until } })
    .locale(requestedLocale(event))
    .select("title", "slug", "publishedOn")
    .order("publishedOn")
    .findMany();
  return { from, until, posts };
}, { middleware: ["public-cache"] });
