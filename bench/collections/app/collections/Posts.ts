// The benchmark collection: a post with a title, a body excerpt and a view count (indexed).
// Anyone may read and create: the benchmark measures the API, not access checks.
import { defineCollection, field } from "../../../../mod.ts";

export default defineCollection({
  fields: {
    title: field("text", { max: 200 }),
    excerpt: field("text", { max: 500 }),
    views: field("integer", { default: 0, index: true }),
    published: field("boolean", { default: false }),
  },
  api: { read: "public", create: "public" },
});
