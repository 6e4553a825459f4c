// SigV4 against the examples AWS publishes for S3 ("Signature Calculations for the
// Authorization Header: Transferring Payload in a Single Chunk").
import assert from "node:assert/strict";
import {
  EMPTY_HASH,
  sha256Hex,
  signRequest,
} from "../../files/storage/sigv4.ts";

const credentials = {
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  region: "us-east-1",
};
const NOW = Date.UTC(2013, 4, 24);
const HOST = "https://examplebucket.s3.amazonaws.com";

function signature(headers: Record<string, string>): string {
  return /Signature=([0-9a-f]{64})$/.exec(headers.authorization)![1];
}

Deno.test("SigV4 signs AWS's GET Object example", () => {
  const headers = signRequest(credentials, {
    method: "GET",
    url: new URL(`${HOST}/test.txt`),
    headers: { range: "bytes=0-9" },
    payloadHash: EMPTY_HASH,
  }, NOW);
  assert.equal(headers["x-amz-date"], "20130524T000000Z");
  assert.equal(
    headers.authorization,
    "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
  );
});

Deno.test("SigV4 signs AWS's PUT Object example (payload hashed)", () => {
  const headers = signRequest(credentials, {
    method: "PUT",
    url: new URL(`${HOST}/test%24file.text`),
    headers: {
      date: "Fri, 24 May 2013 00:00:00 GMT",
      "x-amz-storage-class": "REDUCED_REDUNDANCY",
    },
    payloadHash: sha256Hex("Welcome to Amazon S3."),
  }, NOW);
  assert.equal(
    signature(headers),
    "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd",
  );
});

Deno.test("SigV4 signs AWS's query string examples", () => {
  const lifecycle = signRequest(credentials, {
    method: "GET",
    url: new URL(`${HOST}/?lifecycle`),
    payloadHash: EMPTY_HASH,
  }, NOW);
  assert.equal(
    signature(lifecycle),
    "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543",
  );
  const list = signRequest(credentials, {
    method: "GET",
    url: new URL(`${HOST}/?max-keys=2&prefix=J`),
    payloadHash: EMPTY_HASH,
  }, NOW);
  assert.equal(
    signature(list),
    "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7",
  );
});
