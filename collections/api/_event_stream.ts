// One Server-Sent Events connection (see events_route.ts): its subscriptions (one per
// collection it follows) take part in the app's fan-out (_fanout.ts), which sends each
// change once judged for their group; the connection replays after Last-Event-ID, writes
// heartbeats, re-checks the session and the grant, and drops a client too slow to read.
import { AsyncLocalStorage } from "node:async_hooks";
import type { StrataEvent } from "../../router/event.ts";
import { HTTPError } from "../../router/errors.ts";
import { changeBounds, readChanges } from "../changes/log.ts";
import { kyselyOf } from "../database.ts";
import type { ApiHost } from "./host.ts";
import { fanoutOf, subjectOf, type SubscriberStream } from "./_fanout.ts";
import { readNow, type ReadShape, type Subscription } from "./_subscription.ts";

/** The hook a layer registers to say whether a stream's caller is still signed in. */
export const STREAM_ALIVE_HOOK = "collections:streamAlive";

/**
 * The hook a layer registers to name the record whose change may change a stream caller's
 * grant (its user); such a change makes the stream check its session and grant again before
 * the next event.
 */
export const STREAM_SUBJECT_HOOK = "collections:streamSubject";

/**
 * Decides whether the caller of a stream's request may keep it open (session re-check); it
 * may refresh what the request knows of its caller (roles), which the grant is decided on.
 */
export type StreamAliveCheck = (
  event: StrataEvent,
) => boolean | Promise<boolean>;

/** Names the record (collection name, UUID) a stream's caller's grant depends on, or null. */
export type StreamSubject = (
  event: StrataEvent,
) => { collection: string; uuid: string } | null;

/** How often a stream writes a heartbeat and re-checks its session, in ms. */
export interface StreamTimings {
  /** A comment line keeps proxies from closing an idle stream. */
  readonly heartbeat: number;
  /** The session and grant re-check. */
  readonly recheck: number;
}

const DEFAULT_TIMINGS: StreamTimings = { heartbeat: 15_000, recheck: 1_000 };
const timings = new WeakMap<ApiHost, StreamTimings>();

/**
 * Changes the stream timings of `host` (internal: the tests shorten the heartbeat).
 *
 * @example
 * ```ts ignore
 * setStreamTimings(app, { heartbeat: 50 });
 * ```
 */
export function setStreamTimings(
  host: ApiHost,
  changed: Partial<StreamTimings>,
): void {
  timings.set(host, { ...timingsOf(host), ...changed });
}

function timingsOf(host: ApiHost): StreamTimings {
  return timings.get(host) ?? DEFAULT_TIMINGS;
}

const encoder = new TextEncoder();

/** One connection (see the module comment). */
export class EventStream implements SubscriberStream {
  readonly readable: ReadableStream<Uint8Array>;
  readonly subject: string | null;
  readonly #event: StrataEvent;
  readonly #host: ApiHost;
  readonly #subscriptions: Subscription[] = [];
  readonly #resumeFrom: number | null;
  readonly #maxBuffered: number;
  readonly #release: () => void;
  readonly #inRequest: <R>(fn: () => R) => R;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  /** Events sent while the replay runs, written after it. */
  #held: Uint8Array[] | null = [];
  #timers: ReturnType<typeof setInterval>[] = [];
  #rechecking: Promise<void> | null = null;
  #closed = false;

