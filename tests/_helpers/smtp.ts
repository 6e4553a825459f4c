/**
 * A real SMTP server on loopback for the mail tests (npm `smtp-server`, test-only): it
 * records every accepted mail and can be told to refuse mail with a temporary error.
 *
 * @module
 */
import { SMTPServer } from "npm:smtp-server@^3.16.1";

/** A mail the server accepted. */
export interface ReceivedMail {
  readonly from: string;
  readonly to: readonly string[];
  readonly subject: string;
  /** The text body, transfer encoding undone. */
  readonly text: string;
  readonly raw: string;
}

/** A running test SMTP server. */
export interface TestSmtp {
  readonly port: number;
  readonly received: ReceivedMail[];
  /** While true, every mail is refused with `451`. */
  refuse: boolean;
  /** How many mails were refused. */
  readonly refused: number;
  close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const source = text.replace(/=\r?\n/g, "");
  for (let i = 0; i < source.length; i++) {
    if (
      source[i] === "=" && /^[0-9A-F]{2}$/i.test(source.slice(i + 1, i + 3))
    ) {
      bytes.push(parseInt(source.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...new TextEncoder().encode(source[i]));
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

function decodeHeader(value: string): string {
  return value.replace(
    /=\?utf-8\?([QB])\?([^?]*)\?=\s*/gi,
    (_, encoding: string, data: string) =>
      encoding.toUpperCase() === "B"
        ? new TextDecoder().decode(
          Uint8Array.from(atob(data), (c) => c.charCodeAt(0)),
        )
        : decodeQuotedPrintable(data.replaceAll("_", " ")),
  );
}

/** Parses a single-part (text/plain) message, or the text part of a multipart one. */
export function parseMail(raw: string): { subject: string; text: string } {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  let body = raw.slice(split + 4);
  const header = (name: string) =>
    new RegExp(`^${name}:\\s*(.*)$`, "im").exec(head)?.[1] ?? "";
  const subject = decodeHeader(header("Subject"));
  const type = header("Content-Type");
  let encoding = header("Content-Transfer-Encoding");
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (boundary) {
    const part = body.split(`--${boundary}`).find((p) =>
      /content-type:\s*text\/plain/i.test(p)
    ) ?? "";
    const at = part.indexOf("\r\n\r\n");
    encoding = /content-transfer-encoding:\s*(\S+)/i.exec(part.slice(0, at))
      ?.[1] ?? "";
    body = part.slice(at + 4);
  }
  let text = body.replace(/\r\n$/, "");
  if (/quoted-printable/i.test(encoding)) text = decodeQuotedPrintable(text);
  if (/base64/i.test(encoding)) {
    text = new TextDecoder().decode(
      Uint8Array.from(atob(text.replace(/\s+/g, "")), (c) => c.charCodeAt(0)),
    );
  }
  return { subject, text: text.replace(/\r\n/g, "\n").trimEnd() };
}

/** Starts the server on 127.0.0.1, port 0. */
export async function startSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  let refused = 0;
  const state = { refuse: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(
      stream: AsyncIterable<Uint8Array>,
      session: {
        envelope: {
          mailFrom: { address: string } | false;
          rcptTo: { address: string }[];
        };
      },
      callback: (error?: Error | null) => void,
    ) {
      (async () => {
        const chunks: Uint8Array[] = [];
        for await (const chunk of stream) chunks.push(chunk);
        if (state.refuse) {
          refused++;
          const error = new Error("Try again later") as Error & {
            responseCode: number;
          };
          error.responseCode = 451;
          callback(error);
          return;
        }
        const raw = new TextDecoder().decode(
          new Uint8Array(await new Blob(chunks as BlobPart[]).arrayBuffer()),
        );
        received.push({
          from: session.envelope.mailFrom
            ? session.envelope.mailFrom.address
            : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          ...parseMail(raw),
        });
        callback();
      })().catch((error) => callback(error));
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      resolve((server.server.address() as { port: number }).port);
    });
  });
  return {
    port,
    received,
    get refuse() {
      return state.refuse;
    },
    set refuse(value: boolean) {
      state.refuse = value;
    },
    get refused() {
      return refused;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
