import { defineCollection, field } from "../../../mod.ts";

export default defineCollection({
  fields: {
    title: field("text", { max: 200 }),
    views: field("integer", { default: 0, min: 0 }),
  },
  api: { read: "public" },
});
