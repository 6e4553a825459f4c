import assert from "node:assert/strict";
import {
  assertPasswordOptions,
  dummyVerify,
  hashPassword,
  passwordNeedsRehash,
  randomToken,
  sha256Base64Url,
  verifyPassword,
} from "../../utils/crypto.ts";

const FAST = { cost: 1024 };
const HASH_SHAPE = /^scrypt\$1024\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{86}$/;

Deno.test("hashPassword writes the documented format", async () => {
  const hash = await hashPassword("correct horse", FAST);
  assert.match(hash, HASH_SHAPE);
});

Deno.test("hashPassword salts every hash", async () => {
  const a = await hashPassword("same", FAST);
  const b = await hashPassword("same", FAST);
  assert.notEqual(a, b);
  assert.notEqual(a.split("$")[4], b.split("$")[4]);
  assert.ok(await verifyPassword("same", a));
  assert.ok(await verifyPassword("same", b));
});

Deno.test("verifyPassword accepts the right password and refuses others", async () => {
  const hash = await hashPassword("correct horse", FAST);
  assert.equal(await verifyPassword("correct horse", hash), true);
  assert.equal(await verifyPassword("correct horsE", hash), false);
  assert.equal(await verifyPassword("", hash), false);
  assert.equal(await verifyPassword("correct horse ", hash), false);
});

Deno.test("verifyPassword handles empty and non-ASCII passwords", async () => {
  const empty = await hashPassword("", FAST);
  assert.equal(await verifyPassword("", empty), true);
  assert.equal(await verifyPassword(" ", empty), false);
  const unicode = await hashPassword("pässwörd 🔑", FAST);
  assert.equal(await verifyPassword("pässwörd 🔑", unicode), true);
  assert.equal(await verifyPassword("passwörd 🔑", unicode), false);
});

Deno.test("verifyPassword reads the parameters from the hash", async () => {
  const hash = await hashPassword("pw", { cost: 1024, blockSize: 4 });
  assert.match(hash, /^scrypt\$1024\$4\$1\$/);
  // Verification never consults the current options, only the hash.
  assert.equal(await verifyPassword("pw", hash), true);
  const parallel = await hashPassword("pw", {
    cost: 256,
    blockSize: 2,
    parallelization: 3,
  });
  assert.match(parallel, /^scrypt\$256\$2\$3\$/);
  assert.equal(await verifyPassword("pw", parallel), true);
});

Deno.test("verifyPassword fails when a parameter in the hash is altered", async () => {
  const hash = await hashPassword("pw", FAST);
  const parts = hash.split("$");
  const altered = [parts[0], "2048", ...parts.slice(2)].join("$");
  assert.equal(await verifyPassword("pw", altered), false);
  const otherSalt = await hashPassword("pw", FAST);
  const swapped = [...parts.slice(0, 4), otherSalt.split("$")[4], parts[5]]
    .join("$");
  assert.equal(await verifyPassword("pw", swapped), false);
});

Deno.test("verifyPassword returns false for malformed hashes, never throws", async () => {
  const good = await hashPassword("pw", FAST);
  const [, , , , salt, key] = good.split("$");
  const malformed: unknown[] = [
    "",
    "scrypt",
    "not a hash",
    `bcrypt$1024$8$1$${salt}$${key}`,
    `SCRYPT$1024$8$1$${salt}$${key}`,
    `$scrypt$1024$8$1$${salt}$${key}`,
    `scrypt$1024$8$1$${salt}$${key}$`,
    `scrypt$1024$8$1$${salt}`,
    `scrypt$1024$8$${salt}$${key}`,
    `scrypt$abc$8$1$${salt}$${key}`,
    `scrypt$1024.0$8$1$${salt}$${key}`,
    `scrypt$01024$8$1$${salt}$${key}`,
    `scrypt$-1024$8$1$${salt}$${key}`,
    `scrypt$+1024$8$1$${salt}$${key}`,
    `scrypt$1e3$8$1$${salt}$${key}`,
    `scrypt$ 1024$8$1$${salt}$${key}`,
    `scrypt$1000$8$1$${salt}$${key}`, // not a power of two
    `scrypt$1$8$1$${salt}$${key}`, // below 2
    `scrypt$0$8$1$${salt}$${key}`,
    `scrypt$1024$0$1$${salt}$${key}`,
    `scrypt$1024$8$0$${salt}$${key}`,
    `scrypt$1073741824$8$1$${salt}$${key}`, // absurd memory
    `scrypt$1048576$64$1$${salt}$${key}`, // absurd memory
    `scrypt$262144$8$16$${salt}$${key}`, // absurd work
    `scrypt$1024$8$99999$${salt}$${key}`,
    `scrypt$99999999999999999999$8$1$${salt}$${key}`,
    `scrypt$1024$8$1$$${key}`, // empty salt
    `scrypt$1024$8$1$${salt}$`, // empty key
    `scrypt$1024$8$1$${salt}==$${key}`, // padding
    `scrypt$1024$8$1$${salt.replace(/./, "+")}$${key}`, // base64, not url
    `scrypt$1024$8$1$${salt}$${key.slice(0, -1)}`, // truncated key
    `scrypt$1024$8$1$${salt}$${key}AA`, // long key
    `scrypt$1024$8$1$${salt}$${key.slice(0, -1)}!`,
    `scrypt$1024$8$1$${salt}$${key.slice(0, -1)}B`, // stray trailing bits
    `scrypt$1024$8$1$QUJD$${key}`, // 3-byte salt
    `scrypt$1024$8$1$${salt}$${key}`.padEnd(2000, "A"),
    null,
    undefined,
    42,
    {},
  ];
  for (const hash of malformed) {
    assert.equal(
      await verifyPassword("pw", hash as string),
      false,
      `expected false for ${String(hash)}`,
    );
  }
  // Sanity: the untouched pieces still verify, so the cases above fail for
  // their one defect only.
  assert.equal(
    await verifyPassword("pw", `scrypt$1024$8$1$${salt}$${key}`),
    true,
  );
});

