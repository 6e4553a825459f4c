// The record hooks of an app: the acting user (`record:actor`), `record:beforeWrite` with its
// filters, and the `record:afterCommit` runner.
import { ACTOR_HOOK, type ChangeEvent } from "../collections/changes/log.ts";
import type { ActingUser, DataLayer } from "../collections/data_layer.ts";
import type {
  BeforeWriteContext,
  BeforeWriteHooks,
} from "../collections/changes/before_write.ts";
import { AfterCommitRunner } from "../collections/changes/after_commit.ts";
import { kyselyOf } from "../collections/database.ts";
import { filterMatches } from "./hooks.ts";
import type { MergedLayers } from "./merge_layers.ts";
import type { ResolvedConfig } from "./config.ts";
import type { App } from "./create_app.ts";

/** The hook run inside a write's transaction before validation. */
export const BEFORE_WRITE_HOOK = "record:beforeWrite";
/** The hook run once per committed change, on one instance. */
export const AFTER_COMMIT_HOOK = "record:afterCommit";

/** The `record:actor` hooks: the first that names a user is the acting user of a write. */
export function actingUserOf(merged: MergedLayers): () => ActingUser | null {
  const resolvers = (merged.hooks.get(ACTOR_HOOK) ?? []) as (() => unknown)[];
  return () => {
    for (const resolve of resolvers) {
      const user = resolve() as ActingUser | null | undefined;
      if (user && typeof user.UUID === "string") return user;
    }
    return null;
  };
}

/** The `record:beforeWrite` registrations, run in order for the writes their filters admit. */
export function beforeWriteOf(
  merged: MergedLayers,
): BeforeWriteHooks | undefined {
  const registrations = merged.hookRegistrations.get(BEFORE_WRITE_HOOK) ?? [];
  if (registrations.length === 0) return undefined;
  return {
    matches: (collection, op) =>
      registrations.some((r) => filterMatches(r.filter, collection, op)),
    async run(context) {
      for (const { fn, filter } of registrations) {
        if (!filterMatches(filter, context.collection, context.op)) continue;
        await (fn as (c: BeforeWriteContext) => unknown)(context);
      }
    },
  };
}

/** The `record:afterCommit` runner of each app (tests settle it). */
export const afterCommitRunners: WeakMap<App, AfterCommitRunner> =
  new WeakMap();

/** A runner for the `record:afterCommit` registrations, or `null` when there is none. */
export function afterCommitRunner(
  merged: MergedLayers,
  data: DataLayer,
  config: ResolvedConfig,
  now: () => number,
): AfterCommitRunner | null {
  const registrations = merged.hookRegistrations.get(AFTER_COMMIT_HOOK) ?? [];
  if (registrations.length === 0) return null;
  return new AfterCommitRunner({
    db: kyselyOf(data.db),
    feed: data.feed,
    hooks: registrations.map(({ id, fn, filter }) => ({
      id: id!,
      fn: fn as (event: ChangeEvent) => unknown,
      matches: (collection: string, op: string) =>
        filterMatches(filter, collection, op),
    })),
    now,
    retryBase: config.events.retryBase,
    retryFor: config.events.retryFor,
  });
}
