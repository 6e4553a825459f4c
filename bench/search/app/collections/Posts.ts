// The search benchmark collection: posts whose body is full-text searchable.
import { defineCollection, field } from "../../../../mod.ts";

export default defineCollection({
  fields: {
    title: field("text"),
    body: field("text", { search: true }),
  },
  api: { read: "public" },
});
