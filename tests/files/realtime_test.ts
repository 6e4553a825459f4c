// Realtime events carry file descriptors (their private links signed per subscriber read).
import assert from "node:assert/strict";
import { filesTest, form, png, send } from "./_helpers.ts";
import { withServers } from "../events/_sse.ts";
import { eventually } from "../events/_helpers.ts";

filesTest(
  "a realtime event carries the record's file descriptors",
  async ({ app }) => {
    await withServers([app], async ([served], open) => {
      const stream = await open(`${served.url}/collections/photos/events`);
      assert.equal(stream.status, 200);
      const created = await send(app, "POST", "/collections/photos", {
        body: form([
          { name: "data", json: { title: "Live" } },
          { name: "image", file: await png(6, 4), filename: "live.png" },
          { name: "secret", file: "hush", filename: "s.txt" },
        ]),
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      await eventually(
        () => stream.events.some((e) => e.event === "create"),
        15_000,
        "the create event",
      );
      const event = stream.events.find((e) => e.event === "create")!;
      assert.deepEqual(event.data.image, created.body.image);
      assert.equal(event.data.secret.UUID, created.body.secret.UUID);
      const link = await fetch(`${served.url}${event.data.secret.url}`);
      assert.equal(link.status, 200);
      assert.equal(await link.text(), "hush");
    });
  },
);
