// One collection an event stream follows: how its subscriber reads it (request, grant, plan),
// decided like a list read and decided again when the subscriber's grant may have changed,
// and the key of the group of subscribers who read alike (see _fanout.ts).
import type { StrataEvent } from "../../router/event.ts";
import type { DataRecord } from "../results.ts";
import type { ListPlan } from "../wire/types.ts";
import { parseListQuery } from "../wire/parse.ts";
import { wireError } from "../wire/errors.ts";
import { withQueryTimeout } from "../db/deadline.ts";
import { ApiRequest } from "./request.ts";
import {
  forgetTargetPolicies,
  type Grant,
  resolvePrincipal,
  type Scope,
  type TargetPolicy,
} from "./policy.ts";
import { finishRead, planUnderPolicies, shapeRead } from "./read_routes.ts";

/** How a subscriber reads a collection, and the key of those who read it alike. */
export interface ReadShape {
  readonly request: ApiRequest;
  readonly grant: Grant;
  readonly plan: ListPlan;
  /** Equal for subscribers whose reads answer alike (capabilities, scopes, query). */
  readonly key: string;
  /** The key part used when the principal names no capabilities. */
  readonly unsharedKey: string;
}

let unshared = 0;

/** A key part no other subscriber has. */
export function unsharedKey(): string {
  return `unshared:${++unshared}`;
}

function scopeKey(scope: TargetPolicy | undefined): unknown {
  if (scope === undefined || scope === false) return scope ?? null;
  return [
    scope.where ?? null,
    scope.select ? [...scope.select].sort() : null,
    scope.locale ?? null,
  ];
}

/** Options of {@link decideShape}. */
export interface DecideOptions {
  /** Run the operation's middleware (when the stream opens). */
  readonly runMiddleware: boolean;
  /** The group key part of a principal that names no capabilities (shares with nobody). */
  readonly unsharedKey: string;
  /** The params the stream takes; any other is 400 `unknownParam`, after the access checks. */
  readonly params?: ReadonlySet<string>;
}

/**
 * Decides how the caller of `event` reads the collection at API path `path` with the stream
 * params `query`: the list read's checks in its order (exposure, guard, operation middleware,
 * access scope), then the params under the scopes reached. Answers the shape, or
 * `{ answer }` when a middleware answered; throws the list read's refusal.
 */
export async function decideShape(
  event: StrataEvent,
  path: string,
  query: URLSearchParams,
  options: DecideOptions,
): Promise<ReadShape | { answer: unknown }> {
  const request = new ApiRequest(event, path);
  const grant = await request.authorize(
    "read",
    undefined,
    options.runMiddleware,
  );
  if ("answer" in grant) return grant;
  if (options.params) {
    for (const name of query.keys()) {
      if (!options.params.has(name)) throw wireError("unknownParam", name);
    }
  }
  const plan = await planUnderPolicies(
    request,
    grant,
    (ctx) => parseListQuery(query, ctx),
  );
  const principal = await resolvePrincipal(request.host);
  const targets = [...request.targets].sort(([a], [b]) => a < b ? -1 : 1)
    .map(([name, scope]) => [name, scopeKey(scope)]);
  const key = JSON.stringify([
    principal.key ?? options.unsharedKey,
    grant.collection.name,
    scopeKey(grant.scope as Scope),
    targets,
    plan.where ?? null,
    plan.select ?? null,
    plan.populate,
    plan.locale ?? null,
  ]);
  return { request, grant, plan, key, unsharedKey: options.unsharedKey };
}

/** One collection one stream follows. */
export class Subscription {
  /** The collection's API path. */
  readonly path: string;
  /** Prefix of the event names (`posts.` on the multiplexed stream). */
  readonly prefix: string;
  /** The stream's `where`, `select`, `populate`, `locale`. */
  readonly query: URLSearchParams;
  /** Changes up to this seq are not this subscriber's (it came later). */
  after = Infinity;
  shape: ReadShape;
  /** Sends an encoded event to the subscriber. */
  readonly send: (event: Uint8Array) => void;

  constructor(
    path: string,
    prefix: string,
    query: URLSearchParams,
    shape: ReadShape,
    send: (event: Uint8Array) => void,
  ) {
    this.path = path;
    this.prefix = prefix;
    this.query = query;
    this.shape = shape;
    this.send = send;
  }

  /** The collection's name. */
  get collection(): string {
    return this.shape.grant.collection.name;
  }

  /**
   * Decides the shape again (no operation middleware: the stream already passed it), for
   * a grant that may have changed; throws the refusal when the caller may no longer read.
   */
  async redecide(event: StrataEvent): Promise<ReadShape> {
    forgetTargetPolicies(event);
    const shape = await decideShape(event, this.path, this.query, {
      runMiddleware: false,
      unsharedKey: this.shape.unsharedKey,
    });
    if ("answer" in shape) throw new Error("Unreachable: no middleware ran");
    return shape;
  }
}

/**
 * The records of `uuids` as `shape`'s by-UUID reads would answer them now, by UUID (those
 * it does not see are missing): one query for them all.
 */
export async function readMany(
  shape: ReadShape,
  uuids: readonly string[],
): Promise<Map<string, DataRecord>> {
  const found = new Map<string, DataRecord>();
  if (uuids.length === 0) return found;
  const { request, grant, plan } = shape;
  const scopeSelect = grant.scope.select;
  if (scopeSelect && !scopeSelect.has("UUID") && uuids.length > 1) {
    // The scope hides UUID, so records could not be told apart: one read each.
    const each = await Promise.all(
      uuids.map((uuid) => readMany(shape, [uuid])),
    );
    each.forEach((one, i) => {
      const record = one.get(uuids[i]);
      if (record) found.set(uuids[i], record);
    });
    return found;
  }
  let builder = request.query(grant);
  if (plan.where) builder = builder.where(plan.where);
  builder = shapeRead(builder, grant, plan)
    .where({ UUID: uuids.length === 1 ? uuids[0] : { in: [...uuids] } })
    .limit(uuids.length);
  const records = await withQueryTimeout(
    request.host.config.query.timeout,
    () => builder.findMany(),
  );
  const keys = records.map((record) => record.UUID as string | undefined);
  await finishRead(request, grant, records, plan.populate);
  records.forEach((record, i) => found.set(keys[i] ?? uuids[0], record));
  return found;
}

/** The record as `shape`'s by-UUID read would answer it now, or null. */
export async function readNow(
  shape: ReadShape,
  uuid: string,
): Promise<DataRecord | null> {
  return (await readMany(shape, [uuid])).get(uuid) ?? null;
}
