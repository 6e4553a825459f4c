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
