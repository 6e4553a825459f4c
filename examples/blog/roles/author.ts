// Authors write posts (their own: see lib/access.ts), add tags and edit their profile.
import { defineRole } from "@strata/strata";

export default defineRole({
  capabilities: [
    "collection.Posts.create",
    "collection.Posts.update",
    "collection.Posts.delete",
    "collection.Tags.create",
    "collection.Authors.update",
  ],
});
