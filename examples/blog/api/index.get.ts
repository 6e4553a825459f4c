// GET /?locale=de: the latest posts (drafts only for those who may see them).
import { defineHandler, query } from "@strata/strata";
import { requestedLocale } from "../lib/locale.ts";

export default defineHandler(async (event) => {
  const posts = await query("Posts")
    .locale(requestedLocale(event))
    .select("title", "slug", "published", "publishedOn", "author.name")
    .populate("author")
    .order("-publishedOn", "title")
    .limit(20)
    .findMany();
  return { name: "Strata blog", posts };
}, { middleware: ["public-cache"] });
