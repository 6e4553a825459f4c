/**
 * Files benchmark (issue 14), on loopback with `wrk`:
 * - download: a public 10 MiB file from Strata's `GET /files/<uuid>/<name>` against
 *   `Deno.serve` streaming the same file from disk: target ≥ 0.8× the peer's throughput;
 * - upload: a 10 MiB file as a multipart record create (streamed to fs storage: sniffed,
 *   hashed, fsync'd, a row in `_strata_files`, the record written) against a hand-written
 *   `Deno.serve` endpoint streaming the same body to a temporary file, hashing it, fsync'ing
 *   and renaming it: target ≥ 0.7×.
 * Both servers answer the same bytes (checked first). Run alone:
 * `deno run -A bench/files/run.ts`.
 *
 * @module
 */
import {
  loadDescription,
  ROUNDS,
  type Server,
  startServer,
  wrk,
} from "../_load.ts";
import { type BenchReport, type Comparison, printReport } from "../_report.ts";
import { FILE_SIZE, fileBytes, uploadBody } from "./_shape.ts";

const SERVER = new URL("./server.ts", import.meta.url);
const PORT = 8960;
const DOWNLOAD_CONNECTIONS = 8;
const UPLOAD_CONNECTIONS = 4;
const BOUNDARY = "strata-bench-boundary-0123456789";
const MIB = 1024 * 1024;

async function sha256(bytes: ArrayBuffer | Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as BufferSource);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

/** The path Strata serves the file at (from its descriptor). */
async function strataFilePath(server: Server): Promise<string> {
  const response = await fetch(
    `http://127.0.0.1:${server.port}/collections/blobs`,
  );
  const records = await response.json() as { body: { url: string } }[];
  return records[0].body.url;
}

async function checkSameBytes(
  strata: Server,
  peer: Server,
  strataPath: string,
): Promise<void> {
  const expected = await sha256(fileBytes());
  for (
    const [server, path] of [[strata, strataPath], [peer, "/file"]] as const
  ) {
    const response = await fetch(`http://127.0.0.1:${server.port}${path}`);
    const got = await sha256(await response.arrayBuffer());
    if (response.status !== 200 || got !== expected) {
      throw new Error(
        `Port ${server.port} serves other bytes (${response.status})`,
      );
    }
  }
  const body = uploadBody(BOUNDARY);
  for (
    const [server, path] of [[strata, "/collections/blobs"], [
      peer,
      "/upload",
    ]] as const
  ) {
    const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
      body: body as BodyInit,
    });
    const text = await response.text();
    if (response.status !== 201) {
      throw new Error(`Port ${server.port} refused the upload: ${text}`);
    }
  }
}

/** Measures both servers and returns the report. */
export async function filesBench(): Promise<BenchReport> {
  const dir = await Deno.makeTempDir({ prefix: "strata_files_bench_" });
  const servers: Server[] = [];
  try {
    await Deno.mkdir(`${dir}/strata`);
    await Deno.mkdir(`${dir}/peer`);
    const ours = await startServer(SERVER, [
      "strata",
      String(PORT),
      `${dir}/strata`,
    ], PORT);
    servers.push(ours);
    const peer = await startServer(SERVER, [
      "peer",
      String(PORT + 1),
      `${dir}/peer`,
    ], PORT + 1);
    servers.push(peer);
    const strataPath = await strataFilePath(ours);
    await checkSameBytes(ours, peer, strataPath);
    const bodyFile = `${dir}/upload.body`;
    await Deno.writeFile(bodyFile, uploadBody(BOUNDARY));
    const script = `
local f = io.open("${bodyFile}", "rb")
wrk.body = f:read("*a")
f:close()
wrk.method = "POST"
wrk.headers["Content-Type"] = "multipart/form-data; boundary=${BOUNDARY}"
`;
    const download = (server: Server, path: string) =>
      wrk(`http://127.0.0.1:${server.port}${path}`, {
        connections: DOWNLOAD_CONNECTIONS,
        timeout: "10s",
      });
    const upload = (server: Server, path: string) =>
      wrk(`http://127.0.0.1:${server.port}${path}`, {
        connections: UPLOAD_CONNECTIONS,
        script,
        timeout: "20s",
      });
    const best = { download: [0, 0], upload: [0, 0] };
    await download(ours, strataPath);
    await download(peer, "/file");
    for (let round = 0; round < ROUNDS; round++) {
      best.download[0] = Math.max(
        best.download[0],
        await download(ours, strataPath),
      );
      best.download[1] = Math.max(
        best.download[1],
        await download(peer, "/file"),
      );
      best.upload[0] = Math.max(
        best.upload[0],
        await upload(ours, "/collections/blobs"),
      );
      best.upload[1] = Math.max(best.upload[1], await upload(peer, "/upload"));
    }
    const mib = FILE_SIZE / MIB;
    const rows: Comparison[] = [
      {
        measure: "download MiB/s (10 MiB public file)",
        peer: "Deno.serve streaming the file",
        peerValue: best.download[1] * mib,
        ours: best.download[0] * mib,
        min: 0.8,
      },
      {
        measure: "upload MiB/s (10 MiB multipart create)",
        peer: "hand-written streaming endpoint",
        peerValue: best.upload[1] * mib,
        ours: best.upload[0] * mib,
        min: 0.7,
      },
    ];
    return {
      title: "Files: download and upload throughput",
      method: `${await loadDescription(
        DOWNLOAD_CONNECTIONS,
      )} for downloads, ${UPLOAD_CONNECTIONS} connections for uploads; fs storage on the same disk for both`,
      rows,
    };
  } finally {
    for (const server of servers) await server.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) printReport(await filesBench());
