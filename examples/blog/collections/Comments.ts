// Comments are written through api/posts/[slug]/comments.post.ts (which sets the author);
// the collections API only lists them and lets editors delete them. Readers other than
// editors do not see who wrote a comment (the `select` of the read scope).
import { defineCollection, field } from "@strata/strata";
import { commentReaders } from "../lib/access.ts";

export default defineCollection({
  fields: {
    post: field("record", { collection: "Posts", onDelete: "cascade" }),
    author: field("record", {
      collection: "Users",
      nullable: true,
      onDelete: "setNull",
    }),
    body: field("text", { max: 2000 }),
    createdAt: field("dateTime", {
      writable: false,
      default: () => Date.now(),
    }),
  },
  api: { read: { public: true, access: commentReaders }, delete: true },
});
