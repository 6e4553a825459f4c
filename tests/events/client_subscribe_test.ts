import assert from "node:assert/strict";
import { createClient } from "../../client/mod.ts";
import type { ChangeMessage } from "../../client/mod.ts";
import { serveOnSocket } from "../_helpers/socket.ts";
import {
  ADMIN,
  EVENTS_APP,
  eventsTest,
  eventually,
  install,
} from "./_helpers.ts";

eventsTest(
  "client: subscribe follows a collection with the token, shaped by its read options; a refusal ends it",
  async (h) => {
    const app = await h.boot({ root: EVENTS_APP });
    await install(app);
    const server = serveOnSocket(app);
    try {
      const client = createClient({ baseUrl: server.url });
      await client.auth.login(ADMIN);
      const seen: ChangeMessage<Record<string, unknown>>[] = [];
      let opened = false;
      const subscription = client.collection("Tags").subscribe(
        { select: ["label"], where: { label: { startsWith: "x" } } },
        {
          onEvent: (message) => seen.push(message),
          onOpen: () => opened = true,
        },
      );
      await eventually(() => opened, 20_000, "the stream");
      const made = await client.collection("Tags").create({ label: "x1" });
      await client.collection("Tags").create({ label: "y1" });
      await eventually(() => seen.length === 1, 20_000, "the create");
      assert.equal(seen[0].type, "create");
      assert.deepEqual(seen[0].data, { UUID: made.UUID, label: "x1" });
      subscription.close();
      // Refused: no retry, onError says so.
      const anonymous = createClient({ baseUrl: server.url });
      const errors: [unknown, boolean][] = [];
      const refused = anonymous.collection("Tags").subscribe({}, {
        onEvent: () => {},
        onError: (error, retry) => errors.push([error, retry]),
      });
      await eventually(() => errors.length === 1, 20_000, "the refusal");
      assert.equal(errors[0][1], false);
      assert.equal((errors[0][0] as { status: number }).status, 401);
      refused.close();
    } finally {
      await server.close();
    }
  },
);
