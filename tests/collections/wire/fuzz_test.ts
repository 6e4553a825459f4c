import assert from "node:assert/strict";
import { parseListQuery } from "../../../collections/wire/parse.ts";
import type { ListPlan, WireContext } from "../../../collections/wire/parse.ts";
import { isWireError } from "../../../collections/wire/errors.ts";
import { makeContext, UUID_A } from "./_fixtures.ts";
import { mulberry32 as prng } from "../../_helpers/random.ts";

const SEEDS = [
  "where={views:{atLeast:10}}&order=[-views,title]&limit=20",
  "where={or:[{title:x},{not:{rating:{isNull:true}}}]}&page=2&perPage=5",
  `where={author:{has:{name:{startsWith:An},manager:{has:{UUID:${UUID_A}}}}}}`,
  "where={tags:{includesAny:[a,b]},publishedOn:{in:[2024-01-01]}}&locale=de",
  "select=[title,UUID,author]&populate=[author,comments.author]",
  'where={"title":{"like":"a%"},"startsAt":{"atMost":"12:00:00"}}',
  'where={title:`007,body:{contains:"x\\u0041"}}&offset=3',
  "where={comments:{has:{author:{has:{groups:{empty:true}}}}}}",
];

const ALPHABET = [
  ...'[]{},:"`\\-.0123456789 eEtrufalsnxyz%_',
  "__proto__",
  "constructor",
  "{or:[",
  "{not:",
  "{has:",
  "null",
  "true",
  "1e999",
  "\\u",
  "😀",
  "\ud800",
];

const PARAMS = [
  "where",
  "select",
  "order",
  "populate",
  "limit",
  "offset",
  "page",
  "perPage",
  "locale",
  "foo",
  "__proto__",
];

const KEYS = [
  "views",
  "title",
  "rating",
  "author",
  "comments",
  "tags",
  "secret",
  "UUID",
  "or",
  "not",
  "has",
  "in",
  "atLeast",
  "equalsTo",
  "isNull",
  "empty",
  "like",
  "__proto__",
  "constructor",
  "toString",
];

function pickOf<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)];
}

function mutate(rand: () => number, text: string): string {
  let out = text;
  const edits = 1 + Math.floor(rand() * 2);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(rand() * (out.length + 1));
    switch (Math.floor(rand() * 5)) {
      case 0:
        out = out.slice(0, at) + pickOf(rand, ALPHABET) + out.slice(at);
        break;
      case 1:
        out = out.slice(0, at) + out.slice(at + 1 + Math.floor(rand() * 3));
        break;
      case 2: {
        const len = Math.floor(rand() * 12);
        out = out.slice(0, at) + out.slice(at, at + len).repeat(2) +
          out.slice(at + len);
        break;
      }
      case 3:
        out = out.slice(0, at) + "&" + pickOf(rand, PARAMS) + "=" +
          out.slice(at);
        break;
      default:
        out = out.slice(0, at) + pickOf(rand, ALPHABET).repeat(40) +
          out.slice(at);
    }
  }
  return out;
}

function randomJson(rand: () => number, depth: number): unknown {
  const r = rand();
  if (depth > 6 || r < 0.35) {
    return pickOf(rand, [
      0,
      -1,
      1.5,
      10,
      1e21,
      true,
      false,
      null,
      "",
      "x",
      "007",
      UUID_A,
      "2024-02-30",
      "12:00:00",
      "-views",
      "author.groups",
      "de",
    ]);
  }
  if (r < 0.6) {
    return Array.from(
      { length: Math.floor(rand() * 4) },
      () => randomJson(rand, depth + 1),
    );
  }
  const out: Record<string, unknown> = {};
  const n = Math.floor(rand() * 4);
  for (let i = 0; i < n; i++) {
    Object.defineProperty(out, pickOf(rand, KEYS), {
      value: randomJson(rand, depth + 1),
      enumerable: true,
      configurable: true,
      writable: true,
    });
  }
  return out;
}

function check(run: () => ListPlan, input: unknown): "plan" | "error" {
  try {
    const plan = run();
    assert.ok(Array.isArray(plan.order) && Array.isArray(plan.populate));
    assert.equal(typeof plan.paginated, "boolean");
    return "plan";
  } catch (error) {
    if (!isWireError(error)) {
      throw new Error(`Not a wire error for ${JSON.stringify(input)}`, {
        cause: error,
      });
    }
    return "error";
  }
}

const CONTEXTS: WireContext[] = [
  makeContext(),
  makeContext({
    reachable: { Posts: ["title", "author", "UUID"], Users: ["name"] },
    guards: { maxConditions: 5, maxInLength: 3, maxValueBytes: 16 },
  }),
];

// Bounded by iterations for reproducibility, and by a deadline so a slow
// machine still finishes in about a second.
const ITERATIONS = 6000;
const BUDGET_MS = 1000;

Deno.test("fuzz: mutated URL queries give a plan or a wire 400", () => {
  const rand = prng(0x5eed);
  const seen = { plan: 0, error: 0 };
  const deadline = Date.now() + BUDGET_MS;
  for (let i = 0; i < ITERATIONS && Date.now() < deadline; i++) {
    let query = pickOf(rand, SEEDS);
    for (let round = Math.floor(rand() * 2); round >= 0; round--) {
      query = mutate(rand, query);
    }
    const ctx = pickOf(rand, CONTEXTS);
    seen[check(() => parseListQuery(new URLSearchParams(query), ctx), query)]++;
  }
  // The mutations must reach both outcomes, or the fuzzer tests nothing.
  assert.ok(seen.plan > 0 && seen.error > 0, JSON.stringify(seen));
});

Deno.test("fuzz: random JSON bodies give a plan or a wire 400", () => {
  const rand = prng(0xb0d1);
  const seen = { plan: 0, error: 0 };
  const deadline = Date.now() + BUDGET_MS;
  for (let i = 0; i < ITERATIONS && Date.now() < deadline; i++) {
    const body: Record<string, unknown> = {};
    const n = Math.floor(rand() * 3);
    for (let k = 0; k < n; k++) {
      const name = pickOf(rand, PARAMS);
      Object.defineProperty(body, name, {
        value: randomJson(rand, 0),
        enumerable: true,
        configurable: true,
        writable: true,
      });
    }
    const input = rand() < 0.05 ? randomJson(rand, 0) : body;
    const ctx = pickOf(rand, CONTEXTS);
    seen[
      check(
        () => parseListQuery(input as Record<string, unknown>, ctx),
        input,
      )
    ]++;
  }
  assert.ok(seen.plan > 0 && seen.error > 0, JSON.stringify(seen));
});

Deno.test("fuzz: random byte strings as every param value", () => {
  const rand = prng(42);
  const deadline = Date.now() + BUDGET_MS;
  for (let i = 0; i < ITERATIONS / 2 && Date.now() < deadline; i++) {
    const length = Math.floor(rand() * 60);
    let text = "";
    for (let c = 0; c < length; c++) {
      text += rand() < 0.7
        ? pickOf(rand, ALPHABET)
        : String.fromCharCode(Math.floor(rand() * 0x10000));
    }
    const params = new URLSearchParams();
    params.set(pickOf(rand, PARAMS), text);
    check(() => parseListQuery(params, CONTEXTS[0]), text);
  }
});
