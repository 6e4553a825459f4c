// Where files are stored: a new file beside the others of its prefix (no folder of its own),
// its variants beside it; a file stored by an earlier version under the folder-per-file
// layout (`files/<xx>/<uuid>/original`) is still served, its variants made in its folder.
import assert from "node:assert/strict";
import { kyselyOf } from "../../collections/database.ts";
import { fileKey, variantKey } from "../../files/store.ts";
import { filesTest, form, png, send, storedFiles } from "./_helpers.ts";
import type { App } from "../../mod.ts";

async function uploadImage(app: App) {
  const image = await png(700, 350);
  const created = await send(app, "POST", "/collections/photos", {
    body: form([
      { name: "data", json: { title: "Image" } },
      { name: "image", file: image, filename: "pic.png" },
    ]),
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return { descriptor: created.body.image, bytes: image };
}

Deno.test("variant keys sit beside their file in either layout", () => {
  const uuid = "0b6f3c2e-6f1d-4c3b-9a4e-2f1e0d9c8b7a";
  assert.equal(fileKey(uuid), `files/0b/${uuid}`);
  assert.equal(
    variantKey(fileKey(uuid), 320, "webp"),
    `files/0b/${uuid}.w320.webp`,
  );
  assert.equal(
    variantKey(`files/0b/${uuid}/original`, 64, "png"),
    `files/0b/${uuid}/w64.png`,
  );
});

filesTest(
  "a new file is stored beside the others of its prefix, with no folder of its own",
  async ({ app, dir }) => {
    const { descriptor } = await uploadImage(app);
    const uuid: string = descriptor.UUID;
    assert.deepEqual(await storedFiles(dir), [
      `files/${uuid.slice(0, 2)}/${uuid}`,
    ]);
  },
);

filesTest(
  "a file stored under the folder-per-file layout is still served, its variants in its folder",
  async ({ app, dir }) => {
    const { descriptor, bytes } = await uploadImage(app);
    const uuid: string = descriptor.UUID;
    // Move it where an earlier version stored it, as that version's row said.
    const old = `files/${uuid.slice(0, 2)}/${uuid}/original`;
    const stored = await Deno.readFile(`${dir}/${fileKey(uuid)}`);
    await Deno.remove(`${dir}/${fileKey(uuid)}`);
    await Deno.mkdir(`${dir}/files/${uuid.slice(0, 2)}/${uuid}`);
    await Deno.writeFile(`${dir}/${old}`, stored);
    await kyselyOf(app.db).updateTable("_strata_files").set({ key: old })
      .where("UUID", "=", uuid).execute();
    const served = await send(app, "GET", descriptor.url);
    assert.equal(served.status, 200);
    assert.deepEqual(served.bytes, bytes);
    const variant = await send(app, "GET", `${descriptor.url}?w=64`);
    assert.equal(variant.status, 200);
    assert.deepEqual(await storedFiles(dir), [
      old,
      `files/${uuid.slice(0, 2)}/${uuid}/w64.png`,
    ]);
  },
);
