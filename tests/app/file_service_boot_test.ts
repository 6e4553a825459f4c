// The file service opens with the first collection field that stores files, and only then:
// createApp skips it (and its checks) for an app without one.
import assert from "node:assert/strict";
import { bootFixture } from "../_helpers/fixture_app.ts";

Deno.test("an app without a file field has no file service", async () => {
  const app = await bootFixture("api_app");
  try {
    assert.equal(app.files, null);
  } finally {
    await app.close();
  }
});

Deno.test("an app with a file field opens its file service", async () => {
  const app = await bootFixture("files_app");
  try {
    assert.ok(app.files);
    assert.equal(app.files.config, app.config.uploads);
  } finally {
    await app.close();
  }
});
