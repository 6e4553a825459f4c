/**
 * A FIFO mutex: `lock()` resolves once every earlier holder has called `unlock()`.
 *
 * @module
 */

/** A first-in, first-out asynchronous lock. */
export class Mutex {
  #locked = false;
  #waiters: Array<() => void> = [];

  /** Whether someone holds the lock. */
  get locked(): boolean {
    return this.#locked;
  }

  /** Waits for the lock and takes it. */
  lock(): Promise<void> {
    if (!this.#locked) {
      this.#locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Releases the lock, handing it to the next waiter if any. */
  unlock(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#locked = false;
  }
}
