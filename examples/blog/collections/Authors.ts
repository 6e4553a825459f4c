// An author's public profile, linked to the account that writes as them.
import { defineCollection, field } from "@strata/strata";
import { ownProfile } from "../lib/access.ts";

export default defineCollection({
  fields: {
    name: field("text", { max: 100 }),
    bio: field("text", { translatable: true, nullable: true, max: 2000 }),
    user: field("record", {
      collection: "Users",
      nullable: true,
      unique: true,
      onDelete: "setNull",
    }),
  },
  api: {
    read: "public",
    create: true,
    update: { access: ownProfile },
    delete: true,
  },
});
