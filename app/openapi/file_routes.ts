/**
 * File routes in the OpenAPI document: path parameters from the pattern, and the route's
 * schemas as JSON Schema where they can produce it themselves (the Standard JSON Schema
 * interface; request schemas in input mode). Otherwise, and whenever conversion throws, the
 * operation keeps its path parameters and a free-form body.
 *
 * @module
 */
import type { MergedRoute } from "../merge_layers.ts";
import { paramNames, type RouteSegment } from "../../router/route_path.ts";
import type { StandardSchemaV1 } from "../../router/standard_schema.ts";
import type { RouteSchemas } from "../../router/validated_handler.ts";
import { errorRefs, type ErrorStatus } from "./errors.ts";
import type { JsonSchema } from "./field_schema.ts";
import type { PlacedOperation } from "./collections.ts";

/** The methods a route file without a method suffix is listed under. */
const ANY_METHODS = ["get", "post", "put", "patch", "delete"];

const BODY_METHODS = new Set(["post", "put", "patch", "delete"]);

/**
 * The OpenAPI path of a route pattern: `[id]` → `{id}`, `[...path]` → `{path}`.
 *
 * @example
 * ```ts
 * import { openApiPath } from "./file_routes.ts";
 * openApiPath([{ kind: "static", value: "posts" }, { kind: "param", name: "id" }]); // "/posts/{id}"
 * ```
 */
export function openApiPath(segments: readonly RouteSegment[]): string {
  return "/" + segments.map((segment) => {
    switch (segment.kind) {
      case "static":
        return segment.value;
      case "param":
      case "catchAll":
        return `{${segment.name}}`;
      case "mixed":
        return segment.parts.map((part) =>
          typeof part === "string" ? part : `{${part.param}}`
        ).join("");
    }
  }).join("/");
}

function pascal(text: string): string {
  return text.split(/[^A-Za-z0-9]+/).filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1)).join("");
}

/**
 * The stable operationId of a file route: `<method><PathInPascalCase>`, params as `By<Name>`.
 *
 * @example
 * ```ts
 * import { fileOperationId } from "./file_routes.ts";
 * fileOperationId("get", [{ kind: "static", value: "posts" }, { kind: "param", name: "id" }]); // "getPostsById"
 * ```
 */
export function fileOperationId(
  method: string,
  segments: readonly RouteSegment[],
): string {
  const words = segments.map((segment) => {
    switch (segment.kind) {
      case "static":
        return pascal(segment.value);
      case "param":
      case "catchAll":
        return "By" + pascal(segment.name);
      case "mixed":
        return segment.parts.map((part) =>
          typeof part === "string" ? pascal(part) : "By" + pascal(part.param)
        ).join("");
    }
  }).join("");
  return method + (words || "Index");
}

/** A schema's JSON Schema, or `undefined` when it cannot give one (or conversion throws). */
function jsonSchemaOf(
  schema: StandardSchemaV1 | undefined,
  mode: "input" | "output",
): JsonSchema | undefined {
  const convert = schema?.["~standard"].jsonSchema?.[mode];
  if (typeof convert !== "function") return undefined;
  try {
    const { $schema: _dialect, ...rest } = convert({ target: "draft-2020-12" });
    return JSON.parse(JSON.stringify(rest));
  } catch {
    return undefined;
  }
}

function objectProperties(
  schema: JsonSchema | undefined,
): { properties: Record<string, JsonSchema>; required: Set<string> } | null {
  if (!schema || typeof schema.properties !== "object") return null;
  return {
    properties: schema.properties as Record<string, JsonSchema>,
    required: new Set(
      Array.isArray(schema.required) ? schema.required as string[] : [],
    ),
  };
}

function parameters(
  route: MergedRoute,
  schemas: Readonly<RouteSchemas>,
): JsonSchema[] {
  const path = objectProperties(jsonSchemaOf(schemas.params, "input"));
  const out: JsonSchema[] = route.segments.flatMap(paramNames).map((name) => ({
    name,
    in: "path",
    required: true,
    schema: path?.properties[name] ?? { type: "string" },
  }));
  for (const part of ["query", "headers"] as const) {
    const described = objectProperties(jsonSchemaOf(schemas[part], "input"));
    if (!described) continue;
    for (const [name, schema] of Object.entries(described.properties)) {
      out.push({
        name,
        in: part === "query" ? "query" : "header",
        required: described.required.has(name),
        schema,
      });
    }
  }
  return out;
}

/**
 * The operations of one file route: one, or five for a route file without a method suffix.
 *
 * @example
 * ```ts ignore
 * fileRouteOperations(route, usedIds);
 * ```
 */
export function fileRouteOperations(
  route: MergedRoute,
  usedIds: Set<string>,
): PlacedOperation[] {
  const schemas = route.definition.schemas ?? {};
  const doc = route.definition.options.openapi;
  if (doc === false) return [];
  const methods = route.method === "*"
    ? ANY_METHODS
    : [route.method.toLowerCase()];
  const path = openApiPath(route.segments);
  const placed: PlacedOperation[] = [];
  for (const method of methods) {
    if (method === "head" || method === "options") continue;
    let operationId = fileOperationId(method, route.segments);
    for (let n = 2; usedIds.has(operationId); n++) {
      operationId = fileOperationId(method, route.segments) + n;
    }
    usedIds.add(operationId);
    const statuses: ErrorStatus[] = [503];
    if (schemas.params || schemas.query || schemas.headers) statuses.push(400);
    const operation: JsonSchema = {
      operationId,
      parameters: parameters(route, schemas),
    };
    if (schemas.body || BODY_METHODS.has(method)) {
      const body = jsonSchemaOf(schemas.body, "input") ?? {};
      operation.requestBody = {
        required: schemas.body !== undefined,
        content: { "application/json": { schema: body } },
      };
      // Every body is read under the route's size limit; only a schema makes it JSON.
      statuses.push(413);
      if (schemas.body) statuses.push(400, 415, 422);
    }
    const answer = jsonSchemaOf(schemas.response, "output");
    operation.responses = {
      "200": {
        description: "The route's answer",
        ...(answer
          ? { content: { "application/json": { schema: answer } } }
          : {}),
      },
      ...errorRefs(statuses),
    };
    placed.push({
      path,
      method,
      operation: { ...operation, ...(doc ?? {}), operationId },
    });
  }
  return placed;
}
