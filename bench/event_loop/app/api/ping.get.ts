// A route that does not touch the database.
import { defineHandler } from "../../../../mod.ts";

export default defineHandler(() => ({ ok: true }));
