// Boots the benchmark app on a SQLite file and seeds its one user.
import { type App, createApp } from "../../mod.ts";
import { toUser } from "../../auth/mod.ts";
import { shape } from "./_shape.ts";

export const BENCH_USER = {
  email: "bench@example.com",
  password: "bench-password",
};

export async function bootBenchApp(database: string): Promise<App> {
  const app = await createApp({
    root: new URL("./app/", import.meta.url).pathname,
    database,
  });
  let record = await app.query("Users").where({ email: BENCH_USER.email })
    .findFirst();
  if (!record) {
    const created = await app.query("Users").create({
      ...BENCH_USER,
      roles: ["admin"],
    });
    if (!created.ok) throw new Error(JSON.stringify(created.errors));
    record = created.record;
  }
  shape.user = toUser(record);
  return app;
}
