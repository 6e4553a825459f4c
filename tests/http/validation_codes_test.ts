// Every 422 carries data.codes: the field path → a stable code, beside the translated
// message in data.errors.
import assert from "node:assert/strict";
import { filesTest, send } from "../files/_helpers.ts";

filesTest("422 answers carry a stable code per field", async ({ app }) => {
  const create = await send(app, "POST", "/collections/photos", {
    json: { nope: 1, gallery: "x" },
    headers: { "accept-language": "de" },
  });
  assert.equal(create.status, 422);
  assert.deepEqual(create.body.data.codes, {
    nope: "unknownField",
    title: "required",
    gallery: "invalidType",
  });
  assert.deepEqual(
    Object.keys(create.body.data.errors).sort(),
    ["gallery", "nope", "title"],
  );
  const login = await send(app, "POST", "/auth/login", { json: { x: 1 } });
  assert.equal(login.status, 422);
  assert.deepEqual(login.body.data.codes, {
    x: "unknownField",
    email: "required",
    password: "required",
  });
  const install = await send(app, "POST", "/auth/install", {
    json: { email: "not an email", password: "long enough password" },
  });
  assert.equal(install.status, 422);
  assert.equal(install.body.data.codes.email, "invalidEmail");
});
