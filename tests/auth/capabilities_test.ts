import assert from "node:assert/strict";
import {
  capabilitiesCover,
  capabilitiesOf,
  capabilityCovers,
  capabilitySetCovers,
  defineRole,
} from "../../auth/capabilities.ts";

Deno.test("capabilityCovers: * covers everything", () => {
  for (
    const needed of [
      "collection.Posts.read",
      "collection.*",
      "*",
      "dashboard.access",
    ]
  ) {
    assert.equal(capabilityCovers("*", needed), true, needed);
  }
});

Deno.test("capabilityCovers: a prefix wildcard covers names under it", () => {
  assert.equal(capabilityCovers("collection.*", "collection.Posts.read"), true);
  assert.equal(
    capabilityCovers("collection.*", "collection.Tags.delete"),
    true,
  );
  assert.equal(capabilityCovers("collection.*", "collection.Posts.*"), true);
  assert.equal(capabilityCovers("collection.*", "collection"), false);
  assert.equal(
    capabilityCovers("collection.*", "collections.Posts.read"),
    false,
  );
  assert.equal(capabilityCovers("collection.*", "*"), false);
  assert.equal(
    capabilityCovers("collection.Posts.*", "collection.Posts.read"),
    true,
  );
  assert.equal(
    capabilityCovers("collection.Posts.*", "collection.Posts.publish"),
    true,
  );
  assert.equal(
    capabilityCovers("collection.Posts.*", "collection.Posts.custom.deep"),
    true,
  );
  assert.equal(
    capabilityCovers("collection.Posts.*", "collection.PostsArchive.read"),
    false,
  );
  assert.equal(
    capabilityCovers("collection.Posts.*", "collection.Posts"),
    false,
  );
  assert.equal(capabilityCovers("collection.Posts.*", "collection.*"), false);
});

Deno.test("capabilityCovers: otherwise only an exact match", () => {
  assert.equal(
    capabilityCovers("collection.Posts.read", "collection.Posts.read"),
    true,
  );
  assert.equal(
    capabilityCovers("collection.Posts", "collection.Posts.read"),
    false,
  );
  assert.equal(
    capabilityCovers("collection.Posts.read", "collection.Posts.update"),
    false,
  );
  assert.equal(
    capabilityCovers("collection.posts.read", "collection.Posts.read"),
    false,
  );
  assert.equal(capabilityCovers("", ""), false);
  assert.equal(capabilityCovers("x", ""), false);
});

Deno.test("capabilitiesCover checks any granted capability", () => {
  const granted = ["collection.Posts.read", "collection.Tags.*"];
  assert.equal(capabilitiesCover(granted, "collection.Posts.read"), true);
  assert.equal(capabilitiesCover(granted, "collection.Tags.update"), true);
  assert.equal(capabilitiesCover(granted, "collection.Posts.update"), false);
  assert.equal(capabilitiesCover([], "collection.Posts.read"), false);
});

Deno.test("capabilitySetCovers treats wildcards as sets", () => {
  assert.equal(
    capabilitySetCovers(["collection.*"], ["collection.Posts.*"]),
    true,
  );
  assert.equal(
    capabilitySetCovers(["collection.Posts.*"], ["collection.*"]),
    false,
  );
  assert.equal(capabilitySetCovers(["*"], ["*", "collection.*", "x.y"]), true);
  assert.equal(capabilitySetCovers(["collection.*"], ["*"]), false);
  assert.equal(
    capabilitySetCovers(
      ["collection.Posts.read", "collection.Posts.update"],
      ["collection.Posts.*"],
    ),
    false,
  );
  assert.equal(
    capabilitySetCovers(["collection.Posts.*", "collection.Tags.read"], [
      "collection.Posts.read",
      "collection.Tags.read",
    ]),
    true,
  );
  assert.equal(
    capabilitySetCovers(["collection.Posts.*"], [
      "collection.Posts.read",
      "collection.Tags.read",
    ]),
    false,
  );
  assert.equal(capabilitySetCovers([], []), true);
  assert.equal(capabilitySetCovers(["x"], []), true);
  assert.equal(capabilitySetCovers([], ["x"]), false);
});

Deno.test("capabilitiesOf unions the roles' capabilities", () => {
  const roles = new Map([
    ["admin", defineRole({ capabilities: ["*"] })],
    ["editor", defineRole({ capabilities: ["collection.Posts.*", "a.b"] })],
    ["viewer", { capabilities: ["collection.Posts.read", "a.b"] }],
  ]);
  assert.deepEqual(capabilitiesOf(["editor", "viewer"], roles), [
    "collection.Posts.*",
    "a.b",
    "collection.Posts.read",
  ]);
  assert.deepEqual(capabilitiesOf(["admin"], roles), ["*"]);
  assert.deepEqual(capabilitiesOf(["ghost"], roles), []);
  assert.deepEqual(capabilitiesOf(["ghost", "viewer"], roles), [
    "collection.Posts.read",
    "a.b",
  ]);
  assert.deepEqual(capabilitiesOf([], roles), []);
  assert.deepEqual(capabilitiesOf(["constructor", "__proto__"], roles), []);
});

Deno.test("defineRole returns a frozen definition", () => {
  const role = defineRole({
    capabilities: ["collection.Posts.*", "collection.Posts.*", "custom.x"],
  });
  assert.deepEqual(role, {
    capabilities: ["collection.Posts.*", "custom.x"],
  });
  assert.ok(Object.isFrozen(role));
  assert.ok(Object.isFrozen(role.capabilities));
  assert.throws(() => {
    (role.capabilities as string[]).push("x");
  }, TypeError);
  const input = ["a.b"];
  const copy = defineRole({ capabilities: input });
  input.push("c");
  assert.deepEqual(copy.capabilities, ["a.b"]);
  assert.deepEqual(defineRole({ capabilities: [] }).capabilities, []);
  assert.deepEqual(defineRole({ capabilities: ["*"] }).capabilities, ["*"]);
});

Deno.test("defineRole validates capabilities", () => {
  const invalid: Array<[unknown, RegExp]> = [
    [[""], /must be a non-empty string/],
    [[42], /at index 0 must be a non-empty string/],
    [["ok", null], /at index 1 must be a non-empty string/],
    [["collection.*.read"], /"\*" only as its whole last segment/],
    [["collection.Posts*"], /"\*" only as its whole last segment/],
    [["collection.**"], /"\*" only as its whole last segment/],
    [["*.read"], /"\*" only as its whole last segment/],
    [["collection..read"], /empty segments/],
    [[".read"], /empty segments/],
    [["collection."], /empty segments/],
    [["collection Posts"], /whitespace/],
  ];
  for (const [capabilities, message] of invalid) {
    assert.throws(
      () => defineRole({ capabilities: capabilities as string[] }),
      (error: unknown) =>
        error instanceof TypeError && /^Role capability /.test(error.message) &&
        message.test(error.message),
      JSON.stringify(capabilities),
    );
  }
  assert.throws(
    () => defineRole({ capabilities: "*" as unknown as string[] }),
    { name: "TypeError", message: "Role capabilities must be an array" },
  );
  assert.throws(
    () => defineRole(null as unknown as { capabilities: string[] }),
    TypeError,
  );
});
