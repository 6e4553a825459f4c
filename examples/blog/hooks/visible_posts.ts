// Drafts are hidden from anonymous readers everywhere: every read of Posts (the collections
// API, populate, `has`, the app's own routes) gets this filter ANDed in. Signed-in readers
// also see their own drafts; editors see everything. Outside a request (the seed script)
// nothing is filtered.
import { hook, useEvent, type WhereFilter } from "@strata/strata";
import { type User, userCan } from "@strata/strata/auth";

function caller(): User | null | "trusted" {
  try {
    return (useEvent().context.user as User | undefined) ?? null;
  } catch {
    return "trusted";
  }
}

function visiblePosts(user: User | null): WhereFilter | undefined {
  if (user === null) return { published: true };
  if (userCan(user, "posts.editAny")) return undefined;
  return {
    or: [{ published: true }, { author: { has: { user: user.UUID } } }],
  };
}

export default hook(
  "query:filter",
  ({ collection }: { collection: string }): WhereFilter | undefined => {
    const user = caller();
    if (user === "trusted") return undefined;
    if (collection === "Posts") return visiblePosts(user);
    // A comment is visible when its post is: `has` applies the Posts filter above.
    if (collection === "Comments" && user === null) {
      return { post: { has: {} } };
    }
    return undefined;
  },
);
