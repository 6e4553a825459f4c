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
} from "../collections/define.ts";
import type { AccessFunction } from "../collections/api/exposure.ts";
import { capabilitiesOf, capabilitySetCovers } from "./capabilities.ts";
import { currentApp } from "./_state.ts";
import { useUser } from "./user.ts";

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
 * `smartClipboard` (false). Exposed as `api: true` (guarded by `collection.Users.*`
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
export const usersDefinition: CollectionDefinition = defineCollection({
  fields: {
    email: field("email", { unique: true }),
    password: field("password", { readable: false }),
    roles: field("roles", { default: () => [] }),
    dashboardLanguage: field("language", { nullable: true }),
    contentLanguage: field("language", { nullable: true }),
    timezone: field("timezone", { default: "UTC" }),
    dateFormat: field("datePattern", { default: "LL" }),
    timeFormat: field("datePattern", { default: "LTS" }),
    smartClipboard: field("boolean", { default: false }),
  },
  api: {
    read: true,
    create: true,
    update: { access: manageableUsers },
    delete: { access: manageableUsers },
  },
});