  constructor(
    event: StrataEvent,
    host: ApiHost,
    resumeFrom: number | null,
    maxBuffered: number,
    release: () => void,
  ) {
    this.#event = event;
    this.#host = host;
    this.#resumeFrom = resumeFrom;
    this.#maxBuffered = maxBuffered;
    this.#release = release;
    this.#inRequest = AsyncLocalStorage.snapshot();
    let subject: string | null = null;
    for (const name of host.hooks(STREAM_SUBJECT_HOOK)) {
      const found = (name as StreamSubject)(event);
      if (found) subject = subjectOf(found);
    }
    this.subject = subject;
    this.readable = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => this.close(),
    }, { highWaterMark: 0 });
  }

  /** Adds a subscription (before {@link EventStream.open}). */
  add(subscription: Subscription): void {
    this.#subscriptions.push(subscription);
  }

  /** The sender of a subscription's events (encoded, shared by a group's members). */
  readonly send = (event: Uint8Array): void => {
    if (this.#held) {
      this.#held.push(event);
      if (this.#held.length > this.#maxBuffered) this.#overflow();
      return;
    }
    this.#write(event);
    // What the client has not read yet is buffered: past the limit it must re-read.
    if (-(this.#controller.desiredSize ?? 0) > this.#maxBuffered) {
      this.#overflow();
    }
  };

  run<R>(fn: () => R): R {
    return this.#inRequest(fn);
  }

  /** Joins the fan-out, replays after Last-Event-ID, goes live. */
  async open(): Promise<void> {
    const fanout = fanoutOf(this.#host);
    await fanout.start();
    try {
      // Joined first: a change committed meanwhile is held, not lost.
      const position = await fanout.join(this.#subscriptions, this);
      this.#write("retry: 2000\n\n");
      if (this.#resumeFrom !== null) {
        await this.#replay(this.#resumeFrom, position);
      }
    } catch (error) {
      this.close();
      throw error;
    }
    const held = this.#held ?? [];
    this.#held = null;
    for (const text of held) this.#write(text);
    // Closed meanwhile (too slow already, the client gone): no timers to leave behind.
    if (this.#closed) return;
    const { heartbeat, recheck } = timingsOf(this.#host);
    this.#timers.push(
      setInterval(() => this.#write(": heartbeat\n\n"), heartbeat),
      setInterval(() => this.#recheck(), recheck),
    );
  }

  /** Ends the stream (client gone, session ended, too slow, or the app closing). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const timer of this.#timers) clearInterval(timer);
    const fanout = fanoutOf(this.#host);
    for (const subscription of this.#subscriptions) {
      fanout.leave(subscription).catch(() => {});
    }
    this.#release();
    try {
      this.#controller.close();
    } catch { /* already closed or cancelled */ }
  }

  fail(id: number): void {
    this.#reset(id);
    this.close();
  }

  #write(text: string | Uint8Array): void {
    if (this.#closed) return;
    try {
      this.#controller.enqueue(
        typeof text === "string" ? encoder.encode(text) : text,
      );
    } catch {
      this.close();
    }
  }

  #reset(id: number | null): void {
    this.#write(`${id ? `id: ${id}\n` : ""}event: reset\ndata: {}\n\n`);
  }

  /** The client does not take its events: tell it to re-read, and close. */
  #overflow(): void {
    this.#held = null;
    this.#reset(null);
    this.close();
  }

  /**
   * The changes after `after` up to `until`, as far as the subscriber may see them; an id the
   * log no longer covers, or a change the subscriber cannot judge any more, sends `reset`.
   */
  async #replay(after: number, until: number): Promise<void> {
    const db = kyselyOf(this.#host.data.db);
    const { oldest, newest } = await changeBounds(db);
    if (after > (newest ?? 0) || (oldest !== null && after < oldest - 1)) {
      return this.#reset(until);
    }
    const byName = new Map(
      this.#subscriptions.map((s) => [s.collection, s]),
    );
    let position = after;
    let reset = false;
    while (position < until && !this.#closed) {
      const batch = await readChanges(db, position, 500, until);
      for (const change of batch) {
        position = change.seq;
        const subscription = byName.get(change.collection);
        if (!subscription) continue;
        // A delete, or a record it does not see now: it can no longer be judged.
        const record = change.op === "delete"
          ? null
          : await readNow(subscription.shape, change.uuid);
        if (!record) {
          reset = true;
          continue;
        }
        this.#write(
          `id: ${change.seq}\nevent: ${subscription.prefix}${change.op}\ndata: ${
            JSON.stringify(record)
          }\n\n`,
        );
      }
      if (batch.length < 500) break;
    }
    if (reset) this.#reset(until);
  }

  async decideAgain(): Promise<(readonly [Subscription, ReadShape])[] | null> {
    if (this.#closed) return null;
    const checks = this.#host.hooks(STREAM_ALIVE_HOOK) as StreamAliveCheck[];
    for (const check of checks) {
      let alive: boolean;
      try {
        alive = await this.#inRequest(() => check(this.#event));
      } catch {
        return []; // the database is away: keep the stream, check again next time
      }
      if (!alive) {
        this.close();
        return null;
      }
    }
    const decided: (readonly [Subscription, ReadShape])[] = [];
    for (const subscription of this.#subscriptions) {
      try {
        decided.push([
          subscription,
          await this.#inRequest(() => subscription.redecide(this.#event)),
        ]);
      } catch (error) {
        if (!(error instanceof HTTPError)) return []; // not a refusal: check again later
        // Refused now (role or scope changed): the stream ends; a reconnect is answered
        // as the list read would be.
        this.close();
        return null;
      }
    }
    return this.#closed ? null : decided;
  }

  /** The periodic re-check: the session, then the grant (scopes may read other records). */
  #recheck(): void {
    if (this.#rechecking || this.#closed) return;
    this.#rechecking = (async () => {
      const decided = await this.decideAgain();
      const fanout = fanoutOf(this.#host);
      for (const [subscription, shape] of decided ?? []) {
        if (shape.key !== subscription.shape.key) {
          await fanout.reshape(subscription, shape);
        }
      }
    })().catch((error) => {
      console.error("An event stream re-check failed:", error);
    }).finally(() => {
      this.#rechecking = null;
    });
  }
}
