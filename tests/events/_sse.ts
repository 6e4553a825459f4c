// A Server-Sent Events client over fetch for the realtime tests: collects every event of a
// stream as it arrives, and says when the server closed it.
import type { App } from "../../mod.ts";
import { type Served, serveOnSocket } from "../_helpers/socket.ts";

/** Serves apps on sockets and closes streams and servers at the end. */
export async function withServers(
  apps: App[],
  fn: (served: Served[], open: typeof openSse) => Promise<void>,
): Promise<void> {
  const served = apps.map(serveOnSocket);
  const streams: SseStream[] = [];
  const open: typeof openSse = async (url, headers) => {
    const stream = await openSse(url, headers);
    streams.push(stream);
    return stream;
  };
  try {
    await fn(served, open);
  } finally {
    for (const stream of streams) await stream.close();
    for (const server of served) await server.close();
  }
}
export interface SseEvent {
  id: string | null;
  event: string;
  // deno-lint-ignore no-explicit-any
  data: any;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** The answer's body when it was not a stream (a refusal). */
  // deno-lint-ignore no-explicit-any
  body: any;
  events: SseEvent[];
  /** Resolves once the server ended the stream. */
  ended: Promise<void>;
  readonly done: boolean;
  /** Whether a `retry:` field was seen. */
  readonly retry: number | null;
  close(): Promise<void>;
}

export async function openSse(
  url: string,
  headers: Record<string, string> = {},
): Promise<SseStream> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { accept: "text/event-stream", ...headers },
    signal: controller.signal,
  });
  const events: SseEvent[] = [];
  let done = false;
  let retry: number | null = null;
  if (!response.headers.get("content-type")?.startsWith("text/event-stream")) {
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text ? JSON.parse(text) : undefined,
      events,
      ended: Promise.resolve(),
      done: true,
      retry,
      close: () => Promise.resolve(),
    };
  }
  const reader = response.body!.pipeThrough(new TextDecoderStream())
    .getReader();
  const ended = (async () => {
    let buffer = "";
    try {
      while (true) {
        const { value, done: finished } = await reader.read();
        if (finished) break;
        buffer += value;
        let split;
        while ((split = buffer.indexOf("\n\n")) !== -1) {
          const block = buffer.slice(0, split);
          buffer = buffer.slice(split + 2);
          let id: string | null = null;
          let event = "message";
          let data = "";
          let any = false;
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) continue;
            const colon = line.indexOf(":");
            const field = colon === -1 ? line : line.slice(0, colon);
            const value = colon === -1 ? "" : line.slice(colon + 1).trimStart();
            if (field === "retry") retry = Number(value);
            else if (field === "id") (id = value, any = true);
            else if (field === "event") (event = value, any = true);
            else if (field === "data") (data += value, any = true);
          }
          if (any) events.push({ id, event, data: JSON.parse(data) });
        }
      }
    } catch {
      // aborted by close()
    } finally {
      done = true;
    }
  })();
  return {
    status: response.status,
    headers: response.headers,
    body: undefined,
    events,
    ended,
    get done() {
      return done;
    },
    get retry() {
      return retry;
    },
    async close() {
      await reader.cancel().catch(() => {});
      controller.abort();
      await ended;
    },
  };
}
