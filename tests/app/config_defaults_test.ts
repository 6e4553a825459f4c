// The config's defaults: every limit an empty config leaves out, as the numbers the app runs
// with (the defaults are kept as numbers, not parsed at boot), and a given limit still parsed
// from its string, a bad one naming its key.
import assert from "node:assert/strict";
import { resolveConfig } from "../../app/config.ts";
import { resolveMailSettings } from "../../mail/settings.ts";

const SOURCE = "/srv/app/strata.config.ts";

Deno.test("an empty config resolves every limit to its documented default", () => {
  const config = resolveConfig({}, SOURCE);
  assert.equal(config.database.busyTimeout, 2_000);
  assert.equal(config.api.maxBodySize, 1024 * 1024);
  assert.equal(config.api.handlerTimeout, 30_000);
  assert.equal(config.api.waitUntilTimeout, Infinity);
  assert.equal(config.api.trustProxy, false);
  assert.equal(config.query.timeout, 10_000);
  assert.deepEqual(
    { ...config.events },
    {
      retention: 86_400_000,
      maxRows: 1_000_000,
      pollInterval: 100,
      retryBase: 30_000,
      retryFor: 86_400_000,
      maxStreamsPerUser: 10,
      maxStreams: 10_000,
      maxBuffered: 1_000,
    },
  );
  assert.deepEqual(
    { ...config.webhooks },
    {
      timeout: 10_000,
      retryBase: 30_000,
      retryFor: 86_400_000,
      claimTtl: 60_000,
      allowInsecure: false,
      allowPrivateNetworks: false,
    },
  );
  assert.equal(config.uploads.maxSize, 100 * 1024 * 1024);
  assert.equal(config.uploads.orphanTtl, 86_400_000);
  assert.equal(config.uploads.sweepInterval, 60_000);
  assert.equal(config.uploads.signedUrlMaxAge, 3_600_000);
  assert.equal(config.mail.retryBase, 30_000);
  assert.equal(config.mail.retryFor, 3_600_000);
});

Deno.test("a limit the config gives is parsed, and a bad one names its key", () => {
  const config = resolveConfig({
    api: { maxBodySize: "2mb", waitUntilTimeout: "5s", trustProxy: 1 },
    events: { pollInterval: "50ms" },
    uploads: { orphanTtl: "2h" },
    webhooks: { timeout: "1s" },
    mail: { retryBase: "1m" },
  }, SOURCE);
  assert.equal(config.api.maxBodySize, 2 * 1024 * 1024);
  assert.equal(config.api.waitUntilTimeout, 5_000);
  assert.equal(config.api.trustProxy, 1);
  assert.equal(config.events.pollInterval, 50);
  assert.equal(config.uploads.orphanTtl, 7_200_000);
  assert.equal(config.webhooks.timeout, 1_000);
  assert.equal(config.mail.retryBase, 60_000);
  assert.throws(
    () => resolveConfig({ api: { handlerTimeout: "soon" } }, SOURCE),
    /strata\.config\.ts: .*api\.handlerTimeout/,
  );
  assert.throws(
    () => resolveConfig({ api: { trustProxy: 0 } }, SOURCE),
    /strata\.config\.ts: .*api\.trustProxy/,
  );
  assert.throws(
    () => resolveMailSettings({ retryFor: "later" }, SOURCE),
    /strata\.config\.ts: .*mail\.retryFor/,
  );
});

Deno.test("a section given in part takes the defaults of what it leaves out", () => {
  const defaults = resolveConfig({}, SOURCE);
  const config = resolveConfig({
    uploads: { imageWidths: [640, 64] },
    events: {},
    webhooks: {},
    mail: {},
  }, SOURCE);
  assert.deepEqual(config.uploads.imageWidths, [64, 640]);
  assert.deepEqual(
    { ...config.uploads, imageWidths: undefined },
    { ...defaults.uploads, imageWidths: undefined },
  );
  assert.deepEqual(config.events, defaults.events);
  assert.deepEqual(config.webhooks, defaults.webhooks);
  assert.deepEqual(config.mail, defaults.mail);
  assert.throws(
    () =>
      resolveConfig(
        { uploads: { storage: { driver: "ftp" as "fs" } } },
        SOURCE,
      ),
    /uploads\.storage\.driver must be "fs" or "s3"/,
  );
});

Deno.test("a section left out resolves as the same section given empty", () => {
  const empty = {
    api: {},
    events: {},
    webhooks: {},
    uploads: {},
    mail: {},
  };
  for (const validateResponses of [undefined, false, true]) {
    const defaults = resolveConfig({}, SOURCE, { validateResponses });
    const given = resolveConfig(empty, SOURCE, { validateResponses });
    assert.deepEqual(defaults, given);
    assert.equal(defaults.api.validateResponses, validateResponses === true);
    assert.ok(Object.isFrozen(defaults.api));
  }
  assert.deepEqual(resolveConfig({}, SOURCE).api, {
    basePath: "",
    maxBodySize: 1024 * 1024,
    handlerTimeout: 30_000,
    waitUntilTimeout: Infinity,
    validateResponses: false,
    openapi: "/openapi.json",
    trustProxy: false,
    publicUrl: null,
  });
});
