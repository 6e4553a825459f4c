// Password hashing threads of our own. The asynchronous `node:crypto` scrypt already runs
// off the event loop, but on threads of the runtime at the process's priority: where cores
// are scarce (a server pinned to one, a busy machine) eight logins a second took half the
// CPU the event loop needed. Hashes derived here run on threads that yield to it.
import { scrypt } from "node:crypto";
import { Worker } from "node:worker_threads";

/** What a hashing thread is asked. */
export interface ScryptRequest {
  readonly id: number;
  readonly password: string;
  readonly salt: Uint8Array;
  readonly length: number;
  readonly cost: number;
  readonly blockSize: number;
  readonly parallelization: number;
  readonly maxmem: number;
}

/** A hashing thread's answer to the request of the same `id`. */
export type ScryptReply =
  | { readonly id: number; readonly key: Uint8Array }
  | { readonly id: number; readonly error: string };

type KeyRequest = Omit<ScryptRequest, "id">;

interface Pending {
  readonly request: KeyRequest;
  resolve(key: Uint8Array): void;
  reject(error: Error): void;
}

interface Thread {
  readonly worker: Worker;
  readonly pending: Map<number, Pending>;
  /** Whether it ever answered (a thread that dies before cannot start here). */
  answered: boolean;
}

/** Threads at most: hashes beyond wait their turn (each takes a core while it runs). */
const SIZE = Math.max(1, Math.min(4, navigator.hardwareConcurrency ?? 1));

const threads: Thread[] = [];
let nextId = 1;
let unavailable = false;

function startThread(): Thread | null {
  if (unavailable) return null;
  let worker: Worker;
  try {
    worker = new Worker(new URL("./_scrypt_worker.ts", import.meta.url));
  } catch {
    // No threads here (permissions, runtime): the caller hashes its own way.
    unavailable = true;
    return null;
  }
  const thread: Thread = { worker, pending: new Map(), answered: false };
  worker.on("message", (reply: ScryptReply) => {
    thread.answered = true;
    const pending = thread.pending.get(reply.id);
    if (!pending) return;
    thread.pending.delete(reply.id);
    if (thread.pending.size === 0) worker.unref();
    if ("key" in reply) pending.resolve(reply.key);
    else pending.reject(new Error(reply.error));
  });
  worker.on("error", (error: unknown) => fail(thread, error));
  worker.on("exit", () => fail(thread, new Error("Hashing thread exited")));
  // Idle threads never keep the process alive.
  worker.unref();
  threads.push(thread);
  return thread;
}

/**
 * Drops a dead thread; its hashes reject, the next ones start a new thread. A thread that
 * died before its first answer could not start here (its module cannot load): from then on
 * every hash, its own included, runs on the runtime's scrypt.
 */
function fail(thread: Thread, error: unknown): void {
  const at = threads.indexOf(thread);
  if (at >= 0) threads.splice(at, 1);
  if (!thread.answered) unavailable = true;
  const reason = error instanceof Error ? error : new Error(String(error));
  for (const pending of thread.pending.values()) {
    if (thread.answered) pending.reject(reason);
    else runtimeScrypt(pending.request).then(pending.resolve, pending.reject);
  }
  thread.pending.clear();
}

/** The least busy thread, a new one while there are fewer than {@link SIZE}. */
function pickThread(): Thread | null {
  let best: Thread | undefined;
  for (const thread of threads) {
    if (!best || thread.pending.size < best.pending.size) best = thread;
  }
  if (best && (best.pending.size === 0 || threads.length >= SIZE)) return best;
  return startThread() ?? best ?? null;
}

/**
 * Derives an scrypt key off the event loop: on a hashing thread, or where threads cannot
 * run, on the asynchronous `node:crypto` scrypt. Rejects with the derivation's error
 * (invalid parameters).
 */
export function deriveKey(request: KeyRequest): Promise<Uint8Array> {
  const thread = pickThread();
  if (!thread) return runtimeScrypt(request);
  const id = nextId++;
  return new Promise((resolve, reject) => {
    thread.pending.set(id, { request, resolve, reject });
    // Ref'd while a hash is pending: the process waits for it.
    thread.worker.ref();
    thread.worker.postMessage({ ...request, id } satisfies ScryptRequest);
  });
}

/** The asynchronous `node:crypto` scrypt (on the runtime's threads). */
function runtimeScrypt(request: KeyRequest): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    try {
      scrypt(request.password, request.salt, request.length, {
        N: request.cost,
        r: request.blockSize,
        p: request.parallelization,
        maxmem: request.maxmem,
      }, (error, key) => error ? reject(error) : resolve(new Uint8Array(key)));
    } catch (error) {
      // Invalid parameters throw synchronously instead of calling back.
      reject(error);
    }
  });
}
