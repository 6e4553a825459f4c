import { defineCollection, field } from "../../../../mod.ts";

export default defineCollection({
  fields: { item: field("text", { max: 100 }), qty: field("integer") },
});
