// The framework's route files parsed ahead (app/_framework_routes.ts) are what the parser
// makes of them, for every route file of the framework's own layers, and cannot be changed.
import assert from "node:assert/strict";
import { FRAMEWORK_ROUTE_FILES } from "../../app/_framework_routes.ts";
import { frameworkLayers } from "../../app/framework_layers.ts";
import { WEBHOOKS_LAYER } from "../../webhooks/layer.ts";
import { parseRouteFile } from "../../router/route_path.ts";

Deno.test("each framework route file parsed ahead is what parseRouteFile makes of it", () => {
  for (const [file, parsed] of FRAMEWORK_ROUTE_FILES) {
    assert.deepEqual(
      { ...parsed, segments: [...parsed.segments] },
      parseRouteFile(file),
      file,
    );
  }
});

Deno.test("every route file of the framework's layers is parsed ahead", () => {
  const layers = [...frameworkLayers("/openapi.json", true), WEBHOOKS_LAYER];
  const files = layers.flatMap((layer) => Object.keys(layer.routes ?? {}));
  assert.ok(files.length >= 16);
  for (const file of files) {
    assert.ok(FRAMEWORK_ROUTE_FILES.has(file), file);
  }
  assert.equal(FRAMEWORK_ROUTE_FILES.size, new Set(files).size);
});

Deno.test("framework route files parsed ahead are frozen", () => {
  for (const parsed of FRAMEWORK_ROUTE_FILES.values()) {
    assert.ok(Object.isFrozen(parsed));
    assert.ok(Object.isFrozen(parsed.segments));
    for (const segment of parsed.segments) assert.ok(Object.isFrozen(segment));
  }
});
