/**
 * `GET /search?q=…&collections=posts,docs&limit=5&locale=`: one full-text search across
 * collections, answering `{ "posts": [records…], "docs": [...] }`. Each collection answers
 * in relevance order, at most `limit` records (default 5, at most 50), as the caller's list
 * read of it would: its exposure, guard, middleware and scope decide. Without `collections`
 * every searchable collection the caller may list answers. A named collection that is
 * unknown or not readable by the caller is 400 `invalidField` at `collections[i]`, one answer
 * for both, so existence is not revealed.
 *
 * @module
 */
import { HTTPError } from "../../router/errors.ts";
import type { StrataEvent } from "../../router/event.ts";
import type { DataRecord } from "../results.ts";
import { isWireError, wireError } from "../wire/errors.ts";
import { parseListQuery } from "../wire/parse.ts";
import { checkLocale } from "../wire/locale.ts";
import { parseSearchParam } from "../wire/_search.ts";
import type { WireCollection } from "../wire/types.ts";
import { FieldResolver } from "../wire/_fields.ts";
import { ApiRequest } from "./request.ts";
import type { ApiCollection } from "./registry.ts";
import { planUnderPolicies, runList } from "./read_routes.ts";

const PARAMS = new Set(["q", "collections", "limit", "locale"]);

/** Records per collection when `limit` is not given. */
const DEFAULT_LIMIT = 5;

/** The most records per collection. */
const MAX_LIMIT = 50;

/** The most collections one search names. */
const MAX_COLLECTIONS = 50;

/** Whether `collection` has a field `search=` could match for someone. */
function searchable(collection: ApiCollection): boolean {
  return collection.resolved.searchFields.length > 0;
}

function parseLimit(text: string | null): number {
  if (text === null) return DEFAULT_LIMIT;
  if (!/^\d{1,9}$/.test(text)) throw wireError("invalidNumber", "limit");
  return Math.min(Number(text), MAX_LIMIT);
}

function parseNames(text: string | null): string[] | null {
  if (text === null) return null;
  const names = text.split(",").map((name) => name.trim());
  if (names.length > MAX_COLLECTIONS) {
    throw wireError("listTooLong", "collections");
  }
  names.forEach((name, i) => {
    if (name === "") throw wireError("invalidField", `collections[${i}]`);
  });
  return names;
}

/** The records `collection` answers, or `null` when the caller may not list it. */
async function searchOne(
  event: StrataEvent,
  path: string,
  q: string,
  limit: number,
  locale: string | null,
): Promise<DataRecord[] | null> {
  const params = event.params;
  event.params = { ...params, collection: path };
  try {
    const request = new ApiRequest(event);
    let grant;
    try {
      grant = await request.authorize("read");
    } catch (error) {
      if (
        error instanceof HTTPError && [401, 403, 404].includes(error.status)
      ) {
        return null;
      }
      throw error;
    }
    if ("answer" in grant) return null;
    const input = new URLSearchParams({ search: q, limit: String(limit) });
    if (locale !== null && grant.collection.translatable) {
      input.set("locale", locale);
    }
    const plan = await planUnderPolicies(
      request,
      grant,
      (ctx) => parseListQuery(input, ctx),
    );
    return await runList(request, grant, plan) as DataRecord[];
  } finally {
    event.params = params;
  }
}

/**
 * `GET /search` (see the module documentation).
 *
 * @example
 * ```ts ignore
 * defineHandler(searchCollections);
 * ```
 */
export async function searchCollections(event: StrataEvent): Promise<unknown> {
  for (const [name] of event.query) {
    if (!PARAMS.has(name)) throw wireError("unknownParam", name);
    if (event.query.getAll(name).length > 1) {
      throw wireError("invalidShape", name, "Parameter given more than once");
    }
  }
  const request = new ApiRequest(event);
  const { registry } = request;
  const q = event.query.get("q");
  if (q === null) {
    throw wireError("invalidValue", "q", "q names the words to look for");
  }
  // The syntax and size of q, checked once against a stand-in that can be searched.
  const probe: WireCollection = {
    name: "",
    fields: {
      q: {
        kind: "text",
        nullable: false,
        readable: true,
        translatable: false,
        search: true,
      },
    },
  };
  const probeContext = {
    collection: probe,
    collectionByName: () => undefined,
    guards: registry.guards,
    locales: registry.locales,
  };
  try {
    parseSearchParam(
      q,
      probe,
      new FieldResolver(probeContext),
      registry.guards,
    );
  } catch (error) {
    if (isWireError(error)) {
      throw wireError(error.data!.code as "invalidValue", "q", error.message);
    }
    throw error;
  }
  const limit = parseLimit(event.query.get("limit"));
  const localeText = event.query.get("locale");
  const locale = localeText === null || localeText === ""
    ? null
    : checkLocale(localeText, {
      ...probeContext,
      collection: {
        name: "",
        fields: { t: { ...probe.fields.q, translatable: true } },
      },
    }, "locale");
  const names = parseNames(event.query.get("collections"));
  const answer: Record<string, DataRecord[]> = {};
  if (names === null) {
    for (const collection of registry.byPath.values()) {
      if (!searchable(collection) || !collection.exposure.read) continue;
      try {
        const records = await searchOne(
          event,
          collection.path,
          q,
          limit,
          locale,
        );
        if (records) answer[collection.path] = records;
      } catch (error) {
        // Nothing the caller may read there is searchable (a scope's select hides it).
        if (isWireError(error) && error.data!.code === "searchNotAvailable") {
          continue;
        }
        throw error;
      }
    }
    return answer;
  }
  for (const [i, name] of names.entries()) {
    if (Object.hasOwn(answer, name)) continue;
    const collection = registry.byPath.get(name);
    const at = `collections[${i}]`;
    if (!collection) throw wireError("invalidField", at);
    let records: DataRecord[] | null;
    try {
      records = await searchOne(event, name, q, limit, locale);
    } catch (error) {
      if (isWireError(error) && error.data!.code === "searchNotAvailable") {
        throw wireError("searchNotAvailable", at);
      }
      throw error;
    }
    if (records === null) throw wireError("invalidField", at);
    answer[name] = records;
  }
  return answer;
}
