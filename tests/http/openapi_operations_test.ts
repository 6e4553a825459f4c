// Every operation of the example app's document is called at least once, signed in as the
// administrator, and its real answer validates against the operation's response schema
// (Ajv): the status must be one the operation lists, the body must match it, and no
// operation answers 5xx. Path parameters are filled with records that exist; bodies are
// empty objects, so most writes answer with the wire error schema, which is checked too.
// The app's own route files without schemas are the exception the design makes: nothing
// describes their answers, so only "no 5xx" holds for them, and the test names them.
import assert from "node:assert/strict";
import { DEMO_PASSWORD } from "../../examples/blog/seed.ts";
import type { TestApp, TestClient } from "../../testing/mod.ts";
import {
  blogTest,
  documentOf,
  type Operation,
  operationIds,
  responseValidator,
} from "./_openapi.ts";

/**
 * Which calls go last: deletes after the rest, those that can end the administrator's own
 * session (a session's or a user's delete, signing out) at the very end.
 */
function rank(path: string, method: string): number {
  if (path === "/auth/logout") return 4;
  if (method === "delete" && /^\/collections\/(sessions|users)\//.test(path)) {
    return 3;
  }
  if (method === "delete" || path === "/auth/logout/others") return 2;
  return 1;
}

/** A value for a parameter: a record that exists for `{uuid}`, else a plausible one. */
async function valueOf(
  admin: TestClient,
  path: string,
  name: string,
): Promise<string> {
  if (name === "uuid") {
    const collection = path.split("/")[2];
    const list = await admin.request(`/collections/${collection}?limit=1`);
    const records = await list.json() as { UUID: string }[];
    return records[0]?.UUID ?? crypto.randomUUID();
  }
  const known: Record<string, string> = {
    slug: "hello-strata",
    date: "2025",
    group: "errors",
    language: "de",
    locale: "de",
    q: "strata",
    collections: "posts,comments",
  };
  return known[name] ?? "x";
}

/** A route file without schemas: its success is listed without content, nor a 204. */
function undescribed(operation: Operation): boolean {
  const [status, success] = Object.entries(operation.responses)[0];
  return status !== "204" && !success.content;
}

/** Sends one call of `operation` and checks its answer; resolves to its status. */
async function callOnce(
  admin: TestClient,
  check: ReturnType<typeof responseValidator>,
  path: string,
  method: string,
  operation: Operation,
): Promise<number> {
  let url = path;
  const query = new URLSearchParams();
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in === "path") {
      url = url.replace(
        `{${parameter.name}}`,
        encodeURIComponent(await valueOf(admin, path, parameter.name)),
      );
    } else if (parameter.in === "query" && parameter.required) {
      query.set(parameter.name, await valueOf(admin, path, parameter.name));
    }
  }
  if (query.size > 0) url += `?${query}`;
  const json = operation.requestBody?.content["application/json"];
  const response = await admin.request(url, {
    method: method.toUpperCase(),
    headers: json ? { "content-type": "application/json" } : {},
    body: json ? "{}" : undefined,
  });
  const where = `${method.toUpperCase()} ${url} (${operation.operationId})`;
  assert.ok(response.status < 500, `${where} answered ${response.status}`);
  const type = response.headers.get("content-type") ?? "";
  if (type.startsWith("text/event-stream")) {
    // A stream never ends by itself: its status and type are what can be checked.
    await response.body?.cancel();
    const listed = operation.responses[String(response.status)]?.content;
    assert.ok(
      listed && "text/event-stream" in (listed as Record<string, unknown>),
      `${where}: the stream is described`,
    );
    return response.status;
  }
  const text = await response.text();
  let body: unknown = undefined;
  if (text !== "") {
    assert.match(type, /json/, `${where} answered ${type}: ${text}`);
    body = JSON.parse(text);
  }
  if (undescribed(operation)) return response.status;
  check(path, method, response.status, body);
  return response.status;
}

async function everyOperation(app: TestApp): Promise<void> {
  const doc = await documentOf(app);
  const check = responseValidator(doc);
  const admin = await app.signIn("admin@example.com", DEMO_PASSWORD);
  const calls = Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      path,
      method,
      operation,
    }))
  ).sort((a, b) => rank(a.path, a.method) - rank(b.path, b.method));
  const answered = new Map<string, number>();
  for (const { path, method, operation } of calls) {
    answered.set(
      operation.operationId,
      await callOnce(admin, check, path, method, operation),
    );
  }
  assert.deepEqual([...answered.keys()].sort(), operationIds(doc).sort());
  // Only the example's own schemaless route files go undescribed, never a framework route.
  assert.deepEqual(
    calls.filter((c) => undescribed(c.operation)).map((c) =>
      c.operation.operationId
    ).sort(),
    [
      "getArchiveByDate",
      "getIndex",
      "getMePosts",
      "getPostsBySlug",
      "postPostsBySlugComments",
      "postSignup",
    ],
  );
  // Not only refusals: most operations answer a success to the administrator.
  const successes = [...answered.values()].filter((s) => s < 300).length;
  assert.ok(
    successes >= answered.size / 2,
    `${successes} of ${answered.size} answered a success: ${
      JSON.stringify(Object.fromEntries(answered))
    }`,
  );
}

blogTest(
  "every operation of the example app answers as its response schema says",
  everyOperation,
);
