// An S3-compatible server on loopback for the tests: s3rver from npm (test-only; loaded by
// the tests alone, never by the framework).
import type { StorageConfig } from "../../app/config.ts";

export interface LocalS3 {
  /** The storage config pointing at the server's bucket. */
  storage: Extract<StorageConfig, { driver: "s3" }>;
  close(): Promise<void>;
}

/** Starts s3rver on 127.0.0.1 (port 0) with an empty bucket. */
export async function startS3(bucket = "uploads"): Promise<LocalS3> {
  const { default: S3rver } = await import("npm:s3rver@3.7.1");
  const directory = await Deno.makeTempDir({ prefix: "strata_s3_" });
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const address = await server.run() as { address: string; port: number };
  return {
    storage: {
      driver: "s3",
      bucket,
      endpoint: `http://127.0.0.1:${address.port}`,
      region: "us-east-1",
      accessKeyId: "S3RVER",
      secretAccessKey: "S3RVER",
      forcePathStyle: true,
    },
    async close() {
      await server.close();
      await Deno.remove(directory, { recursive: true }).catch(() => {});
    },
  };
}
