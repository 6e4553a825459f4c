// Posts: translatable title and body, an author, tags. Who sees drafts is decided by
// hooks/visible_posts.ts; who may write which post by lib/access.ts.
import { defineCollection, field } from "@strata/strata";
import { createAsSelf, ownPosts } from "../lib/access.ts";

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export default defineCollection({
  fields: {
    title: field("text", { translatable: true, max: 200 }),
    body: field("text", { translatable: true, allowEmpty: true, default: "" }),
    slug: field("text", {
      unique: true,
      immutable: true,
      max: 100,
      validators: [
        (value) =>
          SLUG.test(value as string)
            ? undefined
            : "Use lower-case words joined by -",
      ],
    }),
    published: field("boolean", { default: false, index: true }),
    publishedOn: field("date", { nullable: true, index: true }),
    author: field("record", { collection: "Authors", onDelete: "restrict" }),
    tags: field("records", { collection: "Tags", default: [] }),
  },
  api: {
    read: { public: true, middleware: ["public-cache"] },
    create: { access: createAsSelf },
    update: { access: ownPosts },
    delete: { access: ownPosts },
  },
});
