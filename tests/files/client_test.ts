// The client's upload: POST /files as a signed-in user, then a create names the UUID.
import assert from "node:assert/strict";
import { createClient, StrataError } from "../../client/mod.ts";
import { filesTest, png } from "./_helpers.ts";
import { serveOnSocket } from "../_helpers/socket.ts";
import { ADMIN, createUser } from "../auth/_helpers.ts";

filesTest(
  "the client uploads first and attaches the file with a create",
  async ({ app }) => {
    await createUser(app, {
      email: "editor@example.com",
      password: ADMIN.password,
      roles: ["editor"],
    });
    const served = serveOnSocket(app);
    try {
      const client = createClient({ baseUrl: served.url });
      const albums = client.collection("Albums");
      await assert.rejects(
        albums.upload(
          "cover",
          new Blob([await png(3, 3) as BlobPart]),
          "c.png",
        ),
        (error: unknown) =>
          error instanceof StrataError && error.status === 401,
      );
      await client.auth.login({
        email: "editor@example.com",
        password: ADMIN.password,
      });
      const file = await albums.upload(
        "cover",
        new Blob([await png(3, 3) as BlobPart]),
        "c.png",
      );
      assert.equal(file.type, "image/png");
      assert.equal(file.width, 3);
      const album = await albums.create({ name: "A", cover: file.UUID }) as {
        cover: { UUID: string };
      };
      assert.equal(album.cover.UUID, file.UUID);
    } finally {
      await served.close();
    }
  },
);

filesTest(
  "without XMLHttpRequest the upload reports its progress once, at the end, after the server answered",
  async ({ app }) => {
    assert.equal("XMLHttpRequest" in globalThis, false);
    await createUser(app, {
      email: "editor@example.com",
      password: ADMIN.password,
      roles: ["editor"],
    });
    const served = serveOnSocket(app);
    try {
      const client = createClient({ baseUrl: served.url });
      const photos = client.collection("Photos");
      const bytes = new Uint8Array(300_000).fill(7);
      const calls: { loaded: number; total: number }[] = [];
      const onProgress = (progress: { loaded: number; total: number }) =>
        calls.push(progress);

      // A refusal: no call at all, and the same StrataError as without onProgress.
      const refusals: unknown[] = [];
      for (const options of [{ onProgress }, {}]) {
        await photos.upload("attachment", new Blob([bytes]), options).catch(
          (error: unknown) => refusals.push(error),
        );
      }
      assert.equal(refusals.length, 2);
      for (const error of refusals) {
        assert.ok(error instanceof StrataError);
        assert.equal(error.status, 401);
      }
      const [withProgress, without] = refusals as StrataError[];
      assert.deepEqual(
        [withProgress.message, withProgress.code, withProgress.data],
        [without.message, without.code, without.data],
      );
      assert.equal(calls.length, 0);

      await client.auth.login({
        email: "editor@example.com",
        password: ADMIN.password,
      });
      let answered = false;
      const file = await photos.upload("attachment", new Blob([bytes]), {
        filename: "big.bin",
        onProgress(progress) {
          assert.equal(answered, false);
          calls.push(progress);
        },
      });
      answered = true;
      assert.equal(file.size, bytes.length);
      assert.equal(file.name, "big.bin");
      assert.equal(calls.length, 1);
      const [{ loaded, total }] = calls;
      assert.equal(loaded, total);
      // The whole request body: the file and its multipart framing.
      assert.ok(
        total > bytes.length && total < bytes.length + 1024,
        `${total}`,
      );
    } finally {
      await served.close();
    }
  },
);

filesTest(
  "an upload with an aborted signal rejects with the signal's reason and reports no progress",
  async ({ app }) => {
    await createUser(app, {
      email: "editor@example.com",
      password: ADMIN.password,
      roles: ["editor"],
    });
    const served = serveOnSocket(app);
    try {
      const client = createClient({ baseUrl: served.url });
      await client.auth.login({
        email: "editor@example.com",
        password: ADMIN.password,
      });
      const controller = new AbortController();
      controller.abort();
      const calls: unknown[] = [];
      await assert.rejects(
        client.collection("Photos").upload("attachment", new Blob(["x"]), {
          signal: controller.signal,
          onProgress: (progress) => calls.push(progress),
        }),
        (error: unknown) =>
          error instanceof DOMException && error.name === "AbortError",
      );
      assert.equal(calls.length, 0);
    } finally {
      await served.close();
    }
  },
);

filesTest(
  "the client's multipart body names the file as a FormData upload does",
  async ({ app }) => {
    await createUser(app, {
      email: "editor@example.com",
      password: ADMIN.password,
      roles: ["editor"],
    });
    const served = serveOnSocket(app);
    try {
      const client = createClient({ baseUrl: served.url });
      await client.auth.login({
        email: "editor@example.com",
        password: ADMIN.password,
      });
      const name = 'a "quoted"\r\nnäme.txt';
      const ours = await client.collection("Photos").upload(
        "attachment",
        new Blob(["hello"], { type: "text/plain" }),
        name,
      );
      const form = new FormData();
      form.set("file", new Blob(["hello"], { type: "text/plain" }), name);
      const theirs = await client.request<{ name: string; type: string }>(
        "POST",
        "/files",
        { query: { collection: "Photos", field: "attachment" }, body: form },
      );
      assert.deepEqual([ours.name, ours.type], [theirs.name, theirs.type]);
      assert.equal(ours.size, 5);
    } finally {
      await served.close();
    }
  },
);
