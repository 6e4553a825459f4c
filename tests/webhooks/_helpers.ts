/**
 * Helpers of the webhook tests: a real receiver on loopback (Deno.serve on port 0) that
 * verifies every delivery with `verifyWebhook`, apps of the `webhooks_app` fixture with a
 * webhook aimed at it, and waits on the senders.
 *
 * @module
 */
import {
  type App,
  defineLayer,
  defineWebhook,
  type StrataConfig,
  verifyWebhook,
  type WebhookBody,
  type WebhookDefinition,
} from "../../mod.ts";
import { authLayer } from "../../auth/mod.ts";
import { webhookSenders } from "../../webhooks/sender.ts";
import { kyselyOf } from "../../collections/database.ts";
import { fixture } from "../auth/_helpers.ts";

export {
  ADMIN,
  ask,
  authTest as webhooksTest,
  createUser,
  install,
  login,
  PG_URL,
} from "../auth/_helpers.ts";
export { eventually } from "../events/_helpers.ts";

/** The fixture app of these tests. */
export const WEBHOOKS_APP: string = fixture("webhooks_app");

/** The secret of the tests' webhooks. */
export const SECRET = "test-secret-0123456789abcdef";

/** One request a receiver got. */
export interface Received {
  /** The delivery, when its signature verified; else `null`. */
  readonly body: WebhookBody | null;
  readonly raw: string;
  readonly headers: Headers;
  readonly path: string;
}

/** A receiver's answer to its `n`th request (1-based): a status or a response. */
export type Answerer = (
  n: number,
  body: WebhookBody | null,
) => number | Response | Promise<number | Response>;

/** A webhook receiver on loopback. */
export interface Receiver {
  /** `http://127.0.0.1:<port>/hook`. */
  readonly url: string;
  readonly port: number;
  /** Every request, in arrival order. */
  readonly received: Received[];
  /** The verified delivery ids, in arrival order. */
  ids(): number[];
  /** Ends requests held open, then stops. */
  close(): Promise<void>;
}

/** Starts a receiver answering with `answer` (default 200), verifying with `secret`. */
export function startReceiver(
  answer: Answerer = () => 200,
  secret = SECRET,
): Receiver {
  const received: Received[] = [];
  const closing = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (request) => {
      const raw = await request.text();
      const body = await verifyWebhook(
        new Request(request.url, {
          method: "POST",
          headers: request.headers,
          body: raw,
        }),
        secret,
      );
      received.push({
        body,
        raw,
        headers: request.headers,
        path: new URL(request.url).pathname,
      });
      const answered = await Promise.race([
        Promise.resolve(answer(received.length, body)),
        new Promise<number>((resolve) =>
          closing.signal.addEventListener("abort", () => resolve(503))
        ),
      ]);
      return typeof answered === "number"
        ? new Response(null, { status: answered })
        : answered;
    },
  );
  const port = server.addr.port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    ids: () => received.flatMap((r) => r.body ? [r.body.id] : []),
    async close() {
      closing.abort();
      await server.shutdown();
    },
  };
}

/** A config of the fixture whose webhook `orders` posts Orders and Customers changes to `url`. */
export function webhookConfig(
  url: string,
  webhooks: StrataConfig["webhooks"] = {},
  options: {
    ops?: ("create" | "update" | "delete")[];
    /** More webhooks beside `orders`. */
    more?: Record<string, WebhookDefinition>;
  } = {},
): StrataConfig {
  return {
    layers: [
      authLayer(),
      defineLayer({
        name: "test-webhooks",
        webhooks: {
          orders: defineWebhook({
            url,
            collections: ["Orders", "Customers"],
            ops: options.ops,
            secret: SECRET,
            headers: { "X-Test": "yes" },
          }),
          ...options.more,
        },
      }),
    ],
    auth: { password: { cost: 1024 }, loginRateLimit: false },
    events: { pollInterval: "50ms" },
    // The folder's own webhook is for the child-process tests.
    dirs: { webhooks: "no-webhooks-here" },
    webhooks: { allowInsecure: true, allowPrivateNetworks: true, ...webhooks },
  };
}

/** Waits until every change committed so far was seen and every due delivery was tried. */
export async function settle(...apps: App[]): Promise<void> {
  for (let round = 0; round < 2; round++) {
    for (const app of apps) {
      await app.data.feed.settle();
      await webhookSenders.get(app)?.settle();
    }
  }
}

/** A delivery record, read through trusted code. */
export interface DeliveryRecord {
  UUID: string;
  webhook: string;
  seq: number;
  collection: string;
  op: string;
  recordUUID: string;
  at: number;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  nextAttemptAt: number | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: number | null;
}

/** Every delivery record, by seq. */
export async function deliveries(app: App): Promise<DeliveryRecord[]> {
  return await app.query("WebhookDeliveries").order("seq")
    .findMany() as unknown as DeliveryRecord[];
}

/** The seqs of the change log's rows, oldest first. */
export async function loggedSeqs(app: App): Promise<number[]> {
  const rows = await kyselyOf(app.db).selectFrom("_strata_changes")
    .select("seq").orderBy("seq").execute() as { seq: number | string }[];
  return rows.map((row) => Number(row.seq));
}
