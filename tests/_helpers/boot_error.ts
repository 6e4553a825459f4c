// The message a boot fails with: the api_app fixture with one more layer on top.
import type { Layer } from "../../mod.ts";
import { createTestApp } from "../../testing/mod.ts";
import { fixturePath } from "./fixture_app.ts";

/** Boots the api_app fixture with `layer` and returns the error's message; throws if it boots. */
export async function bootErrorWith(layer: Layer): Promise<string> {
  try {
    const app = await createTestApp({
      root: fixturePath("api_app"),
      layers: [layer],
    });
    await app.close();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("The app booted");
}
