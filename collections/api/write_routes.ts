/**
 * The write routes of the collections API: create, update, delete, translation copy and
 * translation delete.
 *
 * @module
 */
import { notFound, unprocessableContent } from "../../router/errors.ts";
import type { StrataEvent } from "../../router/event.ts";
import type { RequestEvent } from "../../router/request_event.ts";
import { type DataRecord, errorCodes } from "../results.ts";
import {
  assertNoParams,
  parseLocaleParam,
  parseWriteParams,
  type WriteParams,
} from "../wire/parse.ts";
import { wireError } from "../wire/errors.ts";
import { ApiRequest, bodyObject, type DeferredBody } from "./request.ts";
import type { Grant } from "./policy.ts";
import { applySelectScopes, narrowTranslations } from "./respond.ts";
import { thenMaybe } from "../../utils/_maybe_promise.ts";

function refused(errors: Record<string, string>): never {
  throw unprocessableContent(undefined, { errors, codes: errorCodes(errors) });
}

/**
 * Loads the read policies of the collections an input links to (writing a link needs reading
 * its target); nothing to wait for when the collection has no link field.
 */
function loadLinkTargets(
  request: ApiRequest,
  grant: Grant,
  input: Record<string, unknown>,
): Promise<void> | undefined {
  if (grant.collection.resolved.relationFields.length === 0) return undefined;
  const targets = new Set<string>();
  for (const key of Object.keys(input)) {
    const target = grant.collection.resolved.fields.get(key)?.target;
    if (target) targets.add(target);
  }
  return request.loadTargets({ ...grant, operation: "update" }, targets);
}

/** The record a write answers: scoped fields only, `_translations` narrowed to the scope. */
function answerRecord(
  request: ApiRequest,
  grant: Grant,
  record: DataRecord,
): DataRecord | Promise<DataRecord> {
  return thenMaybe(narrowTranslations(request, grant, [record]), () => {
    applySelectScopes(request, grant, [record], []);
    return record;
  });
}

const NO_PARAMS: WriteParams = Object.freeze({});

/** The write's query params; none to parse when the request has no query string. */
function writeParams(request: ApiRequest, grant: Grant): WriteParams {
  const event = request.event;
  return (event as Partial<RequestEvent>).search === ""
    ? NO_PARAMS
    : parseWriteParams(event.query, request.wireContext(grant));
}

/**
 * `POST /collections/<name>`: 201 and the stored record.
 *
 * @example
 * ```ts ignore
 * defineHandler(createRecord, { maxBodySize: false });
 * ```
 */
export async function createRecord(event: StrataEvent): Promise<unknown> {
  const request = new ApiRequest(event);
  const body = await request.deferredBody();
  return await request.settleUploads(body, () => create(request, body));
}

async function create(
  request: ApiRequest,
  body: DeferredBody,
): Promise<unknown> {
  const event = request.event;
  const grant = await request.authorize("create", body.input);
  if ("answer" in grant) return grant.answer;
  const params = writeParams(request, grant);
  const input = bodyObject(body);
  const loading = loadLinkTargets(request, grant, input);
  if (loading) await loading;
  let builder = request.query(grant);
  if (params.locale) builder = builder.locale(params.locale);
  const result = await builder.create(input);
  if (!result.ok) refused(result.errors);
  event.status = 201;
  return answerRecord(request, grant, result.record);
}

/**
 * `PATCH /collections/<name>/[uuid]`: the record in its final state (scoped fields only).
 *
 * @example
 * ```ts ignore
 * defineHandler(updateRecord, { maxBodySize: false });
 * ```
 */
export async function updateRecord(event: StrataEvent): Promise<unknown> {
  const request = new ApiRequest(event);
  const body = await request.deferredBody();
  return await request.settleUploads(body, () => update(request, body));
}

async function update(
  request: ApiRequest,
  body: DeferredBody,
): Promise<unknown> {
  const grant = await request.authorize("update", body.input);
  if ("answer" in grant) return grant.answer;
  const params = writeParams(request, grant);
  const input = bodyObject(body);
  const byPath = request.recordWhere();
  await loadLinkTargets(request, grant, input);
  let builder = request.query(grant).where(byPath);
  if (params.locale) builder = builder.locale(params.locale);
  const result = await builder.update(input, { writable: grant.scope.select });
  if (!result.ok) refused(result.errors);
  if (result.records.length === 0) throw notFound();
  return answerRecord(request, grant, result.records[0]);
}

