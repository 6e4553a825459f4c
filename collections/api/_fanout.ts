// The fan-out of an app's committed changes to its open event streams. Subscribers who read
// alike (same capabilities, scopes, where, select, populate, locale: one ReadShape key) share
// a group; each change is judged and re-read once per group, and the group's answer is sent
// to every member. Changes are judged in seq order (a batch's reads run together), so a
// stream following several collections receives its events in order; a subscriber whose
// grant may have changed (its user's record changed) is decided again before the next change.
import type { ChangeEvent } from "../changes/log.ts";
import type { ApiHost } from "./host.ts";
import {
  readMany,
  type ReadShape,
  type Subscription,
} from "./_subscription.ts";
import type { DataRecord } from "../results.ts";
import { withQueryTimeout } from "../db/deadline.ts";

const encoder = new TextEncoder();
/** Changes judged in one step at most. */
const MAX_BATCH = 64;

/** Records a group tracks as visible; beyond, moves can no longer be told apart. */
const MAX_TRACKED = 100_000;

/** What a group's subscribers receive for one change. */
interface Outcome {
  readonly op: "create" | "update" | "delete";
  /** The event's data, as JSON. */
  readonly data: string;
}

/** Subscribers who read alike, and the records they see. */
class Group {
  readonly members = new Set<Subscription>();
  /** A member's shape: the group reads with it. */
  shape: ReadShape;
  readonly ready: Promise<void>;
  #visible: Set<string> | null = new Set();

  constructor(shape: ReadShape, run: <R>(fn: () => R) => R) {
    this.shape = shape;
    this.ready = run(() => this.#load());
    this.ready.catch(() => {}); // judged when the group is first used
  }

  /** Whether the scope hides `UUID` (then deletes and moves-out are never sent). */
  get #blind(): boolean {
    const select = this.shape.grant.scope.select;
    return select !== undefined && !select.has("UUID");
  }

  async #load(): Promise<void> {
    const { request, grant, plan } = this.shape;
    let builder = request.query(grant);
    if (plan.where) builder = builder.where(plan.where);
    const rows = await withQueryTimeout(
      request.host.config.query.timeout,
      () => builder.select("UUID").limit(MAX_TRACKED + 1).findMany(),
    );
    this.#visible = rows.length > MAX_TRACKED
      ? null
      : new Set(rows.map((r) => r.UUID as string));
  }

  /**
   * The records `changes` (of this group's collection) are about, as the members read them
   * now, by UUID: one query for them all (a missing one is gone, or not theirs).
   */
  read(changes: readonly ChangeEvent[]): Promise<Map<string, DataRecord>> {
    const uuids = new Set<string>();
    for (const change of changes) {
      if (change.op !== "delete") uuids.add(change.uuid);
    }
    return readMany(this.shape, [...uuids]);
  }

  /**
   * What the members receive for `change`, given its record from {@link Group.read}; judged in
   * seq order, as the set of visible records moves with each change.
   */
  async judge(
    change: ChangeEvent,
    record: DataRecord | null,
  ): Promise<Outcome | null> {
    await this.ready;
    const visible = this.#visible;
    const was = visible?.has(change.uuid) ?? false;
    if (!record) {
      // Deleted, or moved out of the where or scope: a delete for those who saw it.
      if (!was) return null;
      visible?.delete(change.uuid);
      return this.#blind
        ? null
        : { op: "delete", data: JSON.stringify({ UUID: change.uuid }) };
    }
    if (visible && !was && visible.size >= MAX_TRACKED) this.#visible = null;
    this.#visible?.add(change.uuid);
    // A create is one even when the set, loaded after it committed, knew the record.
    // Untracked (too many records): the change's own operation is the best guess.
    const op = change.op === "create" || this.#visible === null
      ? change.op
      : was
      ? "update"
      : "create";
    return { op, data: JSON.stringify(record) };
  }
}

/** The stream a subscription belongs to, as the fan-out needs it. */
export interface SubscriberStream {
  /** The record whose change may change the subscriber's grant (its user), or null. */
  readonly subject: string | null;
  /** Runs `fn` in the stream's request context. */
  run<R>(fn: () => R): R;
  /**
   * Re-reads the session and decides each subscription's shape again; null once the stream
   * closed instead (the session ended, or the caller may no longer read).
   */
  decideAgain(): Promise<(readonly [Subscription, ReadShape])[] | null>;
  /** Tells the client to re-read, and closes. */
  fail(id: number): void;
}

