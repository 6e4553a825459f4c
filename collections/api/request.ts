/**
 * One collections API request: the collection it addresses, the caller's grant, and the
 * scoped query builders the operations run on.
 *
 * @module
 */
import { badRequest, notFound } from "../../router/errors.ts";
import type { StrataEvent } from "../../router/event.ts";
import type { RequestEvent } from "../../router/request_event.ts";
import type { QueryBuilder } from "../query_builder.ts";
import type { ReadPolicy } from "../read_policy.ts";
import type { WhereFilter } from "../where.ts";
import type { WireCollection, WireContext } from "../wire/types.ts";
import { isUuid, normalizeUuid } from "../types/_checks.ts";
import { type ApiHost, hostOf } from "./host.ts";
import { withUploads } from "../files/attach.ts";
import { type MaybePromise, thenMaybe } from "../../utils/_maybe_promise.ts";
import {
  type ApiCollection,
  type ApiRegistry,
  apiRegistry,
} from "./registry.ts";
import type { ApiOperation } from "./exposure.ts";
import {
  decideOperation,
  type Grant,
  scopedReadPolicy,
  type TargetPolicy,
  targetReadPolicy,
} from "./policy.ts";

/** A request's body, read before the access verdict but judged only after it. */
export interface DeferredBody {
  /** The parsed body, or `undefined` when it could not be read. */
  readonly input: unknown;
  /** Why it could not be read (thrown once the caller is authorised). */
  readonly error?: unknown;
  /** Files a multipart body stored (see {@link ApiRequest.settleUploads}). */
  readonly uploads?: ReadonlySet<string>;
}

/** A collections API request, from its route params. */
export class ApiRequest {
  readonly event: StrataEvent;
  readonly host: ApiHost;
  readonly registry: ApiRegistry;
  readonly collection: ApiCollection | undefined;
  #targets = new Map<string, TargetPolicy>();

  /** `path`: the collection's API path, when not the route's `[collection]` param. */
  constructor(event: StrataEvent, path: string = event.params.collection) {
    this.event = event;
    this.host = hostOf(event);
    this.registry = apiRegistry(this.host);
    this.collection = this.registry.byPath.get(path);
  }

  /**
   * The `where` selecting the record the path's `[uuid]` names; anything but a UUID is the
   * 404 of a missing record. Called after the access verdict, so a refused caller learns
   * nothing from the path.
   */
  recordWhere(): WhereFilter {
    const uuid = normalizeUuid(this.event.params.uuid);
    if (!isUuid(uuid)) throw notFound();
    return { UUID: uuid };
  }

  /** The collection, known to be translatable; otherwise the 404 of an unknown collection. */
  requireTranslatable(): void {
    if (!this.collection?.translatable) throw notFound();
  }

  /**
   * Reads the JSON body under the server-wide size limit without judging it yet: the access
   * verdict comes first, so a refused caller learns nothing from what it sent.
   */
  async deferredBody(optional = false): Promise<DeferredBody> {
    const event = this.event as RequestEvent;
    event.maxBodySize = this.host.config.api.maxBodySize;
    const files = this.host.files;
    if (!optional && files && this.collection && isMultipart(event.request)) {
      try {
        const write = await files.readWrite(
          event.request,
          this.collection.resolved,
          this.host.config.api.maxBodySize,
        );
        return {
          input: write.input,
          error: write.error,
          uploads: write.uploads,
        };
      } catch (error) {
        return { input: undefined, error };
      }
    }
    try {
      if (optional) {
        // Over a socket an empty POST still has a zero-length body stream: judge the bytes.
        const bytes = await event.bufferBody();
        if (bytes === null || bytes.byteLength === 0) {
          return { input: undefined };
        }
      }
      return { input: await event.body() };
    } catch (error) {
      return { input: undefined, error };
    }
  }

  /**
   * Runs a write with the files its multipart body stored attachable, and deletes those it
   * did not attach (a refused, failed or rejected write leaves no file behind).
   */
  settleUploads<T>(body: DeferredBody, fn: () => Promise<T>): Promise<T> {
    const uploads = body.uploads;
    if (!uploads || uploads.size === 0) return fn();
    return this.#settle(uploads, fn);
  }

  async #settle<T>(
    uploads: ReadonlySet<string>,
    fn: () => Promise<T>,
  ): Promise<T> {
    try {
      return await withUploads(uploads, fn);
    } finally {
      await this.host.files?.discard(uploads);
    }
  }

  /**
   * Authorises `operation`; a middleware's answer comes back as `{ answer }`. Answered at
   * once when nothing has to be waited for (see `decideOperation`).
   */
  authorize(
    operation: ApiOperation,
    input?: unknown,
    runMiddleware = true,
  ): MaybePromise<Grant | { answer: unknown }> {
    return thenMaybe(
      decideOperation(this.host, this.collection, operation, {
        input,
        runMiddleware,
        event: this.event,
      }),
      (outcome) => outcome.granted ? outcome.grant : { answer: outcome.answer },
    );
  }

  /** Evaluates the read policies of every collection a query reaches (besides its own). */
  async loadTargets(grant: Grant, names: Iterable<string>): Promise<void> {
    for (const name of names) {
      if (this.#targets.has(name)) continue;
      this.#targets.set(
        name,
        name === grant.collection.name && grant.operation === "read"
          ? grant.scope
          : await targetReadPolicy(this.host, this.event, name),
      );
    }
  }

  /** The read policies of the collections loaded by {@link ApiRequest.loadTargets}. */
  get targets(): ReadonlyMap<string, TargetPolicy> {
    return this.#targets;
  }

  /** The fields a caller may reach in `name` under `scope` for the root and loaded targets. */
  wireContext(grant: Grant): WireContext {
    const policy = this.readPolicy(grant);
    return {
      collection: grant.collection.wire,
      collectionByName: (name: string): WireCollection | undefined =>
        this.registry.byName.get(name)?.wire,
      reachable: (name: string) => {
        const rule = policy(name);
        if (rule === undefined) return undefined;
        if (rule === false) return new Set<string>();
        return rule.select;
      },
      guards: this.registry.guards,
      locales: this.registry.locales,
    };
  }

  /** The read policy the data layer applies to every collection a query touches. */
  readPolicy(grant: Grant): ReadPolicy {
    return scopedReadPolicy(grant.collection.name, grant.scope, this.#targets);
  }

  /** A builder on the request's collection under `grant`'s policy. */
  query(grant: Grant): QueryBuilder {
    return this.host.data.query(grant.collection.name).withPolicy(
      this.readPolicy(grant),
    );
  }

  /** A trusted builder (no policy), for checks the policy itself needs. */
  trustedQuery(name: string): QueryBuilder {
    return this.host.data.query(name);
  }
}

/** Whether the request's body is multipart. */
function isMultipart(request: Request): boolean {
  return request.headers.get("content-type")?.toLowerCase().trimStart()
    .startsWith("multipart/") ?? false;
}

/**
 * Throws the body's read error, or a 400 when the body is not a JSON object.
 *
 * @example
 * ```ts ignore
 * const record = bodyObject(await request.deferredBody());
 * ```
 */
export function bodyObject(body: DeferredBody): Record<string, unknown> {
  if (body.error !== undefined) throw body.error;
  const input = body.input;
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw badRequest("The request body must be a JSON object");
  }
  return input as Record<string, unknown>;
}
