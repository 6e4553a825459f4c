import assert from "node:assert/strict";
import { parseRelaxedLiteral } from "../../../collections/wire/literal.ts";
import { assertWireError } from "./_fixtures.ts";

const parse = (text: string) => parseRelaxedLiteral(text, "where");

Deno.test("literal: numbers follow the JSON number grammar", () => {
  assert.equal(parse("10"), 10);
  assert.equal(parse("-1.5"), -1.5);
  assert.equal(parse("1e3"), 1000);
  assert.equal(parse("2E-2"), 0.02);
  assert.equal(parse("0"), 0);
  assert.ok(Object.is(parse("-0"), 0));
  for (const text of ["007", "+1", ".5", "1.", "1e", "-", "0x10", "1_000"]) {
    assert.equal(parse(text), text, text);
  }
  assert.deepEqual(parse("[007, 00, 0.5]"), ["007", "00", 0.5]);
});

Deno.test("literal: keywords and bare words", () => {
  assert.equal(parse("true"), true);
  assert.equal(parse("false"), false);
  assert.equal(parse("null"), null);
  assert.equal(parse("True"), "True");
  assert.equal(parse("title"), "title");
  assert.equal(parse("-views"), "-views");
  assert.equal(parse("  hello world  "), "hello world");
  assert.equal(parse("12:30:00"), "12:30:00");
  assert.equal(parse("2024-02-29"), "2024-02-29");
  assert.equal(parse("de-CH"), "de-CH");
  // With no container around it, a top-level word runs to the end.
  assert.equal(parse("a,b]"), "a,b]");
  assert.deepEqual(parse("[ a b , c ]"), ["a b", "c"]);
});

Deno.test("literal: a leading backtick forces a string", () => {
  assert.equal(parse("`007"), "007");
  assert.equal(parse("`true"), "true");
  assert.equal(parse("`null"), "null");
  assert.equal(parse("`10"), "10");
  assert.equal(parse("`"), "");
  assert.equal(parse("` padded"), " padded");
  assert.deepEqual(parse("[`1, `false ,`]"), ["1", "false", ""]);
  assert.deepEqual(parse("{code:`007}"), { code: "007" });
});

Deno.test("literal: JSON strings with escapes", () => {
  assert.equal(parse('"007"'), "007");
  assert.equal(parse('"a,b]}"'), "a,b]}");
  assert.equal(parse('"q\\"b\\\\s\\/\\n\\t\\r\\b\\f"'), 'q"b\\s/\n\t\r\b\f');
  assert.equal(parse('"\\u00e9\\u20AC"'), "é€");
  assert.equal(parse('""'), "");
  assert.deepEqual(parse('[" spaced ", "x"]'), [" spaced ", "x"]);
  assertWireError(() => parse('"abc'), "invalidShape", "where");
  assertWireError(() => parse('"\\x"'), "invalidShape", "where");
  assertWireError(() => parse('"\\u12"'), "invalidShape", "where");
  assertWireError(() => parse('"\\u12G4"'), "invalidShape", "where");
  assertWireError(() => parse('"a" b'), "invalidShape", "where");
  assertWireError(() => parse('["a" b]'), "invalidShape", "where");
});

Deno.test("literal: lists and objects, relaxed and JSON", () => {
  assert.deepEqual(parse("[]"), []);
  assert.deepEqual(parse("{}"), {});
  assert.deepEqual(parse("[a,b]"), ["a", "b"]);
  assert.deepEqual(parse("{views:{atLeast:10}}"), { views: { atLeast: 10 } });
  assert.deepEqual(parse('{"views": {"atLeast": 10}, "t": "x"}'), {
    views: { atLeast: 10 },
    t: "x",
  });
  assert.deepEqual(parse('{ "my key" : [1, {b: null}], other key: x y }'), {
    "my key": [1, { b: null }],
    "other key": "x y",
  });
  assert.deepEqual(parse("{or:[{a:1},{b:2}]}"), { or: [{ a: 1 }, { b: 2 }] });
  assert.deepEqual(parse("{10:x}"), { "10": "x" });
  // A value word runs to `,` or `}`: colons (times) and spaces stay in it.
  assert.deepEqual(parse("{a:1 b:2}"), { a: "1 b:2" });
  assert.deepEqual(parse("{at:{atLeast:09:30:00}}"), {
    at: { atLeast: "09:30:00" },
  });
  const json = { a: [1, 2.5, -3e2, true, false, null, "s", { b: [] }] };
  assert.deepEqual(parse(JSON.stringify(json)), json);
  assert.deepEqual(parse(JSON.stringify(json, null, 2)), json);
});

