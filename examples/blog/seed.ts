// Fills an empty database with a few records so the example has something to show.
import type { App } from "../../mod.ts";

export async function seed(app: App): Promise<void> {
  if (await app.query("Posts").count() > 0) return;
  for (
    const [title, views] of [["Hello Strata", 10], ["Routes from files", 42], [
      "Collections",
      7,
    ]] as const
  ) {
    await app.query("Posts").create({ title, views });
  }
}
