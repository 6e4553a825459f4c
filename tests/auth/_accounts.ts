// Helpers of the accounts tests: the auth_app fixture's config with account features, and
// links read from the mails the app sent.
import assert from "node:assert/strict";
import { authLayer } from "../../auth/mod.ts";
import type { App, StrataConfig } from "../../mod.ts";
import type { Harness } from "./_helpers.ts";

/** The auth_app fixture's config with `auth` additions. */
export function accountsConfig(
  auth: NonNullable<StrataConfig["auth"]> = {},
  extra: Partial<StrataConfig> = {},
): StrataConfig {
  return {
    layers: [authLayer()],
    auth: { ...auth, password: { cost: 1024, ...auth.password } },
    ...extra,
  };
}

/** Boots quietly: the log transport prints every mail, which the tests read from app.mail.sent. */
export async function bootQuiet(
  h: Harness,
  config: StrataConfig,
): Promise<App> {
  return await h.boot({ config });
}

const log = console.log;
/** Delivers due mail without printing it. */
export async function settle(app: App): Promise<void> {
  console.log = () => {};
  try {
    await app.mail.settle();
  } finally {
    console.log = log;
  }
}

/** The token of the newest mail to `to` whose link goes to `/dashboard/<page>`. */
export async function linkToken(
  app: App,
  to: string,
  page: string,
): Promise<string> {
  await settle(app);
  const mail = [...app.mail.sent].reverse().find((m) => m.to.includes(to));
  assert.ok(mail, `no mail to ${to}`);
  const match = new RegExp(`/dashboard/${page}\\?token=([A-Za-z0-9_-]{43})`)
    .exec(mail.text);
  assert.ok(match, `no ${page} link in: ${mail.text}`);
  return match[1];
}
