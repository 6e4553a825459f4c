// The realtime benchmark app: one public collection; a thousand anonymous subscribers come
// from one address, so the per-address stream limit is raised.
import { defineConfig } from "../../../mod.ts";

export default defineConfig({
  events: { maxStreamsPerUser: 2000 },
});
