// Where a value lives while code runs, across every `await`: the current request's event
// (router/event.ts), a statement deadline (collections/db/deadline.ts), a data layer's
// transaction (collections/data_layer.ts).
//
// The portable carrier is AsyncLocalStorage. In Deno, `storage.run` costs a fresh WeakMap entry
// per call (its store is kept in a WeakMap keyed by a per-run object), and under load the
// garbage collector's ephemeron work for those entries took ~20% of the throughput of a small
// route (bench/http). The engine underneath carries one value per async continuation (V8's
// continuation-preserved embedder data, which Deno's AsyncLocalStorage itself is built on);
// writing the event there directly, beside every other storage's entry, costs one small
// object per request and no weak entry. That entry point is Deno's internal core API, so it
// is used only after it proved at load that it behaves as AsyncLocalStorage expects;
// otherwise AsyncLocalStorage is the carrier. `useEvent()` answers the same either way.
// Nesting matters too: with three AsyncLocalStorage runs nested (event, deadline,
// transaction) 30 awaits beneath them took 6.1 µs against 1.4 µs under one.

import { AsyncLocalStorage } from "node:async_hooks";

/** Runs code with a value as the current one, and reads it back. */
export interface EventCarrier<E> {
  /** `"engine"` (Deno's async context, written directly) or `"storage"` (AsyncLocalStorage). */
  readonly kind: "engine" | "storage";
  /** Runs `fn(arg)` with `event` as the current event; restores the previous one after. */
  run<A, T>(event: E, fn: (arg: A) => T, arg: A): T;
  /** The current event, `undefined` outside any `run`. */
  get(): E | undefined;
}

/** The carrier built on AsyncLocalStorage: portable, and dearer per request in Deno. */
export function storageCarrier<E>(): EventCarrier<E> {
  const storage = new AsyncLocalStorage<E>();
  return {
    kind: "storage",
    run: (event, fn, arg) => storage.run(event, fn, arg),
    get: () => storage.getStore(),
  };
}

interface AsyncContextCore {
  getAsyncContext(): unknown;
  setAsyncContext(context: unknown): void;
}

/** Deno's core async-context functions, if this runtime exposes them. */
function asyncContextCore(): AsyncContextCore | undefined {
  try {
    const runtime = Deno as unknown as Record<symbol, { core?: unknown }> & {
      internal?: symbol;
    };
    const core = runtime.internal === undefined
      ? undefined
      : runtime[runtime.internal]?.core as
        | Partial<AsyncContextCore>
        | undefined;
    if (
      typeof core?.getAsyncContext === "function" &&
      typeof core.setAsyncContext === "function"
    ) {
      return core as AsyncContextCore;
    }
  } catch {
    // No such internals here: the portable carrier serves.
  }
  return undefined;
}

type Mapping = Record<PropertyKey, unknown>;

/** Builds the async context that holds `event` under `key` beside everything in `previous`. */
type Enter = (previous: Mapping | undefined, event: unknown) => Mapping;

function contextBuilder(key: symbol): Enter {
  // The context when nothing else is in it (the usual case): a fixed-shape object is far
  // cheaper to create than a prototype-less record built by spreading.
  class Only {
    [key]: unknown;
    constructor(event: unknown) {
      this[key] = event;
    }
  }
  // A copy, never a mutation: continuations already holding `previous` keep seeing it.
  return (previous, event) =>
    previous === undefined
      ? new Only(event) as Mapping
      : { __proto__: null, ...previous, [key]: event };
}

/**
 * Checks, synchronously, that a value written into the async context (from an empty context
 * and from inside an AsyncLocalStorage) is read back, survives an AsyncLocalStorage entered
 * inside it, and leaves that storage's value intact: the contract `useEvent()` and any app's
 * own AsyncLocalStorage rely on.
 */
function behavesAsExpected(
  core: AsyncContextCore,
  key: symbol,
  enter: Enter,
): boolean {
  const outer = new AsyncLocalStorage<string>();
  const inner = new AsyncLocalStorage<string>();
  const read = () => (core.getAsyncContext() as Mapping | undefined)?.[key];
  const holds = (mark: object, outerStore: string | undefined) => {
    const previous = core.getAsyncContext() as Mapping | undefined;
    core.setAsyncContext(enter(previous, mark));
    try {
      return read() === mark && outer.getStore() === outerStore &&
        inner.run(
          "inner",
          () =>
            read() === mark && inner.getStore() === "inner" &&
            outer.getStore() === outerStore,
        );
    } finally {
      core.setAsyncContext(previous);
    }
  };
  const saved = core.getAsyncContext();
  try {
    core.setAsyncContext(undefined);
    return holds({}, undefined) && read() === undefined &&
      outer.run("outer", () => holds({}, "outer"));
  } catch {
    return false;
  } finally {
    core.setAsyncContext(saved);
  }
}

/**
 * The carrier that writes the event into Deno's async context directly, or `undefined` where
 * that is not available or does not behave as expected.
 */
export function engineCarrier<E>(): EventCarrier<E> | undefined {
  const core = asyncContextCore();
  const key = Symbol("strata.event");
  const enter = contextBuilder(key);
  if (core === undefined || !behavesAsExpected(core, key, enter)) {
    return undefined;
  }
  const { getAsyncContext, setAsyncContext } = core;
  return {
    kind: "engine",
    run(event, fn, arg) {
      const previous = getAsyncContext() as Mapping | undefined;
      setAsyncContext(enter(previous, event));
      try {
        return fn(arg);
      } finally {
        setAsyncContext(previous);
      }
    },
    get: () =>
      (getAsyncContext() as Mapping | undefined)?.[key] as E | undefined,
  };
}

/** The engine carrier where it behaves, else the AsyncLocalStorage one. */
export function asyncCarrier<E>(): EventCarrier<E> {
  return engineCarrier<E>() ?? storageCarrier<E>();
}
