import assert from "node:assert/strict";
import { defineWebhook, verifyWebhook } from "../../mod.ts";
import { signWebhook } from "../../webhooks/signature.ts";
import { isPrivateAddress } from "../../webhooks/target.ts";
import { resolveConfig } from "../../app/config.ts";
import { retryDelay } from "../../collections/changes/retry.ts";

const SECRET = "unit-secret-0123456789";

async function signed(
  body: string,
  options: { secret?: string; time?: number; header?: string } = {},
): Promise<Request> {
  const time = options.time ?? Math.floor(Date.now() / 1000);
  const signature = options.header ??
    await signWebhook(options.secret ?? SECRET, body, time);
  return new Request("http://127.0.0.1/hook", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "strata-signature": signature,
    },
    body,
  });
}

Deno.test("verifyWebhook answers the body of a good signature, null otherwise", async () => {
  const body = JSON.stringify({
    id: 7,
    collection: "Orders",
    op: "create",
    record: { UUID: "x" },
    at: 1,
  });
  assert.deepEqual(
    await verifyWebhook(await signed(body), SECRET),
    JSON.parse(body),
  );
  // Tampered body, wrong secret, no header, malformed header.
  assert.equal(
    await verifyWebhook(
      new Request("http://127.0.0.1/", {
        method: "POST",
        headers: (await signed(body)).headers,
        body: body.replace("7", "8"),
      }),
      SECRET,
    ),
    null,
  );
  assert.equal(
    await verifyWebhook(await signed(body), "another-secret-0123"),
    null,
  );
  assert.equal(
    await verifyWebhook(
      new Request("http://127.0.0.1/", { method: "POST", body }),
      SECRET,
    ),
    null,
  );
  assert.equal(
    await verifyWebhook(await signed(body, { header: "t=abc,v1=zz" }), SECRET),
    null,
  );
  assert.equal(await verifyWebhook(await signed(body), ""), null);
  // Outside the tolerance (default 5m), in either direction; a wider tolerance accepts.
  const old = Math.floor(Date.now() / 1000) - 6 * 60;
  assert.equal(
    await verifyWebhook(await signed(body, { time: old }), SECRET),
    null,
  );
  const future = Math.floor(Date.now() / 1000) + 6 * 60;
  assert.equal(
    await verifyWebhook(await signed(body, { time: future }), SECRET),
    null,
  );
  assert.deepEqual(
    await verifyWebhook(await signed(body, { time: old }), SECRET, {
      tolerance: "10m",
    }),
    JSON.parse(body),
  );
  // Several v1 signatures (a rotated secret): one match is enough.
  const time = Math.floor(Date.now() / 1000);
  const good = (await signWebhook(SECRET, body, time)).split(",")[1];
  const other =
    (await signWebhook("rotated-secret-012345", body, time)).split(",")[1];
  assert.deepEqual(
    await verifyWebhook(
      await signed(body, { header: `t=${time},${other},${good}` }),
      SECRET,
    ),
    JSON.parse(body),
  );
  // A signed body that is not JSON.
  assert.equal(await verifyWebhook(await signed("not json"), SECRET), null);
});

Deno.test("the signature is HMAC-SHA256 of '<t>.<body>' in hex", async () => {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(SECRET),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(
    await crypto.subtle.sign(
      "HMAC",
      key,
      new TextEncoder().encode("1700000000.{}"),
    ),
  );
  const hex = Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
  assert.equal(
    await signWebhook(SECRET, "{}", 1700000000),
    `t=1700000000,v1=${hex}`,
  );
});

