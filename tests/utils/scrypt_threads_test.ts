// Password hashing runs on threads that yield the CPU to the event loop, and an idle
// hashing thread never keeps the process alive.
import assert from "node:assert/strict";
import {
  assertOneBackgroundThread,
  threadPrioritiesAfter,
} from "../_helpers/thread_priority.ts";
import { hashPassword, verifyPassword } from "../../utils/crypto.ts";

const CRYPTO = new URL("../../utils/crypto.ts", import.meta.url).href;

Deno.test({
  name:
    "scrypt threads: hashes run 10 steps nicer than the event loop, which keeps its priority, the process exits",
  // /proc describes threads on Linux only (where CI runs).
  ignore: Deno.build.os !== "linux",
  async fn() {
    const threads = await threadPrioritiesAfter(`
      import { hashPassword, verifyPassword } from "${CRYPTO}";
      const hash = await hashPassword("correct horse", { cost: 1024 });
      if (!await verifyPassword("correct horse", hash)) throw new Error("no match");
      reportThreads();
    `);
    assertOneBackgroundThread(threads);
  },
});

Deno.test("scrypt threads: concurrent hashes each get their own answer", async () => {
  const passwords = Array.from({ length: 6 }, (_, i) => `password ${i}`);
  const hashes = await Promise.all(
    passwords.map((password) => hashPassword(password, { cost: 1024 })),
  );
  const checks = await Promise.all(
    hashes.flatMap((hash, i) => [
      verifyPassword(passwords[i], hash),
      verifyPassword(passwords[(i + 1) % passwords.length], hash),
    ]),
  );
  assert.deepEqual(
    checks,
    passwords.flatMap(() => [true, false]),
  );
});
