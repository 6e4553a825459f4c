import { defineHandler } from "../../../../mod.ts";
import { shape } from "../../_shape.ts";

export default defineHandler(() => shape.user);
