// Helpers of the file tests: an app booted on each database with its own storage folder,
// multipart bodies, and real images built byte by byte.
import { sql } from "kysely";
import { kyselyOf } from "../../collections/database.ts";
import { type App, createApp } from "../../mod.ts";
import type { StrataConfig } from "../../app/config.ts";
import { authLayer } from "../../auth/mod.ts";
import { fixturePath } from "../_helpers/fixture_app.ts";
import { PG_URL } from "../_helpers/db_apps.ts";
import { ADMIN, createUser, login } from "../auth/_helpers.ts";
import { startS3 } from "./_s3.ts";
import { byteStreamOf } from "./_byte_stream.ts";

export { PG_URL };

/** A test's app and its storage folder. */
export interface FilesCase {
  app: App;
  dir: string;
  dialect: "sqlite" | "postgres";
  /** The test clock (epoch ms); move it with `clock.now += …`. */
  clock: { now: number };
}

let counter = 0;

/** The config of a test: the fixture's, with a storage folder and `uploads` overrides. */
export function filesConfig(
  dir: string,
  uploads: StrataConfig["uploads"] = {},
): StrataConfig {
  return {
    layers: [authLayer()],
    auth: { password: { cost: 1024 }, loginRateLimit: false },
    uploads: {
      storage: { driver: "fs", dir },
      sweepInterval: "1h",
      ...uploads,
    },
  };
}

/**
 * Runs `fn` against the files fixture on SQLite and (when configured) PostgreSQL, with `fs`
 * storage and, when `s3` is set, once more each against an S3-compatible server on loopback.
 */
export function filesTest(
  name: string,
  fn: (c: FilesCase) => Promise<void>,
  uploads: StrataConfig["uploads"] = {},
  options: { s3?: boolean } = {},
): void {
  const stores = options.s3 ? ["fs", "s3"] as const : ["fs"] as const;
  for (const store of stores) {
    for (const dialect of ["sqlite", "postgres"] as const) {
      Deno.test({
        name: `${name} [${dialect}${store === "s3" ? ", s3" : ""}]`,
        ignore: dialect === "postgres" && !PG_URL,
        async fn() {
          const dir = await Deno.makeTempDir({ prefix: "strata_files_" });
          const s3 = store === "s3" ? await startS3() : null;
          const clock = { now: Date.now() };
          const schema = `strata_files_${
            crypto.randomUUID().slice(0, 8)
          }_${++counter}`;
          const app = await createApp({
            root: fixturePath("files_app"),
            config: filesConfig(dir, {
              ...uploads,
              ...(s3 ? { storage: s3.storage } : {}),
            }),
            database: dialect === "sqlite" ? ":memory:" : PG_URL!,
            ...(dialect === "postgres" ? { databaseSchema: schema } : {}),
            now: () => clock.now,
          });
          try {
            await fn({ app, dir, dialect, clock });
          } finally {
            if (dialect === "postgres") {
              await sql`drop schema if exists ${sql.id(schema)} cascade`
                .execute(kyselyOf(app.db));
            }
            await app.close();
            await s3?.close();
            await Deno.remove(dir, { recursive: true });
          }
        },
      });
    }
  }
}

/** A part of a multipart body: JSON data or a file. */
export type Part =
  | { name: string; json: unknown }
  | {
    name: string;
    file: Uint8Array | string;
    filename: string;
    type?: string;
  };

/** A multipart body of `parts`. */
export function form(parts: readonly Part[]): FormData {
  const data = new FormData();
  for (const part of parts) {
    if ("json" in part) {
      data.append(part.name, JSON.stringify(part.json));
    } else {
      data.append(
        part.name,
        new Blob([part.file as BlobPart], { type: part.type ?? "" }),
        part.filename,
      );
    }
  }
  return data;
}

let forms = 0;

/** Sends a request to the app (path relative to http://localhost). */
export async function send(
  app: App,
  method: string,
  path: string,
  init: { body?: BodyInit; json?: unknown; headers?: Record<string, string> } =
    {},
): Promise<
  // deno-lint-ignore no-explicit-any
  { status: number; headers: Headers; body: any; bytes: Uint8Array }
> {
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers.set("content-type", "application/json");
  }
  if (body instanceof FormData && ++forms % 2 === 0) {
    // Every other form goes as a byte stream, as `Deno.serve` hands bodies over (read into
    // the multipart reader's buffer); the rest as the Request's own stream of a FormData.
    const encoded = new Request("http://localhost/", { method: "POST", body });
    headers.set("content-type", encoded.headers.get("content-type")!);
    body = byteStreamOf(new Uint8Array(await encoded.arrayBuffer()), {
      chunk: 7000,
    });
  }
  const response = await app.fetch(
    new Request(new URL(path, "http://localhost"), { method, headers, body }),
    { remoteAddr: { hostname: "192.0.2.1" } } as never,
  );
  const bytes = new Uint8Array(await response.arrayBuffer());
  let parsed: unknown = undefined;
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("json") && bytes.length > 0) {
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  }
  return {
    status: response.status,
    headers: response.headers,
    body: parsed,
    bytes,
  };
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

async function zlib(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(
    new CompressionStream("deflate"),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * A valid RGB PNG of `width`×`height` (a gradient). `claim` writes other dimensions into the
 * header (a decompression bomb's lie) while the pixel data stays small.
 */
export async function png(
  width: number,
  height: number,
  claim?: { width: number; height: number },
): Promise<Uint8Array> {
  const raw = new Uint8Array((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      raw[row + 1 + x * 3] = (x * 255 / width) | 0;
      raw[row + 2 + x * 3] = (y * 255 / height) | 0;
      raw[row + 3 + x * 3] = 128;
    }
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, claim?.width ?? width);
  view.setUint32(4, claim?.height ?? height);
  header.set([8, 2, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", await zlib(raw)),
    chunk("IEND", new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The bytes of a minimal zip archive (an empty one). */
export const ZIP = new Uint8Array([
  0x50,
  0x4b,
  0x05,
  0x06,
  ...new Array(18).fill(0),
]);

/** A zip that starts with a local file header (what sniffing sees first). */
export const ZIP_ENTRY = new Uint8Array([
  0x50,
  0x4b,
  0x03,
  0x04,
  0x14,
  0,
  0,
  0,
  0,
  0,
  ...new Array(40).fill(0),
]);

/** The files left in a storage folder (recursively). */
export async function storedFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (path: string) => {
    for await (const entry of Deno.readDir(path)) {
      const child = `${path}/${entry.name}`;
      if (entry.isDirectory) await walk(child);
      else out.push(child.slice(dir.length + 1));
    }
  };
  await walk(dir);
  return out.sort();
}

/** Rows of `_strata_files`. */
export async function fileRowCount(app: App): Promise<number> {
  const row = await kyselyOf(app.db).selectFrom("_strata_files")
    .select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** SHA-256 of bytes as lower-case hex. */
export async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as BufferSource);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

/** A new user with `roles`, signed in: their session cookie. */
export async function signedIn(app: App, email: string, roles: string[]) {
  await createUser(app, { email, password: ADMIN.password, roles });
  return await login(app, email, ADMIN.password);
}

/** `POST /files?<query>` of one file, as `cookie`'s user (anonymous when `null`). */
export async function uploadFirst(
  app: App,
  cookie: string | null,
  query: string,
  file: Uint8Array | string,
  filename = "a.png",
) {
  return await send(app, "POST", `/files?${query}`, {
    body: form([{ name: "file", file, filename }]),
    headers: cookie ? { cookie, origin: "http://localhost" } : {},
  });
}