Deno.test("literal: syntax errors are invalidShape at the given path", () => {
  const bad = [
    "",
    "   ",
    "[",
    "]x[",
    "[a",
    "[a,]",
    "[,a]",
    "[a,,b]",
    "[a}",
    "{",
    "{a}",
    "{a:}",
    "{:1}",
    "{a:1,}",
    "{a:1]",
    "{a[b]:1}",
    "{a:1,a:2}",
    '{"a":1,"a":2}',
    "[1] [2]",
    "{a:1}}",
    "[[]",
  ];
  for (const text of bad) {
    if (text === "]x[") {
      // A top-level bare word may start with any character but an opener.
      assert.equal(parseRelaxedLiteral(text, "select"), "]x[");
      continue;
    }
    assertWireError(
      () => parseRelaxedLiteral(text, "select"),
      "invalidShape",
      "select",
    );
  }
});

Deno.test("literal: a number out of range is invalidValue", () => {
  assertWireError(() => parse("1e400"), "invalidValue", "where");
  assertWireError(() => parse("[-1e999]"), "invalidValue", "where");
});

Deno.test("literal: nesting is limited to 32 levels", () => {
  const ok = "[".repeat(32) + "]".repeat(32);
  let value = parse(ok);
  for (let i = 0; i < 31; i++) value = (value as unknown[])[0];
  assert.deepEqual(value, []);
  assertWireError(
    () => parse("[".repeat(33) + "]".repeat(33)),
    "tooDeep",
    "where",
  );
  assertWireError(
    () => parse("{a:".repeat(33) + "1" + "}".repeat(33)),
    "tooDeep",
    "where",
  );
  const mixed = "{a:[".repeat(16) + "1" + "]}".repeat(16);
  assert.ok(parse(mixed));
  assertWireError(
    () => parse("{a:[".repeat(16) + "[1]" + "]}".repeat(16)),
    "tooDeep",
    "where",
  );
});

Deno.test("literal: prototype keys become plain own data", () => {
  const value = parse(
    "{__proto__:{polluted:1},constructor:x,toString:1,hasOwnProperty:2}",
  ) as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(value), Object.prototype);
  assert.deepEqual(Object.keys(value), [
    "__proto__",
    "constructor",
    "toString",
    "hasOwnProperty",
  ]);
  assert.ok(Object.hasOwn(value, "__proto__"));
  assert.deepEqual(Object.getOwnPropertyDescriptor(value, "__proto__")?.value, {
    polluted: 1,
  });
  assert.equal(value.constructor, "x");
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  const json = parse('{"__proto__":{"polluted":1}}') as Record<string, unknown>;
  assert.ok(Object.hasOwn(json, "__proto__"));
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test("literal: hostile input stays linear and only throws wire errors", () => {
  const n = 200_000;
  assertWireError(() => parse("[".repeat(n)), "tooDeep", "where");
  assertWireError(() => parse("{a:".repeat(n)), "tooDeep", "where");
  assert.equal(parse("a".repeat(n)), "a".repeat(n));
  assert.equal(typeof parse("1".repeat(300)), "number");
  assertWireError(() => parse("9".repeat(n)), "invalidValue", "where");
  assert.equal(parse("-" + "1".repeat(n) + "x"), "-" + "1".repeat(n) + "x");
  assert.equal((parse("[" + "a,".repeat(n) + "a]") as unknown[]).length, n + 1);
  assertWireError(
    () => parse('"' + "\\u0041".repeat(n)),
    "invalidShape",
    "where",
  );
  assert.equal(parse('"' + "\\u0041".repeat(n) + '"'), "A".repeat(n));
  assertWireError(() => parse("[" + " ".repeat(n)), "invalidShape", "where");
  assertWireError(() => parse("{" + "a".repeat(n)), "invalidShape", "where");
  assertWireError(
    () => parse("[a" + " ".repeat(n) + "b"),
    "invalidShape",
    "where",
  );
  assertWireError(() => parse("[" + "[],".repeat(n)), "invalidShape", "where");
  assert.equal(parse("\u0000\uffff\ud800"), "\u0000\uffff\ud800");
});
