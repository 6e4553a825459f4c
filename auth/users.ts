/**
 * The default `Users` collection. An app replaces it by shipping its own
 * `collections/Users.ts`; spreading {@link usersDefinition} keeps the default fields, the
 * guarded API and the escalation rules.
 *
 * @module
 */
import {
  type CollectionDefinition,
  defineCollection,
  field,
  type Validator,
} from "../collections/define.ts";

/** The fields of the default `Users` collection, as types (for `RecordOf` and the registry). */
export type UsersFields = {
  readonly email: Readonly<{ type: "email"; unique: true }>;
  readonly password: Readonly<{ type: "password"; readable: false }>;
  readonly roles: Readonly<{ type: "roles"; default: () => string[] }>;
  readonly dashboardLanguage: Readonly<{ type: "language"; nullable: true }>;
  readonly contentLanguage: Readonly<
    { type: "language"; nullable: true; validators: readonly Validator[] }
  >;
  readonly timezone: Readonly<{ type: "timezone"; default: string }>;
  readonly dateFormat: Readonly<{ type: "datePattern"; default: string }>;
  readonly timeFormat: Readonly<{ type: "datePattern"; default: string }>;
  readonly smartClipboard: Readonly<{ type: "boolean"; default: boolean }>;
  readonly emailVerifiedAt: Readonly<
    {
      type: "dateTime";
      nullable: true;
      writable: false;
      default: () => number;
    }
  >;
};
import type { AccessFunction } from "../collections/api/exposure.ts";
import { capabilitiesOf, capabilitySetCovers } from "./capabilities.ts";
import { currentApp } from "./_state.ts";
import { useUser } from "./user.ts";

/**
 * `contentLanguage` must be one of the app's content locales (`collections.locales`): a
 * language the app holds no content in would silently fall back. A builder's `locale()`
 * is the data layer's own check of a locale, so the validator asks it.
 */
const amongContentLocales: Validator = (value, ctx) => {
  try {
    ctx.query(ctx.collection).locale(String(value));
    return undefined;
  } catch {
    return { key: "invalidLanguage" };
  }
};

/**
 * An account is verified when it is created (by `/auth/install`, an administrator or app
 * code); only a sign-up starts unverified, by writing `null` over this default.
 */
const verifiedNow = (): number => currentApp()?.now() ?? Date.now();

/**
 * `update` and `delete` of `/collections/users` reach only the accounts whose
 * capabilities the caller holds too: an account with any role the caller does not cover
 * answers 404, as if missing.
 */
const manageableUsers: AccessFunction = async () => {
  const caller = await useUser();
  const roles = currentApp()?.layers.roles;
  if (!caller || !roles) return false;
  const held = capabilitiesOf(caller.roles, roles);
  const beyond = [...roles]
    .filter(([, role]) => !capabilitySetCovers(held, role.capabilities))
    .map(([name]) => name);
  return beyond.length === 0
    ? true
    : { where: { not: { roles: { includesAny: beyond } } } };
};

/**
 * The definition of the default `Users` collection: `email` (unique), `password`
 * (write-only, hashed), `roles`, and the account settings `dashboardLanguage`,
 * `contentLanguage`, `timezone` (`UTC`), `dateFormat` (`LL`), `timeFormat` (`LTS`) and
 * `smartClipboard` (false), and `emailVerifiedAt` (epoch ms, null until a sign-up verifies
 * its address; server-written). Exposed as `api: true` (guarded by `collection.Users.*`
 * capabilities). Fields an app adds must be nullable or have a default, because the
 * install endpoint creates the first account from email and password alone.
 *
 * @example
 * ```ts
 * // collections/Users.ts
 * import { defineCollection, field } from "@strata/strata";
 * import { usersDefinition } from "@strata/strata/auth";
 * export default defineCollection({
 *   ...usersDefinition,
 *   fields: { ...usersDefinition.fields, nickname: field("text", { nullable: true }) },
 * });
 * ```
 */
export const usersDefinition: CollectionDefinition<UsersFields> =
  defineCollection({
    fields: {
      email: field("email", { unique: true }),
      password: field("password", { readable: false }),
      roles: field("roles", { default: () => [] }),
      dashboardLanguage: field("language", { nullable: true }),
      contentLanguage: field("language", {
        nullable: true,
        validators: [amongContentLocales],
      }),
      timezone: field("timezone", { default: "UTC" }),
      dateFormat: field("datePattern", { default: "LL" }),
      timeFormat: field("datePattern", { default: "LTS" }),
      smartClipboard: field("boolean", { default: false }),
      emailVerifiedAt: field("dateTime", {
        nullable: true,
        writable: false,
        default: verifiedNow,
      }),
    },
    api: {
      read: true,
      create: true,
      update: { access: manageableUsers },
      delete: { access: manageableUsers },
    },
  });
