// Posts without change events: creates here write no change-log row, like the peer's, so
// the benchmark can tell the API's own cost from the change log's.
import { defineCollection, field } from "../../../../mod.ts";

export default defineCollection({
  fields: {
    title: field("text", { max: 200 }),
    excerpt: field("text", { max: 500 }),
    views: field("integer", { default: 0, index: true }),
    published: field("boolean", { default: false }),
  },
  api: { read: "public", create: "public" },
  events: false,
});
