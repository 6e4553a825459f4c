// A password hashing thread (see _scrypt_threads.ts): derives scrypt keys synchronously, on
// this thread, at a lower scheduling priority than the event loop.
import { parentPort } from "node:worker_threads";
import { scryptSync } from "node:crypto";
import { lowerThreadPriority } from "./_thread_priority.ts";
import type { ScryptReply, ScryptRequest } from "./_scrypt_threads.ts";

lowerThreadPriority();

parentPort!.on("message", (request: ScryptRequest) => {
  let reply: ScryptReply;
  try {
    const key = scryptSync(request.password, request.salt, request.length, {
      N: request.cost,
      r: request.blockSize,
      p: request.parallelization,
      maxmem: request.maxmem,
    });
    reply = { id: request.id, key: new Uint8Array(key) };
  } catch (error) {
    reply = {
      id: request.id,
      error: String((error as Error)?.message ?? error),
    };
  }
  parentPort!.postMessage(reply);
});