/** The fan-out of one app (see the module comment). */
export class Fanout {
  readonly #host: ApiHost;
  readonly #groups = new Map<string, Group>();
  readonly #byCollection = new Map<string, Set<Group>>();
  readonly #streams = new Map<Subscription, SubscriberStream>();
  /** Subscriptions by their stream's subject (see {@link SubscriberStream.subject}). */
  readonly #subjects = new Map<string, Set<Subscription>>();
  #queue: ChangeEvent[] = [];
  #tail: Promise<void> = Promise.resolve();
  #draining = false;
  #started: Promise<void> | null = null;
  #judged = 0;

  constructor(host: ApiHost) {
    this.#host = host;
  }

  /** How many groups there are, and how many times a group judged a change (tests). */
  get stats(): { groups: number; judged: number } {
    return { groups: this.#groups.size, judged: this.#judged };
  }

  /** Follows the app's change feed (once). */
  start(): Promise<void> {
    this.#started ??= this.#host.data.feed.subscribe((events) => {
      for (const change of events) {
        if (
          this.#byCollection.has(change.collection) ||
          this.#subjects.has(subjectOf(change))
        ) this.#queue.push(change);
      }
      this.#kick();
    }).then(() => {}, (error) => {
      this.#started = null;
      throw error;
    });
    return this.#started;
  }

  /** Runs `fn` between two changes (never while one is being judged or sent). */
  #exclusive<T>(fn: () => T | Promise<T>): Promise<T> {
    const result = this.#tail.then(fn);
    this.#tail = result.then(() => {}, () => {});
    return result;
  }

  /**
   * Adds `subscriptions` (of `stream`) to the groups of their shapes, in one step: they
   * receive the changes committed after the feed's position now, which this resolves to.
   */
  join(
    subscriptions: readonly Subscription[],
    stream: SubscriberStream,
  ): Promise<number> {
    return this.#exclusive(() => {
      const after = this.#host.data.feed.position;
      for (const subscription of subscriptions) {
        subscription.after = after;
        this.#streams.set(subscription, stream);
        if (stream.subject !== null) {
          let same = this.#subjects.get(stream.subject);
          if (!same) this.#subjects.set(stream.subject, same = new Set());
          same.add(subscription);
        }
        this.#enter(subscription, stream);
      }
      return after;
    });
  }

  /** Removes the subscription. */
  leave(subscription: Subscription): Promise<void> {
    return this.#exclusive(() => {
      this.#exit(subscription);
      const subject = this.#streams.get(subscription)?.subject;
      this.#streams.delete(subscription);
      const same = subject == null ? undefined : this.#subjects.get(subject);
      same?.delete(subscription);
      if (same?.size === 0) this.#subjects.delete(subject!);
    });
  }

  /** Moves the subscription to the group of its new shape, between two changes. */
  reshape(subscription: Subscription, shape: ReadShape): Promise<void> {
    return this.#exclusive(() => this.#move(subscription, shape));
  }

  #move(subscription: Subscription, shape: ReadShape): void {
    const stream = this.#streams.get(subscription);
    if (!stream) return; // left meanwhile
    if (shape.key === subscription.shape.key) {
      subscription.shape = shape;
      return;
    }
    this.#exit(subscription);
    subscription.shape = shape;
    this.#enter(subscription, stream);
  }

  #enter(subscription: Subscription, stream: SubscriberStream): void {
    const { key } = subscription.shape;
    let group = this.#groups.get(key);
    if (!group) {
      group = new Group(subscription.shape, (fn) => stream.run(fn));
      this.#groups.set(key, group);
      let same = this.#byCollection.get(subscription.collection);
      if (!same) {
        this.#byCollection.set(subscription.collection, same = new Set());
      }
      same.add(group);
    }
    group.members.add(subscription);
  }

  #exit(subscription: Subscription): void {
    const group = this.#groups.get(subscription.shape.key);
    if (!group?.members.delete(subscription)) return;
    if (group.members.size === 0) {
      this.#groups.delete(subscription.shape.key);
      const same = this.#byCollection.get(subscription.collection);
      same?.delete(group);
      if (same?.size === 0) this.#byCollection.delete(subscription.collection);
    } else if (group.shape === subscription.shape) {
      // Read with a member still there (its request context stays meaningful).
      group.shape = group.members.values().next().value!.shape;
    }
  }

  #kick(): void {
    if (this.#draining || this.#queue.length === 0) return;
    this.#draining = true;
    // A batch per exclusive step: joins, leaves and moves queued meanwhile run between. A
    // change to a subscriber's user starts a batch (grants are decided again first).
    const batch = [this.#queue.shift()!];
    while (
      batch.length < MAX_BATCH && this.#queue.length > 0 &&
      !this.#subjects.has(subjectOf(this.#queue[0]))
    ) batch.push(this.#queue.shift()!);
    this.#exclusive(() => this.#step(batch)).catch((error) => {
      console.error("The event stream fan-out failed:", error);
    }).finally(() => {
      this.#draining = false;
      this.#kick();
    });
  }

  /**
   * Judges and sends a batch of changes in seq order. Each group reads the records of the
   * whole batch in one query, all groups at once ("the record now", whenever it runs), so
   * a database round trip is paid per group and batch, not per change; the judging, which
   * moves each group's set of visible records, then goes change by change.
   */
  async #step(batch: readonly ChangeEvent[]): Promise<void> {
    await this.#redecideSubjects(batch[0]);
    const reads = new Map<Group, Promise<Map<string, DataRecord>>>();
    for (const [collection, groups] of this.#byCollection) {
      const changes = batch.filter((change) =>
        change.collection === collection
      );
      if (changes.length === 0) continue;
      for (const group of groups) {
        const read = group.read(changes);
        read.catch(() => {}); // judged below
        reads.set(group, read);
      }
    }
    for (const change of batch) {
      const groups = [...this.#byCollection.get(change.collection) ?? []];
      const outcomes = await Promise.all(groups.map(async (group) => {
        this.#judged++;
        try {
          const records = await reads.get(group)!;
          return await group.judge(change, records.get(change.uuid) ?? null);
        } catch (error) {
          // The database is away or the read failed: the group's streams cannot go on
          // without a gap, so they are told to re-read and closed.
          console.error("An event stream read failed:", error);
          for (const member of group.members) {
            this.#streams.get(member)?.fail(change.seq);
          }
          return null;
        }
      }));
      groups.forEach((group, j) => {
        const outcome = outcomes[j];
        if (outcome) this.#send(group, change, outcome);
      });
    }
  }

  /** Streams whose user's record this change is decide their grant again first. */
  async #redecideSubjects(change: ChangeEvent): Promise<void> {
    const streams = new Set<SubscriberStream>();
    for (const subscription of this.#subjects.get(subjectOf(change)) ?? []) {
      streams.add(this.#streams.get(subscription)!);
    }
    const decided = await Promise.all(
      [...streams].map((stream) => stream.decideAgain()),
    );
    for (const shapes of decided) {
      for (const [subscription, shape] of shapes ?? []) {
        this.#move(subscription, shape);
      }
    }
  }

  #send(group: Group, change: ChangeEvent, outcome: Outcome): void {
    // Encoded once per event name: every member of a group shares the bytes.
    const encoded = new Map<string, Uint8Array>();
    for (const member of group.members) {
      if (change.seq <= member.after) continue;
      let bytes = encoded.get(member.prefix);
      if (!bytes) {
        bytes = encoder.encode(
          `id: ${change.seq}\nevent: ${member.prefix}${outcome.op}\ndata: ${outcome.data}\n\n`,
        );
        encoded.set(member.prefix, bytes);
      }
      member.send(bytes);
    }
  }
}

/** The subject key of the record a change is about (see {@link SubscriberStream.subject}). */
export function subjectOf(
  change: { readonly collection: string; readonly uuid: string },
): string {
  return `${change.collection}\u0000${change.uuid}`;
}

const fanouts = new WeakMap<ApiHost, Fanout>();

/** The fan-out of `host`. */
export function fanoutOf(host: ApiHost): Fanout {
  let fanout = fanouts.get(host);
  if (!fanout) fanouts.set(host, fanout = new Fanout(host));
  return fanout;
}
