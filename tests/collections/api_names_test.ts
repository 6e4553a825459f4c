import assert from "node:assert/strict";
import { collectionPath } from "../../collections/api/names.ts";

Deno.test("collectionPath: a collection name as its kebab-case path segment", () => {
  const cases: [string, string][] = [
    ["Posts", "posts"],
    ["C12", "c12"],
    ["Users9", "users9"],
    ["A", "a"],
    ["posts", "posts"],
    ["UserGroups", "user-groups"],
    ["APIKeys", "api-keys"],
    ["ABC", "abc"],
    ["ID", "id"],
    ["IDs", "i-ds"],
    ["Item2Things", "item2-things"],
    ["XMLHttpRequest", "xml-http-request"],
    ["V2API", "v2-api"],
    ["aB", "a-b"],
  ];
  for (const [name, path] of cases) {
    assert.equal(collectionPath(name), path, name);
  }
});
