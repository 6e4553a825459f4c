// Reader threads run the reads that take long; they yield the CPU to the event loop.
import {
  assertOneBackgroundThread,
  threadPrioritiesAfter,
} from "../_helpers/thread_priority.ts";

const READERS =
  new URL("../../collections/db/sqlite_readers.ts", import.meta.url).href;

Deno.test({
  name:
    "sqlite readers: a reader thread runs 10 steps nicer than the event loop, which keeps its priority",
  // /proc describes threads on Linux only (where CI runs).
  ignore: Deno.build.os !== "linux",
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const threads = await threadPrioritiesAfter(`
        import { DatabaseSync } from "node:sqlite";
        import { SqliteReaders } from "${READERS}";
        const path = ${JSON.stringify(`${dir}/app.db`)};
        const setup = new DatabaseSync(path);
        setup.exec("pragma journal_mode = wal; create table t (a integer)");
        setup.close();
        const readers = new SqliteReaders({ path, size: 1 });
        const rows = await readers.read("select 7 as a", [], 0);
        if (rows[0].a !== 7) throw new Error("unexpected rows");
        reportThreads();
        readers.close();
      `);
      assertOneBackgroundThread(threads);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
