// The benchmark app: the auth layer at the real default cost (32768). Throttling is off so
// that every login of the background load (all from 127.0.0.1) runs a real password check.
import { defineConfig } from "../../../mod.ts";
import { authLayer } from "../../../auth/mod.ts";

export default defineConfig({
  layers: [authLayer()],
  auth: { loginRateLimit: false },
});
