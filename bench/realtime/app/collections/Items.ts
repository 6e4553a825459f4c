// The benchmark collection: anyone may read, follow and create items.
import { defineCollection, field } from "../../../../mod.ts";

export default defineCollection({
  fields: {
    title: field("text", { max: 200 }),
    rank: field("integer", { default: 0 }),
  },
  api: { read: "public", create: "public" },
});
