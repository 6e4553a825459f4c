// Named middleware: anonymous reads may be cached for a minute, signed-in ones never.
import { defineMiddleware } from "@strata/strata";

export default defineMiddleware((event) => {
  const personal = event.request.headers.has("cookie") ||
    event.request.headers.has("authorization");
  event.headers.set(
    "cache-control",
    personal ? "private, no-store" : "public, max-age=60",
  );
});
