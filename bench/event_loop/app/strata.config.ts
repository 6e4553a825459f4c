// The event-loop benchmark app: the query deadline raised so the slow query runs its ~10 s.
import { defineConfig } from "../../../mod.ts";

export default defineConfig({ query: { timeout: "60s" } });
