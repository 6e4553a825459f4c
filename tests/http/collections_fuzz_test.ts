// Seeded fuzzing of the list, query, create and update routes: random and mutated queries and
// bodies; every answer must be 2xx, 400, 404 or 422 — never a 5xx. Bounded in time for CI.
import assert from "node:assert/strict";
import { mulberry32, pick, type Rng } from "../_helpers/random.ts";
import { dbAppTest } from "../_helpers/db_apps.ts";
import { WHERE_OPERATORS } from "../../mod.ts";

const FIELDS = [
  "title",
  "status",
  "views",
  "rating",
  "published",
  "secret",
  "slug",
  "computed",
  "author",
  "tags",
  "UUID",
  "nope",
  "__proto__",
  "or",
  "not",
];
const OPS = [...WHERE_OPERATORS, "bogus"];
const SEEDS = [
  "where={views:{atLeast:3}}&order=[-views]&limit=5",
  "where={or:[{title:a},{not:{views:2}}]}&select=[title,views]",
  "where={author:{has:{name:Ada}}}&populate=[author]&page=1&perPage=3",
  "where={tags:{includesAny:[]}}&locale=de",
  "where={rating:{isNull:true},published:false}&offset=1",
  "select=[UUID,title]&order=[title,-views]&populate=[tags]",
];

function randomValue(rng: Rng, depth = 0): unknown {
  const roll = rng();
  if (roll < 0.15) return Math.floor(rng() * 200) - 50;
  if (roll < 0.25) return rng() * 1e6;
  if (roll < 0.35) return pick(rng, [true, false, null]);
  if (roll < 0.55) {
    return pick(rng, [
      "",
      "a",
      "draft",
      "published",
      "%_",
      "2024-02-30",
      "12:00",
      "nul\u0000",
      crypto.randomUUID(),
      "x".repeat(Math.floor(rng() * 5000)),
    ]);
  }
  if (roll < 0.7 && depth < 4) {
    return Array.from(
      { length: Math.floor(rng() * 4) },
      () => randomValue(rng, depth + 1),
    );
  }
  if (depth < 4) return randomFilter(rng, depth + 1);
  return "leaf";
}

function randomFilter(rng: Rng, depth = 0): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  const keys = Math.floor(rng() * 3);
  for (let i = 0; i < keys; i++) {
    const field = pick(rng, FIELDS);
    if (rng() < 0.4) filter[field] = randomValue(rng, depth + 1);
    else filter[field] = { [pick(rng, OPS)]: randomValue(rng, depth + 1) };
  }
  return filter;
}

function mutate(rng: Rng, text: string): string {
  const chars = [...text];
  const edits = 1 + Math.floor(rng() * 4);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(rng() * (chars.length + 1));
    const roll = rng();
    if (roll < 0.4) chars.splice(at, 1);
    else if (roll < 0.8) {
      chars.splice(at, 0, pick(rng, [...'{}[],:`"-0123456789abz&= %\\']));
    } else {chars.splice(
        at,
        0,
        ...pick(rng, [
          "__proto__",
          "null",
          "{or:[",
          "]}",
          "&page=0",
          "&limit=99999",
        ]),
      );}
  }
  return chars.join("");
}

function randomBody(rng: Rng): unknown {
  if (rng() < 0.1) return randomValue(rng);
  const body: Record<string, unknown> = {};
  for (const field of FIELDS) {
    if (rng() < 0.35) body[field] = randomValue(rng, 2);
  }
  return body;
}

const ALLOWED = new Set([200, 201, 204, 400, 404, 413, 415, 422]);
const BUDGET_MS = Number(Deno.env.get("STRATA_FUZZ_MS") ?? 1500);

dbAppTest(
  "fuzz: list, query, create and update never answer 5xx",
  "api_app",
  async ({ req }) => {
    const rng = mulberry32(0x5eed);
    const author =
      (await req("POST", "/collections/authors", { json: { name: "Ada" } }))
        .body as { UUID: string };
    const post = (await req("POST", "/collections/posts", {
      json: { title: "seed", author: author.UUID },
    })).body as { UUID: string };
    const failures: string[] = [];
    const check = (what: string, status: number) => {
      if (!ALLOWED.has(status)) {
        failures.push(
          `${status} for ${what.slice(0, 300)}`,
        );
      }
    };
    const deadline = Date.now() + BUDGET_MS;
    let runs = 0;
    while (Date.now() < deadline && failures.length === 0) {
      runs++;
      const kind = runs % 4;
      if (kind === 0) {
        const query = rng() < 0.5
          ? mutate(rng, pick(rng, SEEDS))
          : `where=${encodeURIComponent(JSON.stringify(randomFilter(rng)))}`;
        const encoded = query.replace(/%(?![0-9A-Fa-f]{2})/g, "%25").replaceAll(
          "#",
          "%23",
        );
        check(
          `GET ?${query}`,
          (await req("GET", `/collections/posts?${encoded}`)).status,
        );
      } else if (kind === 1) {
        const body = {
          where: randomFilter(rng),
          order: [pick(rng, FIELDS)],
          limit: randomValue(rng),
        };
        check(
          `query ${JSON.stringify(body)}`,
          (await req("POST", "/collections/posts/query", { json: body }))
            .status,
        );
      } else if (kind === 2) {
        const body = randomBody(rng);
        check(
          `create ${JSON.stringify(body)}`,
          (await req("POST", "/collections/posts", { json: body })).status,
        );
      } else {
        const body = randomBody(rng);
        const locale = pick(rng, ["", "?locale=de", "?locale=zz", "?x=1"]);
        check(
          `update ${JSON.stringify(body)}`,
          (await req("PATCH", `/collections/posts/${post.UUID}${locale}`, {
            json: body,
          })).status,
        );
      }
    }
    assert.deepEqual(failures, []);
    assert.ok(runs > 50, `only ${runs} requests ran`);
  },
);
