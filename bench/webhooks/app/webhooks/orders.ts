import { defineWebhook } from "../../../../mod.ts";

export default defineWebhook({
  url: Deno.env.get("BENCH_WEBHOOK_URL") ?? "http://127.0.0.1:9/",
  collections: ["Orders"],
  secret: "bench-secret-0123456789",
});
