// cors(): a credentialed middleware admits only the origins it names; a wildcard is never
// credentialed (refused when built).
import assert from "node:assert/strict";
import { cors } from "../../mod.ts";
import { isCorsCredentialed } from "../../router/cors.ts";

Deno.test('cors: credentials with the "*" origin is refused when built', () => {
  for (const origin of ["*", undefined]) {
    assert.throws(
      () => cors({ origin, credentials: true }),
      /cors\(\): credentials: true cannot be combined with origin "\*"/,
    );
  }
  // Without credentials a wildcard is fine.
  cors({ origin: "*" });
});

Deno.test("cors: a credentialed middleware admits only the origins it names", () => {
  const middleware = cors({
    origin: ["https://app.example"],
    credentials: true,
  });
  const ask = (origin: string) => {
    const event = {
      request: new Request("http://localhost/x", {
        method: "POST",
        headers: { origin },
      }),
      method: "POST",
      headers: new Headers(),
      context: {},
    };
    middleware.fn(event as never);
    return event;
  };
  const named = ask("https://app.example");
  assert.equal(
    named.headers.get("access-control-allow-origin"),
    "https://app.example",
  );
  assert.equal(named.headers.get("access-control-allow-credentials"), "true");
  assert.equal(isCorsCredentialed(named as never), true);
  for (
    const origin of ["https://evil.example", "null", "https://app.example.evil"]
  ) {
    const other = ask(origin);
    assert.equal(other.headers.get("access-control-allow-origin"), null);
    assert.equal(other.headers.get("access-control-allow-credentials"), null);
    assert.equal(isCorsCredentialed(other as never), false);
  }
});
