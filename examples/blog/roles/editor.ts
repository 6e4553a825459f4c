// Editors manage every post, tag, author profile and comment.
import { defineRole } from "@strata/strata";

export default defineRole({
  capabilities: [
    "collection.Posts.*",
    "collection.Tags.*",
    "collection.Authors.*",
    "collection.Comments.*",
    "posts.editAny",
  ],
});
