import assert from "node:assert/strict";
import { isThenable, thenMaybe } from "../../utils/_maybe_promise.ts";

Deno.test("thenMaybe continues at once on a value and after a promise", async () => {
  assert.equal(thenMaybe(2, (n) => n + 1), 3);
  const later = thenMaybe(Promise.resolve(2), (n) => n + 1);
  assert.ok(later instanceof Promise);
  assert.equal(await later, 3);
  // A continuation answering a promise makes the whole a promise.
  assert.equal(await thenMaybe(2, (n) => Promise.resolve(n * 2)), 4);
});

Deno.test("thenMaybe throws at once for a value, rejects for a promise", async () => {
  const boom = () => {
    throw new Error("Boom");
  };
  assert.throws(() => thenMaybe(1, boom), /Boom/);
  await assert.rejects(
    async () => await thenMaybe(Promise.resolve(1), boom),
    /Boom/,
  );
  await assert.rejects(
    async () => await thenMaybe(Promise.reject(new Error("First")), boom),
    /First/,
  );
});

Deno.test("isThenable knows promises and thenables from plain values", () => {
  assert.equal(isThenable(Promise.resolve()), true);
  assert.equal(isThenable({ then: () => {} }), true);
  const callable = Object.assign(() => {}, { then: () => {} });
  assert.equal(isThenable(callable), true);
  for (const value of [null, undefined, 0, "then", {}, [], { then: 1 }]) {
    assert.equal(isThenable(value), false);
  }
});
