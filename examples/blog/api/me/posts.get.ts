// GET /me/posts: the posts the caller may edit, under the same policy as
// PATCH /collections/posts/:uuid (queryScoped applies Posts' update access scope).
import { defineHandler } from "@strata/strata";
import { queryScoped } from "@strata/strata/auth";

export default defineHandler(async () => {
  const posts = await queryScoped("Posts", "update");
  return await posts.select("title", "slug", "published").order("title")
    .findMany();
}, { middleware: ["require-auth"] });
