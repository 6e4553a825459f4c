import { defineCollection, field } from "@strata/strata";

export default defineCollection({
  fields: {
    name: field("text", { unique: true, max: 40 }),
  },
  api: { read: "public", create: true, update: true, delete: true },
});
