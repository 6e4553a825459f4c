// Notes with a text body: a few short ones (read by UUID) and long ones (scanned by the slow
// pattern query).
import { defineCollection, field } from "../../../../mod.ts";

export default defineCollection({
  fields: { body: field("text") },
  api: { read: "public" },
});
