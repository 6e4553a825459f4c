/**
 * Retries of work that follows the change log (`record:afterCommit` runs, webhook
 * deliveries): exponential backoff, and the loop that runs such work one pass at a time.
 *
 * @module
 */

/** The longest wait between two attempts: an hour. */
export const MAX_RETRY_DELAY = 3_600_000;

/**
 * The wait in ms after `failed` failed attempts: `base` doubling per failure, capped at an
 * hour. With `random` (a source in [0, 1)) it is jittered into its upper half, so retries of
 * many failures spread out while each wait stays at least as long as the one before it.
 *
 * @example
 * ```ts
 * import { retryDelay } from "./retry.ts";
 * retryDelay(30_000, 1); // 30000
 * retryDelay(30_000, 3); // 120000
 * retryDelay(30_000, 3, () => 0); // 60000
 * ```
 */
export function retryDelay(
  base: number,
  failed: number,
  random?: () => number,
): number {
  const delay = Math.min(base * 2 ** Math.max(0, failed - 1), MAX_RETRY_DELAY);
  return random ? Math.round(delay / 2 + random() * (delay / 2)) : delay;
}

/**
 * Runs an async pass whenever woken, never two at once: a wake-up during a pass runs one more
 * pass after it. Errors of a pass go to `onError` (the next wake-up tries again).
 *
 * @example
 * ```ts
 * import { SerialWork } from "./retry.ts";
 * let passes = 0;
 * const work = new SerialWork(async () => void passes++, console.error);
 * work.wake();
 * await work.settle();
 * await work.close();
 * ```
 */
export class SerialWork {
  readonly #pass: () => Promise<void>;
  readonly #onError: (error: unknown) => void;
  #busy: Promise<void> | null = null;
  #again = false;
  #closed = false;

  /** Creates the loop; nothing runs until {@link SerialWork.wake}. */
  constructor(pass: () => Promise<void>, onError: (error: unknown) => void) {
    this.#pass = pass;
    this.#onError = onError;
  }

  /** Whether {@link SerialWork.close} was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Runs a pass now, or once more after the running one. */
  wake(): void {
    if (this.#closed) return;
    if (this.#busy) {
      this.#again = true;
      return;
    }
    this.#busy = this.#loop().finally(() => {
      this.#busy = null;
    });
  }

  /** Runs a pass and waits until no pass is running. */
  async settle(): Promise<void> {
    this.wake();
    while (this.#busy) await this.#busy;
  }

  /** Stops waking; a running pass finishes first. */
  async close(): Promise<void> {
    this.#closed = true;
    while (this.#busy) await this.#busy;
  }

  async #loop(): Promise<void> {
    do {
      this.#again = false;
      try {
        await this.#pass();
      } catch (error) {
        if (!this.#closed) this.#onError(error);
      }
    } while (this.#again && !this.#closed);
  }
}
