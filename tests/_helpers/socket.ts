// Serves an app on a real socket (Deno.serve on port 0) and speaks raw HTTP/1.1 to it, for
// behaviour that in-process `app.fetch` calls cannot show (an empty POST's body stream).
import type { App } from "../../mod.ts";

export interface Served {
  /** Port the app listens on (127.0.0.1). */
  port: number;
  /** Base URL, `http://127.0.0.1:<port>`. */
  url: string;
  /** Sends `head` (request line and headers, no trailing blank line) and `body` raw. */
  raw(head: string, body?: string): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

/** Serves `app` on 127.0.0.1, port 0. */
export function serveOnSocket(app: App): Served {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    app.fetch,
  );
  const port = server.addr.port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    async raw(head, body = "") {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port });
      const text =
        `${head}\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n${body}`;
      await conn.write(new TextEncoder().encode(text));
      const chunks: Uint8Array[] = [];
      const buffer = new Uint8Array(16 * 1024);
      while (true) {
        const n = await conn.read(buffer);
        if (n === null) break;
        chunks.push(buffer.slice(0, n));
      }
      conn.close();
      const answer = new TextDecoder().decode(
        new Uint8Array(chunks.flatMap((c) => [...c])),
      );
      const status = Number(answer.slice(9, 12));
      const split = answer.indexOf("\r\n\r\n");
      return { status, body: split === -1 ? "" : answer.slice(split + 4) };
    },
    async close() {
      await server.shutdown();
    },
  };
}
