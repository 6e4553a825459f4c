// Background threads (password hashing, long SQLite reads) run nicer than the event loop, so
// where cores are scarce they never take the CPU it needs to keep answering requests.
import { getPriority, setPriority } from "node:os";

/** How much nicer than the process a background thread runs (capped at 19). */
export const BACKGROUND_NICE_STEP = 10;

/**
 * Lowers the calling worker thread's scheduling priority by {@link BACKGROUND_NICE_STEP},
 * relative to what it inherited (a server started under `nice` keeps the gap). Linux names
 * the thread in `/proc/thread-self`, and `setpriority` on a thread id applies to that thread
 * alone; elsewhere, or without the permission, the thread keeps the process's priority.
 */
export function lowerThreadPriority(): void {
  try {
    const tid = Number(Deno.readLinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(tid) && tid > 0 && tid !== Deno.pid) {
      setPriority(tid, Math.min(19, getPriority(tid) + BACKGROUND_NICE_STEP));
    }
  } catch {
    // No /proc, or no permission: nothing to lower.
  }
}