/**
 * `DELETE /collections/<name>/[uuid]`: 204; 409 when a `restrict` reference blocks it.
 *
 * @example
 * ```ts ignore
 * defineHandler(deleteRecord);
 * ```
 */
export async function deleteRecord(event: StrataEvent): Promise<unknown> {
  const request = new ApiRequest(event);
  const grant = await request.authorize("delete");
  if ("answer" in grant) return grant.answer;
  assertNoParams(event.query);
  const byPath = request.recordWhere();
  const result = await request.query(grant).where(byPath).delete();
  if (result.records.length === 0) throw notFound();
  return null;
}

function targetLocale(
  request: ApiRequest,
  grant: Grant,
  query: URLSearchParams,
): string {
  for (const key of query.keys()) {
    if (key !== "locale") throw wireError("unknownParam", key);
  }
  if (query.getAll("locale").length > 1) {
    throw wireError("invalidShape", "locale");
  }
  const locale = parseLocaleParam(
    query.get("locale"),
    request.wireContext(grant),
  );
  if (!locale) throw wireError("invalidLocale", "locale");
  return locale;
}

function sourceLocale(
  request: ApiRequest,
  grant: Grant,
  input: unknown,
): string {
  if (input === undefined) return request.registry.defaultLocale;
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw wireError("invalidShape", "");
  }
  for (const key of Object.keys(input)) {
    if (key !== "source") throw wireError("unknownParam", key);
  }
  const source = (input as { source?: unknown }).source;
  if (source === undefined) return request.registry.defaultLocale;
  if (typeof source !== "string") throw wireError("invalidLocale", "source");
  return parseLocaleParam(source, request.wireContext(grant), "source") ??
    request.registry.defaultLocale;
}

/**
 * `POST /collections/<name>/[uuid]/translations/copy?locale=<target>` with an optional body
 * `{ "source": "<locale>" }` (default: the default locale): copies the source locale's
 * translatable values onto the target and answers the target's new state. The update access
 * runs twice: with an empty input to reach the source, then with the values to write.
 *
 * @example
 * ```ts ignore
 * defineHandler(copyTranslation, { maxBodySize: false });
 * ```
 */
export async function copyTranslation(event: StrataEvent): Promise<unknown> {
  const request = new ApiRequest(event);
  request.requireTranslatable();
  const body = await request.deferredBody(true);
  const reach = await request.authorize("update", {});
  if ("answer" in reach) return reach.answer;
  const target = targetLocale(request, reach, event.query);
  if (body.error !== undefined) throw body.error;
  const source = sourceLocale(request, reach, body.input);
  if (source === target) throw wireError("sameLocale", "locale");
  const byPath = request.recordWhere();
  const record = await request.query(reach).where(byPath).locale(source)
    .findFirst();
  if (!record) throw notFound();
  await narrowTranslations(request, reach, [record]);
  if (!(record._translations as string[] | undefined)?.includes(source)) {
    throw notFound();
  }
  const values: Record<string, unknown> = {};
  for (const field of reach.collection.resolved.translatedFields) {
    if (
      field.readable && field.writable && !field.immutable &&
      field.name in record
    ) {
      values[field.name] = record[field.name];
    }
  }
  const write = await request.authorize("update", values, false);
  if ("answer" in write) return write.answer;
  const allowed = write.scope.select;
  const input = allowed
    ? Object.fromEntries(
      Object.entries(values).filter(([key]) => allowed.has(key)),
    )
    : values;
  const result = await request.query(write).where(byPath).locale(target)
    .update(input, { writable: allowed });
  if (!result.ok) refused(result.errors);
  if (result.records.length === 0) throw notFound();
  return answerRecord(request, write, result.records[0]);
}

/**
 * `DELETE /collections/<name>/[uuid]/translations?locale=<locale>`: 204; 404 when the record
 * held nothing at that locale.
 *
 * @example
 * ```ts ignore
 * defineHandler(deleteTranslation);
 * ```
 */
export async function deleteTranslation(event: StrataEvent): Promise<unknown> {
  const request = new ApiRequest(event);
  request.requireTranslatable();
  const grant = await request.authorize("delete");
  if ("answer" in grant) return grant.answer;
  const locale = targetLocale(request, grant, event.query);
  const byPath = request.recordWhere();
  const deleted = await request.query(grant).where(byPath)
    .deleteTranslation(locale);
  if (!deleted) throw notFound();
  return null;
}
