/**
 * `GET /collections/<name>/events`: committed changes of a collection as Server-Sent Events,
 * filtered and shaped for the subscriber exactly as its reads would be.
 *
 * The request goes through the list read's checks in the list read's order (exposure, guard,
 * operation middleware, access scope); a refused caller gets the list's answer and no stream.
 * The stream then holds the set of records the subscriber can see (its `where` under its
 * scope): a change to one of them is re-read as a by-UUID read by this subscriber would be
 * (scope, select, populate, locale), an update that moves a record into that set is sent as
 * `create`, out of it as `delete`, and a delete only when the record was in it. Under a scope
 * whose `select` leaves out `UUID`, deletes and moves-out are not sent.
 *
 * @module
 */
import { HTTPError } from "../../router/errors.ts";
import type { StrataEvent } from "../../router/event.ts";
import { wireError } from "../wire/errors.ts";
import { hostOf } from "./host.ts";
import type { ApiHost } from "./host.ts";
import { EventStream } from "./_event_stream.ts";
import {
  decideShape,
  type ReadShape,
  Subscription,
  unsharedKey,
} from "./_subscription.ts";

export {
  setStreamTimings,
  STREAM_ALIVE_HOOK,
  STREAM_SUBJECT_HOOK,
  type StreamAliveCheck,
  type StreamSubject,
  type StreamTimings,
} from "./_event_stream.ts";

/** The only params of a collection's stream. */
const PARAMS = new Set(["where", "select", "populate", "locale"]);
/** Most collections one multiplexed stream follows. */
const MAX_MULTIPLEXED = 20;

/** The stream settings of the `events` config. */
export interface StreamLimits {
  /** Streams per user (anonymous: per client address), per process. */
  readonly maxStreamsPerUser: number;
  /** Streams per process. */
  readonly maxStreams: number;
  /** Events waiting for a slow client before it gets `reset` and is closed. */
  readonly maxBuffered: number;
}

const DEFAULT_LIMITS: StreamLimits = {
  maxStreamsPerUser: 10,
  maxStreams: 10_000,
  maxBuffered: 1_000,
};

interface Counts {
  total: number;
  readonly byKey: Map<string, number>;
}

const counts = new WeakMap<ApiHost, Counts>();

function limitsOf(host: ApiHost): StreamLimits {
  const events = (host.config as { events?: Partial<StreamLimits> }).events;
  return { ...DEFAULT_LIMITS, ...events };
}

/** The acting user's UUID (the `record:actor` hook), or `null`. */
function userKey(host: ApiHost): string | null {
  for (const resolve of host.hooks("record:actor")) {
    const user = (resolve as () => { UUID?: unknown } | null)();
    if (user && typeof user.UUID === "string") return user.UUID;
  }
  return null;
}

/** Takes a stream slot for `key`; throws the 429 / 503 when over a limit. */
function takeSlot(host: ApiHost, key: string): () => void {
  const limits = limitsOf(host);
  let c = counts.get(host);
  if (!c) counts.set(host, c = { total: 0, byKey: new Map() });
  const mine = c.byKey.get(key) ?? 0;
  if (mine >= limits.maxStreamsPerUser) {
    throw new HTTPError(429, "Too many open event streams", {
      headers: { "retry-after": "10" },
    });
  }
  if (c.total >= limits.maxStreams) {
    throw new HTTPError(503, "Too many open event streams on this server", {
      headers: { "retry-after": "10" },
    });
  }
  c.total++;
  c.byKey.set(key, mine + 1);
  let released = false;
  const counted = c;
  return () => {
    if (released) return;
    released = true;
    counted.total--;
    const left = (counted.byKey.get(key) ?? 1) - 1;
    if (left === 0) counted.byKey.delete(key);
    else counted.byKey.set(key, left);
  };
}

function lastEventId(event: StrataEvent): number | null {
  const header = event.request.headers.get("last-event-id");
  if (header === null || !/^\d{1,15}$/.test(header.trim())) return null;
  return Number(header.trim());
}

/** One collection to follow: its API path, event name prefix and stream params. */
interface Followed {
  readonly path: string;
  readonly prefix: string;
  readonly query: URLSearchParams;
}

/**
 * Decides each followed collection as its list read would (the first refusal answers), then
 * opens the stream once a slot is taken (429 / 503 over a limit).
 */
async function openStream(
  event: StrataEvent,
  followed: readonly Followed[],
): Promise<unknown> {
  const host = hostOf(event);
  const decided: [Followed, ReadShape][] = [];
  for (const follow of followed) {
    const shape = await decideShape(event, follow.path, follow.query, {
      runMiddleware: true,
      unsharedKey: unsharedKey(),
      params: PARAMS,
    });
    if ("answer" in shape) return shape.answer;
    decided.push([follow, shape]);
  }
  const release = takeSlot(host, userKey(host) ?? `ip:${event.ip}`);
  try {
    const stream = new EventStream(
      event,
      host,
      lastEventId(event),
      limitsOf(host).maxBuffered,
      release,
    );
    for (const [follow, shape] of decided) {
      stream.add(
        new Subscription(
          follow.path,
          follow.prefix,
          follow.query,
          shape,
          stream.send,
        ),
      );
    }
    await stream.open();
    return new Response(stream.readable, {
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        "x-accel-buffering": "no",
      },
    });
  } catch (error) {
    release();
    throw error;
  }
}

/**
 * `GET /collections/<name>/events` (see the module documentation).
 *
 * @example
 * ```ts ignore
 * defineHandler(streamEvents);
 * ```
 */
export async function streamEvents(event: StrataEvent): Promise<unknown> {
  return await openStream(event, [{
    path: event.params.collection,
    prefix: "",
    query: event.query,
  }]);
}

/**
 * `GET /events?collections=posts,comments`: several collections over one connection (event
 * names `posts.create` …). Each goes through its list read's checks in list order; the first
 * refusal answers the whole request, as that list read would.
 *
 * @example
 * ```ts ignore
 * defineHandler(streamManyEvents);
 * ```
 */
export async function streamManyEvents(event: StrataEvent): Promise<unknown> {
  for (const [name] of event.query) {
    if (name !== "collections") throw wireError("unknownParam", name);
  }
  const names = [
    ...new Set(
      (event.query.get("collections") ?? "").split(",").map((n) => n.trim())
        .filter((n) => n !== ""),
    ),
  ];
  if (names.length === 0) {
    throw new HTTPError(400, "collections names the collections to follow");
  }
  if (names.length > MAX_MULTIPLEXED) {
    throw new HTTPError(
      400,
      `collections names more than ${MAX_MULTIPLEXED} collections`,
    );
  }
  return await openStream(
    event,
    names.map((name) => ({
      path: name,
      prefix: `${name}.`,
      query: new URLSearchParams(),
    })),
  );
}
