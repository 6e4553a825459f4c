/**
 * `subscribe`: a collection's change events (`GET /collections/<name>/events`) over `fetch`,
 * so a Bearer token works where `EventSource` cannot send one. Reconnects after `retry` with
 * `Last-Event-ID`; a refusal (4xx other than 429) ends it through `onError`.
 *
 * @module
 */
import { StrataError } from "./errors.ts";

/** One event of a subscription. */
export interface ChangeMessage<T> {
  /** `create`, `update`, `delete`, or `reset` (re-read: changes could not be replayed). */
  readonly type: "create" | "update" | "delete" | "reset";
  /** The change's id (its seq), `null` for a reset without one. */
  readonly id: string | null;
  /** The record (create, update), `{ UUID }` (delete), or `{}` (reset). */
  readonly data: T;
}

/** An open subscription. */
export interface Subscription {
  /** Stops it (no reconnect). */
  close(): void;
}

/** Callbacks of a subscription. */
export interface SubscribeHandlers<T> {
  /** Each event, in order. */
  onEvent(message: ChangeMessage<T>): void;
  /** The stream is open (again): changes committed from now on arrive. */
  onOpen?(): void;
  /** The server refused (the subscription is over) or a connection failed (it retries). */
  onError?(error: unknown, willRetry: boolean): void;
}

/** What the client hands a subscription: how to open the stream once. */
export type OpenStream = (
  lastEventId: string | null,
  signal: AbortSignal,
) => Promise<Response>;

function parseBlock(
  block: string,
): { id: string | null; event: string; data: string; retry: number | null } {
  let id: string | null = null;
  let event = "message";
  let data = "";
  let retry: number | null = null;
  for (const line of block.split("\n")) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "id") id = value;
    else if (field === "event") event = value;
    else if (field === "data") data = data === "" ? value : `${data}\n${value}`;
    else if (field === "retry" && /^\d+$/.test(value)) retry = Number(value);
  }
  return { id, event, data, retry };
}

/**
 * Runs a subscription over `open` (see the module documentation).
 *
 * @example
 * ```ts ignore
 * const subscription = runSubscription(open, { onEvent: (m) => console.log(m.type) });
 * subscription.close();
 * ```
 */
export function runSubscription<T>(
  open: OpenStream,
  handlers: SubscribeHandlers<T>,
): Subscription {
  const controller = new AbortController();
  let lastEventId: string | null = null;
  let retry = 2000;
  const loop = async () => {
    while (!controller.signal.aborted) {
      try {
        const response = await open(lastEventId, controller.signal);
        if (!response.ok) {
          const error = await StrataError.fromResponse(response);
          const again = response.status === 429 || response.status >= 500;
          handlers.onError?.(error, again);
          if (!again) return;
        } else {
          handlers.onOpen?.();
          const reader = response.body!.pipeThrough(new TextDecoderStream())
            .getReader();
          let buffer = "";
          while (true) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += value.replace(/\r\n?/g, "\n");
            let split;
            while ((split = buffer.indexOf("\n\n")) !== -1) {
              const block = parseBlock(buffer.slice(0, split));
              buffer = buffer.slice(split + 2);
              if (block.retry !== null) retry = block.retry;
              if (block.id !== null) lastEventId = block.id;
              if (
                !["create", "update", "delete", "reset"].includes(block.event)
              ) continue;
              handlers.onEvent({
                type: block.event as ChangeMessage<T>["type"],
                id: block.id,
                data: JSON.parse(block.data || "{}"),
              });
            }
          }
        }
      } catch (error) {
        if (controller.signal.aborted) return;
        handlers.onError?.(error, true);
      }
      if (controller.signal.aborted) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, retry);
        function done() {
          clearTimeout(timer);
          controller.signal.removeEventListener("abort", done);
          resolve();
        }
        controller.signal.addEventListener("abort", done);
      });
    }
  };
  loop();
  return { close: () => controller.abort() };
}
