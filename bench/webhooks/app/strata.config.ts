import { defineConfig } from "../../../mod.ts";

// The webhooks benchmark: Orders announced to the receiver on loopback the bench starts.
export default defineConfig({
  webhooks: { allowInsecure: true, allowPrivateNetworks: true },
});
