// GET /posts/:slug?locale=de: one post with its author, tags and comments.
import { defineHandler, notFound, query } from "@strata/strata";
import { requestedLocale } from "../../lib/locale.ts";

export default defineHandler(async (event) => {
  const post = await query("Posts")
    .where({ slug: event.params.slug })
    .locale(requestedLocale(event))
    .populate("author", "tags")
    .findFirst();
  if (!post) throw notFound();
  const comments = await query("Comments")
    .where({ post: post.UUID })
    .select("body", "createdAt")
    .order("createdAt")
    .findMany();
  return { ...post, comments };
}, { middleware: ["public-cache"] });
