/**
 * Shared by the OpenAPI tests: the document of an app, its validation with an independent
 * OpenAPI 3.1 validator, and an Ajv check of a real answer against the operation's schema.
 *
 * @module
 */
import assert from "node:assert/strict";
import { validate } from "npm:@readme/openapi-parser@^9.0.0";
import { Ajv2020 } from "npm:ajv@^8.17.0/dist/2020.js";
import addFormats from "npm:ajv-formats@^3.0.1";
import { createTestApp, type TestApp } from "../../testing/mod.ts";
import { seedBlog } from "../../examples/blog/seed.ts";
import { PG_URL } from "../_helpers/db_apps.ts";

/** The parts of an OpenAPI document the tests read. */
export type Doc = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Record<string, unknown>>;
    responses: Record<string, unknown>;
  };
};

/** The parts of an operation the tests read. */
export type Operation = {
  operationId: string;
  tags?: string[];
  parameters?: {
    name: string;
    in: string;
    required?: boolean;
    schema?: Record<string, unknown>;
  }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { $ref?: string; content?: unknown }>;
};

/** The example app's folder. */
export const BLOG: string =
  new URL("../../examples/blog/", import.meta.url).pathname;

/** `GET /openapi.json` (or `path`) of `app`, asserted to be a JSON 200. */
export async function documentOf(
  app: { fetch: TestApp["fetch"] },
  path = "/openapi.json",
): Promise<Doc> {
  const response = await app.fetch(new Request(`http://localhost${path}`));
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /application\/json/);
  return await response.json();
}

/** Asserts that `@readme/openapi-parser` finds `doc` a valid OpenAPI 3.1 document. */
export async function assertValidOpenApi(doc: Doc): Promise<void> {
  const result = await validate(structuredClone(doc) as never);
  assert.deepEqual(
    { valid: result.valid, errors: (result as { errors?: unknown }).errors },
    { valid: true, errors: undefined },
  );
  assert.equal(doc.openapi, "3.1.0");
}

/** Every operationId of `doc`, in document order. */
export function operationIds(doc: Doc): string[] {
  return Object.values(doc.paths).flatMap((ops) =>
    Object.values(ops).map((op) => op.operationId)
  );
}

/** Boots the blog on SQLite and, when configured, on PostgreSQL, seeded. */
export function blogTest(
  name: string,
  fn: (app: TestApp) => Promise<void>,
): void {
  for (const database of [":memory:", PG_URL]) {
    Deno.test({
      name: `${name} [${database === ":memory:" ? "sqlite" : "postgres"}]`,
      ignore: database === undefined,
      async fn() {
        const app = await createTestApp({ root: BLOG, database });
        try {
          await seedBlog(app);
          await fn(app);
        } finally {
          await app.close();
        }
      },
    });
  }
}

/** An Ajv validator for one response of the document. */
export function responseValidator(
  doc: Doc,
): (path: string, method: string, status: number, body: unknown) => void {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: "doc", ...doc, openapi: undefined } as never);
  const compiled = new Map<string, (value: unknown) => boolean>();
  return (path: string, method: string, status: number, body: unknown) => {
    const operation = doc.paths[path]?.[method];
    assert.ok(operation, `${method} ${path} is in the document`);
    let response = operation.responses[String(status)];
    assert.ok(response, `${method} ${path} lists ${status}`);
    if (response.$ref) {
      const name = response.$ref.split("/").pop()!;
      response = doc.components.responses[name] as typeof response;
    }
    const content = (response.content as
      | Record<string, { schema: unknown }>
      | undefined)?.["application/json"];
    if (!content) {
      assert.equal(body, undefined, `${method} ${path} ${status} has no body`);
      return;
    }
    const key = `${method} ${path} ${status}`;
    let check = compiled.get(key);
    if (!check) {
      check = ajv.compile({
        $id: `check-${compiled.size}`,
        ...rebase(content.schema),
      } as never);
      compiled.set(key, check);
    }
    const ok = check(body);
    assert.ok(
      ok,
      `${key}: ${
        JSON.stringify((check as unknown as { errors: unknown }).errors)
      }\n${JSON.stringify(body).slice(0, 500)}`,
    );
  };
}

/** Points the document's local `$ref`s at the registered document. */
function rebase(schema: unknown): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"doc#/'),
  );
}

/** Asserts `deno check` accepts the program at `path` (TypeScript generated from a document). */
export async function assertTypeChecks(path: string): Promise<void> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["check", "--quiet", path],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
}
