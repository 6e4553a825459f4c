// Puts the signed-in user (if any) into event.context.user for every request, so the
// synchronous query:filter hook (hooks/visible_posts.ts) can tell readers apart.
import { defineMiddleware } from "@strata/strata";
import { useUser } from "@strata/strata/auth";

export default defineMiddleware(async (event) => {
  const user = await useUser();
  if (user) event.context.user = user;
});