Deno.test("verifyPassword returns false for a non-string password", async () => {
  const hash = await hashPassword("pw", FAST);
  assert.equal(
    await verifyPassword(undefined as unknown as string, hash),
    false,
  );
});

Deno.test("passwordNeedsRehash compares every parameter", async () => {
  const hash = await hashPassword("pw", FAST);
  assert.equal(passwordNeedsRehash(hash, FAST), false);
  assert.equal(
    passwordNeedsRehash(hash, { cost: 1024, blockSize: 8, parallelization: 1 }),
    false,
  );
  assert.equal(passwordNeedsRehash(hash), true); // default cost 32768
  assert.equal(passwordNeedsRehash(hash, { cost: 2048 }), true);
  assert.equal(passwordNeedsRehash(hash, { cost: 512 }), true);
  assert.equal(passwordNeedsRehash(hash, { cost: 1024, blockSize: 4 }), true);
  assert.equal(
    passwordNeedsRehash(hash, { cost: 1024, parallelization: 2 }),
    true,
  );
  assert.equal(passwordNeedsRehash("garbage", FAST), true);
  assert.throws(() => passwordNeedsRehash(hash, { cost: 1000 }), RangeError);
});

Deno.test("assertPasswordOptions fills defaults", () => {
  assert.deepEqual(assertPasswordOptions({}), {
    cost: 32768,
    blockSize: 8,
    parallelization: 1,
  });
  assert.deepEqual(assertPasswordOptions({ cost: 2, blockSize: 1 }), {
    cost: 2,
    blockSize: 1,
    parallelization: 1,
  });
});

Deno.test("assertPasswordOptions requires a power-of-two cost of at least 2", () => {
  for (const cost of [2, 4, 1024, 16384, 32768, 65536]) {
    assert.equal(assertPasswordOptions({ cost }).cost, cost);
  }
  for (const cost of [0, 1, 3, 1000, 32767, 32769, 48000]) {
    assert.throws(
      () => assertPasswordOptions({ cost }),
      (error: unknown) =>
        error instanceof RangeError &&
        /^auth\.password\.cost must be/.test(error.message),
      `cost ${cost}`,
    );
  }
  assert.throws(() => assertPasswordOptions({ cost: 1000 }), {
    name: "RangeError",
    message: "auth.password.cost must be a power of two",
  });
});

Deno.test("assertPasswordOptions names the key under the given prefix", () => {
  assert.throws(() => assertPasswordOptions({ cost: 1.5 }, "x.pw"), {
    name: "TypeError",
    message: "x.pw.cost must be an integer",
  });
  assert.throws(
    () => assertPasswordOptions({ blockSize: "8" as unknown as number }),
    {
      name: "TypeError",
      message: "auth.password.blockSize must be an integer",
    },
  );
  assert.throws(() => assertPasswordOptions({ parallelization: 0 }), {
    name: "RangeError",
    message: "auth.password.parallelization must be at least 1",
  });
  assert.throws(() => assertPasswordOptions({ blockSize: 1000 }), {
    message: "auth.password.blockSize must be at most 64",
  });
  assert.throws(
    () => assertPasswordOptions({ cost: 2 ** 22 }),
    /^RangeError: auth\.password\.cost times blockSize must be at most/,
  );
  assert.throws(() => assertPasswordOptions(null as unknown as object), {
    name: "TypeError",
    message: "auth.password must be an object",
  });
});

Deno.test("hashPassword refuses invalid options and non-string passwords", async () => {
  await assert.rejects(() => hashPassword("pw", { cost: 1000 }), RangeError);
  await assert.rejects(
    () => hashPassword(42 as unknown as string, FAST),
    { name: "TypeError", message: "Password must be a string" },
  );
});

Deno.test("dummyVerify completes, repeatedly, and validates options", async () => {
  await dummyVerify(FAST);
  await dummyVerify(FAST);
  await dummyVerify({ cost: 256, blockSize: 2 });
  await assert.rejects(() => dummyVerify({ cost: 3 }), RangeError);
});

Deno.test("randomToken is base64url of 32 random bytes", () => {
  const token = randomToken();
  assert.match(token, /^[A-Za-z0-9_-]{43}$/);
  const bytes = Uint8Array.fromBase64(token, { alphabet: "base64url" });
  assert.equal(bytes.length, 32);
  const seen = new Set(Array.from({ length: 50 }, () => randomToken()));
  assert.equal(seen.size, 50);
  assert.match(randomToken(16), /^[A-Za-z0-9_-]{22}$/);
  assert.match(randomToken(1), /^[A-Za-z0-9_-]{2}$/);
  assert.throws(() => randomToken(0), RangeError);
  assert.throws(() => randomToken(1.5), RangeError);
  assert.throws(() => randomToken(70000), RangeError);
});

Deno.test("sha256Base64Url matches known digests", async () => {
  assert.equal(
    await sha256Base64Url("abc"),
    "ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0",
  );
  assert.equal(
    await sha256Base64Url(""),
    "47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU",
  );
  assert.match(await sha256Base64Url("é"), /^[A-Za-z0-9_-]{43}$/);
  assert.notEqual(await sha256Base64Url("a"), await sha256Base64Url("b"));
});
