// The search benchmark app: one public collection, nothing else.
import { defineConfig } from "../../../mod.ts";

export default defineConfig({});
