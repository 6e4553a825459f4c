import { defineConfig } from "../../mod.ts";

export default defineConfig({
  collections: { locales: ["en", "de"], defaultLocale: "en" },
});
