import assert from "node:assert/strict";
import { canonicalizePath } from "../../router/canonical_path.ts";

Deno.test("canonicalizePath returns a path without % unchanged", () => {
  for (const path of ["/", "/posts/42", "/files/a.b-c_d~e/"]) {
    assert.equal(canonicalizePath(path), path);
  }
});

Deno.test("canonicalizePath decodes escapes of unreserved characters", () => {
  assert.equal(canonicalizePath("/%70ublic"), "/public");
  assert.equal(canonicalizePath("/%41%5a%61%7A%30%39"), "/AZaz09");
  assert.equal(canonicalizePath("/a%2Db%2ec%5Fd%7Ee"), "/a-b.c_d~e");
});

Deno.test("canonicalizePath upper-cases the hex of other escapes", () => {
  assert.equal(canonicalizePath("/caf%c3%a9"), "/caf%C3%A9");
  assert.equal(canonicalizePath("/a%20b%3a"), "/a%20b%3A");
  assert.equal(canonicalizePath("/%25"), "/%25");
  assert.equal(canonicalizePath("/%c3%A9/%70"), "/%C3%A9/p");
});

Deno.test("canonicalizePath keeps already canonical escapes", () => {
  const path = "/caf%C3%A9/%20";
  assert.equal(canonicalizePath(path), path);
});

Deno.test("canonicalizePath encodes a % that starts no escape", () => {
  assert.equal(canonicalizePath("/100%"), "/100%25");
  assert.equal(canonicalizePath("/%zz"), "/%25zz");
  assert.equal(canonicalizePath("/%4"), "/%254");
  assert.equal(canonicalizePath("/%%41"), "/%25A");
  // Canonical form is a fixed point.
  for (const path of ["/100%", "/%zz/%4", "/%%41", "/caf%c3%a9%70"]) {
    const once = canonicalizePath(path)!;
    assert.equal(canonicalizePath(once), once);
  }
});

Deno.test("canonicalizePath answers null for an encoded slash or backslash", () => {
  assert.equal(canonicalizePath("/files/a%2Fb"), null);
  assert.equal(canonicalizePath("/files/a%2fb"), null);
  assert.equal(canonicalizePath("/files/a%5Cb"), null);
  assert.equal(canonicalizePath("/files/a%5cb"), null);
  assert.equal(canonicalizePath("/%70/%2F"), null);
});

Deno.test("canonicalizePath agrees with the URL parser on what it gets", () => {
  const url = new URL("http://x/%70ublic/caf\u00e9/a b/%2e%2E/%7e");
  // The URL parser already resolved the encoded dot segment.
  assert.equal(url.pathname, "/%70ublic/caf%C3%A9/%7e");
  assert.equal(canonicalizePath(url.pathname), "/public/caf%C3%A9/~");
});
