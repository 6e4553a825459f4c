// The trie's static-child and static-path tables: many siblings, including names built to
// share every sampled character of the probe hash, all match exactly and only themselves.
import assert from "node:assert/strict";
import { RouteTrie } from "../../router/trie.ts";

function value(trie: RouteTrie<string>, method: string, path: string) {
  const result = trie.match(method, path);
  return result === null ? null : "value" in result ? result.value : result;
}

// Same length, same first, middle, second-to-last and last characters: identical sampled
// hashes, so every lookup among them walks a probe chain.
const TWINS = Array.from(
  { length: 40 },
  (_, i) => `a${String.fromCharCode(98 + (i % 20))}${i < 20 ? "x" : "y"}mzq`,
);

Deno.test("static siblings that collide in the probe hash all match exactly", () => {
  const trie = new RouteTrie<string>();
  for (const name of TWINS) {
    trie.add("GET", `/${name}`, `static ${name}`);
    trie.add("GET", `/p/${name}/[id]`, `param ${name}`);
  }
  trie.add("GET", "/p/[other]/[id]", "fallback");
  trie.freeze();
  for (const name of TWINS) {
    assert.equal(value(trie, "GET", `/${name}`), `static ${name}`);
    assert.equal(value(trie, "GET", `/${name}/`), `static ${name}`);
    assert.deepEqual(trie.match("GET", `/p/${name}/7`), {
      value: `param ${name}`,
      params: { id: "7" },
    });
  }
  // Near misses: same sampled characters or same length, not the same name.
  for (const near of ["abxmzr", "abxnzq", "abxmz", "abxmzqq", "ABXMZQ"]) {
    assert.equal(value(trie, "GET", `/${near}`), null, near);
    assert.deepEqual(trie.match("GET", `/p/${near}/7`), {
      value: "fallback",
      params: { other: near, id: "7" },
    });
  }
});

Deno.test("the static path table resolves methods like the walk does", () => {
  const trie = new RouteTrie<string>();
  for (let i = 0; i < 50; i++) {
    trie.add("GET", `/static/route${i}`, `get ${i}`);
    trie.add("POST", `/static/route${i}`, `post ${i}`);
  }
  trie.add("*", "/static/any", "any");
  trie.add("GET", "/static/[name]", "param");
  trie.add("DELETE", "/static/route3", "delete 3");
  trie.freeze();
  assert.equal(value(trie, "GET", "/static/route7"), "get 7");
  assert.equal(value(trie, "HEAD", "/static/route7"), "get 7");
  assert.equal(value(trie, "POST", "/static/route49"), "post 49");
  assert.equal(value(trie, "DELETE", "/static/route3"), "delete 3");
  assert.equal(value(trie, "PATCH", "/static/any"), "any");
  assert.equal(value(trie, "GET", "/static/route50"), "param");
  // A method the static route does not serve falls through to the param route…
  assert.deepEqual(trie.match("PUT", "/static/route7"), {
    allowed: ["GET", "HEAD", "OPTIONS", "POST"],
  });
  // …and a route added later (before freezing) is found: the table is rebuilt.
  const open = new RouteTrie<string>();
  open.add("GET", "/a", "a");
  assert.equal(value(open, "GET", "/a"), "a");
  open.add("GET", "/b", "b");
  assert.equal(value(open, "GET", "/b"), "b");
  assert.equal(value(open, "GET", "/"), null);
  open.add("GET", "/", "root");
  assert.equal(value(open, "GET", "/"), "root");
});