Deno.test("isPrivateAddress knows the non-public ranges", () => {
  for (
    const address of [
      "127.0.0.1",
      "127.255.0.9",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "198.18.0.1",
      "::1",
      "::",
      "fe80::1",
      "fc00::1",
      "fd12:3456::1",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:10.0.0.1",
      "64:ff9b::a9fe:a9fe",
      "2002:7f00:1::",
      "2001:db8::1",
      "not an address",
    ]
  ) assert.equal(isPrivateAddress(address), true, address);
  for (
    const address of [
      "93.184.216.34",
      "8.8.8.8",
      "172.32.0.1",
      "192.169.0.1",
      "100.128.0.1",
      "2606:4700::1111",
      "::ffff:8.8.8.8",
    ]
  ) assert.equal(isPrivateAddress(address), false, address);
});

Deno.test("defineWebhook checks its options", () => {
  const ok = { url: "https://example.com/hook", secret: SECRET };
  assert.equal(defineWebhook(ok).url.href, "https://example.com/hook");
  assert.deepEqual(defineWebhook(ok).ops, ["create", "update", "delete"]);
  assert.equal(defineWebhook(ok).collections, undefined);
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ ...ok, url: "nope" }, /url must be an absolute URL/],
    [{ ...ok, url: "ftp://example.com/" }, /https: \(or http:\) URL/],
    [{ ...ok, url: "https://u:p@example.com/" }, /must not carry credentials/],
    [{ ...ok, secret: "short" }, /secret must be a string of at least 16/],
    [
      { ...ok, ops: ["upsert"] },
      /ops must be a non-empty list of create, update, delete/,
    ],
    [{ ...ok, collections: [] }, /collections must be a non-empty list/],
    [
      { ...ok, headers: { "Strata-Signature": "x" } },
      /header "Strata-Signature" is set by Strata/,
    ],
    [{ ...ok, headers: { "Content-Type": "x" } }, /is set by Strata/],
    [{ ...ok, headers: { "X-A": "a\r\nB: c" } }, /without line breaks/],
    [
      { ...ok, headers: { "bad name": "x" } },
      /header name "bad name" is not valid/,
    ],
    [{ ...ok, when: 1 }, /unknown option "when"/],
  ];
  for (const [options, message] of bad) {
    assert.throws(() => defineWebhook(options as never), message);
  }
});

Deno.test("the webhooks config: defaults, and a claim shorter than two timeouts is refused", () => {
  const { webhooks } = resolveConfig({}, "strata.config.ts");
  assert.deepEqual(webhooks, {
    timeout: 10_000,
    retryBase: 30_000,
    retryFor: 86_400_000,
    claimTtl: 60_000,
    allowInsecure: false,
    allowPrivateNetworks: false,
  });
  assert.throws(
    () => resolveConfig({ webhooks: { timeout: "40s" } }, "strata.config.ts"),
    /strata.config.ts: webhooks.claimTtl must be at least twice webhooks.timeout/,
  );
  assert.throws(
    () =>
      resolveConfig({ webhooks: { allowInsecure: "yes" as never } }, "c.ts"),
    /webhooks.allowInsecure must be true or false/,
  );
  assert.throws(
    () => resolveConfig({ webhooks: { retryBase: "soon" } }, "c.ts"),
    /webhooks.retryBase/,
  );
  assert.throws(
    () => resolveConfig({ webhooks: { nope: 1 } as never }, "c.ts"),
    /unknown config key "webhooks.nope"/,
  );
});

Deno.test("retryDelay doubles, caps at an hour, and jitters into the upper half", () => {
  assert.deepEqual([1, 2, 3, 4].map((n) => retryDelay(1000, n)), [
    1000,
    2000,
    4000,
    8000,
  ]);
  assert.equal(retryDelay(30_000, 20), 3_600_000);
  assert.equal(retryDelay(1000, 3, () => 0), 2000);
  assert.equal(retryDelay(1000, 3, () => 0.999999), 4000);
});

Deno.test("verifyWebhook says so when the request body was read already", async () => {
  const request = await signed("{}");
  await request.text();
  await assert.rejects(
    verifyWebhook(request, SECRET),
    /the request body was already read \(in a Strata handler, pass the event\)/,
  );
});
