import assert from "node:assert/strict";
import {
  isWireError,
  WIRE_ERROR_CODES,
  wireError,
} from "../../../collections/wire/errors.ts";
import { HTTPError } from "../../../router/errors.ts";

Deno.test("wireError builds a 400 with code and path", () => {
  const error = wireError("invalidField", "where.views.atLeast");
  assert.ok(error instanceof HTTPError);
  assert.equal(error.status, 400);
  assert.deepEqual(error.toJSON(), {
    statusCode: 400,
    message: "Unknown field or disallowed operator",
    data: { code: "invalidField", path: "where.views.atLeast" },
  });
  assert.equal(wireError("tooDeep", "where", "Too deep").message, "Too deep");
});

Deno.test("every code has a capitalised default message without a period", () => {
  assert.equal(new Set(WIRE_ERROR_CODES).size, 25);
  for (const code of WIRE_ERROR_CODES) {
    const { message } = wireError(code, "x");
    assert.match(message, /^[A-Z]/, code);
    assert.doesNotMatch(message, /\.$/, code);
    assert.match(code, /^[a-z][A-Za-z]+$/);
  }
});

Deno.test("isWireError recognises only wire 400s", () => {
  assert.ok(isWireError(wireError("sameLocale", "locale")));
  assert.ok(!isWireError(new HTTPError(400, "x")));
  assert.ok(
    !isWireError(new HTTPError(400, "x", { data: { code: "nope", path: "" } })),
  );
  assert.ok(
    !isWireError(
      new HTTPError(404, "x", { data: { code: "tooDeep", path: "" } }),
    ),
  );
  assert.ok(!isWireError(new Error("x")));
});
