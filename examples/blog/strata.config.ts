// The blog's config: the auth layer below the app, two content locales.
import { defineConfig } from "@strata/strata";
import { authLayer } from "@strata/strata/auth";

export default defineConfig({
  layers: [authLayer()],
  collections: { locales: ["en", "de"], defaultLocale: "en" },
  auth: { sessionMaxAge: "14d" },
});
