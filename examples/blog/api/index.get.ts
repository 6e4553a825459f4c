import { defineHandler } from "../../../mod.ts";

export default defineHandler(() => ({ name: "Strata example blog" }));
