// Stored files in the OpenAPI document: the FileDescriptor reads answer, the multipart bodies
// of record writes, POST /files and GET /files/{uuid}/{name}; the document validates,
// real answers validate against it, and TypeScript generated from it type-checks an upload.
import assert from "node:assert/strict";
import openapiTS, { astToString } from "npm:openapi-typescript@^7.6.0";
import {
  assertTypeChecks,
  assertValidOpenApi,
  documentOf,
  responseValidator,
} from "../http/_openapi.ts";
import {
  filesTest,
  form,
  png,
  send,
  signedIn,
  uploadFirst,
  ZIP_ENTRY,
} from "./_helpers.ts";

type Schema = Record<string, unknown> & {
  properties?: Record<string, Record<string, unknown>>;
  required?: string[];
};

filesTest(
  "the document describes file descriptors, multipart writes and the /files routes",
  async ({ app }) => {
    const doc = await documentOf(app);
    await assertValidOpenApi(doc);
    const schemas = doc.components.schemas as Record<string, Schema>;
    assert.deepEqual(schemas.FileDescriptor.required, [
      "UUID",
      "name",
      "type",
      "size",
      "sha256",
      "url",
    ]);
    // Reads describe the file; writes name it by UUID.
    const photo = schemas.Photos.properties!;
    assert.deepEqual(photo.image, {
      anyOf: [{ $ref: "#/components/schemas/FileDescriptor" }, {
        type: "null",
      }],
    });
    assert.deepEqual(photo.gallery, {
      type: "array",
      items: { $ref: "#/components/schemas/FileDescriptor" },
    });
    assert.equal(
      JSON.stringify(schemas.PhotosCreate.properties!.image),
      JSON.stringify({ type: ["string", "null"], format: "uuid" }),
    );
    // The multipart write: a JSON data part and one binary part per file.
    const post = doc.paths["/collections/photos"].post;
    const content = post.requestBody!.content as Record<string, Schema>;
    assert.deepEqual(Object.keys(content), [
      "application/json",
      "multipart/form-data",
    ]);
    assert.deepEqual(content["multipart/form-data"].encoding, {
      data: { contentType: "application/json" },
    });
    const multipart = schemas.PhotosCreateMultipart.properties!;
    assert.deepEqual(Object.keys(multipart), [
      "data",
      "image",
      "attachment",
      "secret",
      "gallery",
    ]);
    assert.equal(multipart.image.format, "binary");
    assert.equal(
      (multipart.gallery.items as Schema).format,
      "binary",
    );
    assert.equal((multipart.data as Schema).title, "PhotosCreateData");
    assert.ok(
      doc.paths["/collections/photos/{uuid}"].patch.requestBody!
        .content["multipart/form-data"],
    );
    // A collection without file fields keeps its JSON body alone.
    assert.deepEqual(
      Object.keys(doc.paths["/collections/stories"].post.requestBody!.content),
      ["application/json"],
    );
    const upload = doc.paths["/files"].post;
    assert.equal(upload.operationId, "postFiles");
    assert.deepEqual(
      upload.parameters!.map((p) => [p.name, p.in, p.required]),
      [["collection", "query", true], ["field", "query", true]],
    );
    assert.ok(upload.requestBody!.content["multipart/form-data"]);
    const served = doc.paths["/files/{uuid}/{name}"];
    assert.deepEqual(Object.keys(served), ["get"]);
    assert.equal(served.get.operationId, "getFilesByUuidByName");
    assert.deepEqual(
      Object.keys(served.get.responses).filter((s) => s < "400"),
      ["200", "206", "304"],
    );
  },
);

filesTest(
  "real answers of multipart writes and the /files routes validate against the document",
  async ({ app }) => {
    const doc = await documentOf(app);
    const check = responseValidator(doc);
    const created = await send(app, "POST", "/collections/photos", {
      body: form([
        { name: "data", json: { title: "Valid" } },
        { name: "image", file: await png(4, 3), filename: "a.png" },
        { name: "gallery", file: await png(2, 2), filename: "g.png" },
      ]),
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    check("/collections/photos", "post", 201, created.body);
    const updated = await send(
      app,
      "PATCH",
      `/collections/photos/${created.body.UUID}`,
      {
        body: form([
          { name: "data", json: { gallery: [] } },
          { name: "attachment", file: "notes", filename: "n.txt" },
        ]),
      },
    );
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    check("/collections/photos/{uuid}", "patch", 200, updated.body);
    const refused = await send(app, "POST", "/collections/photos", {
      body: form([
        { name: "data", json: { title: "Zip" } },
        { name: "image", file: ZIP_ENTRY, filename: "a.png" },
      ]),
    });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.data.codes.image, "invalidFileType");
    check("/collections/photos", "post", 422, refused.body);
    const editor = await signedIn(app, "editor@example.com", ["editor"]);
    const uploaded = await uploadFirst(
      app,
      editor,
      "collection=Albums&field=cover",
      await png(8, 8),
    );
    assert.equal(uploaded.status, 201);
    check("/files", "post", 201, uploaded.body);
    const anonymous = await uploadFirst(
      app,
      null,
      "collection=Albums&field=cover",
      await png(8, 8),
    );
    check("/files", "post", anonymous.status, anonymous.body);
    const file = await send(app, "GET", created.body.image.url);
    assert.equal(file.status, 200);
    assert.ok(doc.paths["/files/{uuid}/{name}"].get.responses["200"]);
    const missing = await send(
      app,
      "GET",
      `/files/${crypto.randomUUID()}/a.png`,
    );
    check("/files/{uuid}/{name}", "get", 404, missing.body);
  },
);

filesTest(
  "TypeScript generated from the document types a multipart create and an upload",
  async ({ app }) => {
    const doc = await documentOf(app);
    const dir = await Deno.makeTempDir({
      dir: new URL(".", import.meta.url).pathname,
    });
    try {
      const types = astToString(await openapiTS(structuredClone(doc) as never));
      await Deno.writeTextFile(`${dir}/files_api.ts`, types);
      await Deno.writeTextFile(
        `${dir}/program.ts`,
        `import type { components, operations } from "./files_api.ts";
type Multipart = NonNullable<
  operations["createPhotos"]["requestBody"]
>["content"]["multipart/form-data"];
type Uploaded =
  operations["postFiles"]["responses"]["201"]["content"]["application/json"];
export const body: Multipart = { data: { title: "T" }, image: "…", gallery: ["…", "…"] };
// @ts-expect-error views is not a part of a Photos write
export const wrong: Multipart = { data: { title: "T" }, views: "…" };
export function link(file: Uploaded): string {
  const size: number = file.size;
  return \`\${file.url}#\${size}\`;
}
export function cover(photo: components["schemas"]["Photos"]): string | undefined {
  return photo.image?.url;
}
`,
      );
      await assertTypeChecks(`${dir}/program.ts`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);
