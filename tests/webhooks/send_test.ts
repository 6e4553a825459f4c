// One attempt over TLS on loopback: the connection goes to the address the check resolved,
// TLS is verified for the URL's host name (a certificate for localhost from a test CA that
// only this test trusts), and the request is one HTTP/1.1 POST.
import assert from "node:assert/strict";
import { attemptDelivery } from "../../webhooks/send.ts";

const TLS = new URL("../fixtures/tls/", import.meta.url);
const ca = await Deno.readTextFile(new URL("ca.crt", TLS));
const cert = await Deno.readTextFile(new URL("localhost.crt", TLS));
const key = await Deno.readTextFile(new URL("localhost.key", TLS));

Deno.test("an https attempt speaks TLS verified for the URL's host to the checked address", async () => {
  const seen: string[] = [];
  const handler = async (request: Request) => {
    seen.push(
      `${request.headers.get("host")} ${
        request.headers.get("x-a")
      } ${await request
        .text()}`,
    );
    return new Response(null, { status: 204 });
  };
  // Dual-stack where there is IPv6, so localhost answers whichever address it resolves to.
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = Deno.serve(
      { hostname: "::", port: 0, cert, key, onListen() {} },
      handler,
    );
  } catch {
    server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, cert, key, onListen() {} },
      handler,
    );
  }
  const port = server.addr.port;
  try {
    const request = {
      // The check connects to what localhost resolves to; the certificate names localhost.
      url: new URL(`https://localhost:${port}/hook?x=1`),
      body: '{"id":1,"text":"é"}',
      headers: { "Content-Type": "application/json", "X-A": "b" },
      timeout: 10_000,
      policy: { allowInsecure: false, allowPrivateNetworks: true },
      caCerts: [ca],
    };
    const result = await attemptDelivery(request);
    assert.deepEqual(result, { ok: true, status: 204, error: null });
    assert.deepEqual(seen, [`localhost:${port} b {"id":1,"text":"é"}`]);
    // Without the test CA the handshake fails: TLS is verified, never skipped.
    const untrusted = await attemptDelivery({ ...request, caCerts: undefined });
    assert.equal(untrusted.ok, false);
    assert.equal(untrusted.status, null);
    assert.match(untrusted.error!, /^The request failed: /);
    // Private targets stay refused over https too, before any connection.
    const before = seen.length;
    const refused = await attemptDelivery({
      ...request,
      policy: { allowInsecure: false, allowPrivateNetworks: false },
    });
    assert.equal(refused.ok, false);
    assert.match(
      refused.error!,
      /^Refused: localhost resolves to a non-public address/,
    );
    assert.equal(seen.length, before);
  } finally {
    await server.shutdown();
  }
});
