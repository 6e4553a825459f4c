/**
 * One delivery attempt: the target is checked and resolved (see `target.ts`), then the POST
 * goes over a connection to exactly the address checked — TLS on top for `https:`, verified
 * for the URL's host name — as one HTTP/1.1 request; only the answer's status line and
 * headers are read, no redirect is followed, and the whole attempt ends at the timeout.
 *
 * (A pinned address cannot be given to `fetch`: its `tcp` proxy transport speaks plain HTTP
 * even to an `https:` URL.)
 *
 * @module
 */

import { resolveTarget, type TargetPolicy, TargetRefused } from "./target.ts";

/** The outcome of one attempt. */
export interface AttemptResult {
  /** Whether the receiver answered 2xx in time. */
  readonly ok: boolean;
  /** The receiver's status, or `null` when none came (refused, unreachable, timed out). */
  readonly status: number | null;
  /** Why the attempt failed, or `null`. */
  readonly error: string | null;
}

/** What {@link attemptDelivery} sends. */
export interface AttemptRequest {
  readonly url: URL;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  /** In ms, from the name lookup to the answer's head. */
  readonly timeout: number;
  readonly policy: TargetPolicy;
  /** Certificates trusted besides the system's (tests with a certificate of their own). */
  readonly caCerts?: readonly string[];
}

/** The most bytes of an answer's status line and headers read. */
const MAX_HEAD = 16 * 1024;
const encoder = new TextEncoder();

class AnswerError extends Error {}

/** Rejects with the signal's reason once it aborts (and runs `onAbort`). */
function withDeadline<T>(
  promise: Promise<T>,
  signal: AbortSignal,
  onAbort?: () => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const abort = () => {
      onAbort?.();
      reject(signal.reason);
    };
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    promise.then(resolve, reject).finally(() =>
      signal.removeEventListener("abort", abort)
    );
  });
}

function requestHead(request: AttemptRequest, length: number): string {
  const { url } = request;
  const lines = [
    `POST ${url.pathname}${url.search} HTTP/1.1`,
    `Host: ${url.host}`,
    ...Object.entries(request.headers).map(([name, value]) =>
      `${name}: ${value}`
    ),
    `Content-Length: ${length}`,
    "Connection: close",
  ];
  return `${lines.join("\r\n")}\r\n\r\n`;
}

/** Reads answer heads until a final (non-1xx) one: its status and `Location`. */
async function readAnswer(
  conn: Deno.Conn,
): Promise<{ status: number; location: string | null }> {
  let text = "";
  const buffer = new Uint8Array(4096);
  const decoder = new TextDecoder();
  while (true) {
    const end = text.indexOf("\r\n\r\n");
    if (end !== -1) {
      const [statusLine, ...headers] = text.slice(0, end).split("\r\n");
      const match = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(statusLine);
      if (!match) {
        throw new AnswerError("The receiver's answer is not HTTP/1.1");
      }
      const status = Number(match[1]);
      if (status >= 100 && status < 200) {
        text = text.slice(end + 4); // an interim answer: the final one follows
        continue;
      }
      const location = headers.find((h) => /^location:/i.test(h));
      return {
        status,
        location: location ? location.slice(9).trim() : null,
      };
    }
    if (text.length > MAX_HEAD) {
      throw new AnswerError("The receiver's answer head is too large");
    }
    const n = await conn.read(buffer);
    if (n === null) {
      throw new AnswerError(
        "The receiver closed the connection without an answer",
      );
    }
    text += decoder.decode(buffer.subarray(0, n), { stream: true });
  }
}

/**
 * POSTs one delivery; never throws.
 *
 * @example
 * ```ts ignore
 * const result = await attemptDelivery({ url, body, headers, timeout: 10_000, policy });
 * ```
 */
export async function attemptDelivery(
  request: AttemptRequest,
): Promise<AttemptResult> {
  const signal = AbortSignal.timeout(request.timeout);
  let conn: Deno.Conn | undefined;
  const close = () => {
    try {
      conn?.close();
    } catch { /* closed already */ }
  };
  try {
    const target = await withDeadline(
      resolveTarget(request.url, request.policy),
      signal,
    );
    const connecting = Deno.connect({
      hostname: target.address,
      port: target.port,
    });
    conn = await withDeadline(connecting, signal, () => {
      connecting.then((late) => late.close(), () => {});
    });
    if (request.url.protocol === "https:") {
      // The server's certificate must name the URL's host, wherever the connection goes.
      conn = await withDeadline(
        Deno.startTls(conn as Deno.TcpConn, {
          hostname: request.url.hostname.replace(/^\[(.*)\]$/, "$1"),
          caCerts: request.caCerts ? [...request.caCerts] : undefined,
        }),
        signal,
        close,
      );
    }
    const body = encoder.encode(request.body);
    const head = encoder.encode(requestHead(request, body.byteLength));
    const message = new Uint8Array(head.byteLength + body.byteLength);
    message.set(head);
    message.set(body, head.byteLength);
    const open = conn;
    const answer = await withDeadline(
      (async () => {
        for (let sent = 0; sent < message.byteLength;) {
          sent += await open.write(message.subarray(sent));
        }
        return await readAnswer(open);
      })(),
      signal,
      close,
    );
    const { status, location } = answer;
    if (status >= 200 && status < 300) {
      return { ok: true, status, error: null };
    }
    if (status >= 300 && status < 400) {
      return {
        ok: false,
        status,
        error: `The receiver redirected (${status}${
          location ? ` to ${location.slice(0, 200)}` : ""
        }); redirects are not followed`,
      };
    }
    return { ok: false, status, error: `The receiver answered ${status}` };
  } catch (error) {
    if (error instanceof TargetRefused) {
      return { ok: false, status: null, error: `Refused: ${error.message}` };
    }
    if (signal.aborted) {
      return {
        ok: false,
        status: null,
        error: `No answer within ${request.timeout} ms`,
      };
    }
    if (error instanceof AnswerError) {
      return { ok: false, status: null, error: error.message };
    }
    return {
      ok: false,
      status: null,
      error: `The request failed: ${(error as Error)?.message ?? error}`,
    };
  } finally {
    close();
  }
}
