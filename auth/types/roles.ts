/**
 * `roles`: a list of distinct role names that some layer defines. When a signed-in user
 * writes it (an administrator through `/collections/users`), every role granted must be
 * covered by the writer's own capabilities, so no one can grant more than they hold.
 *
 * @module
 */
import {
  defineFieldType,
  type FieldType,
} from "../../collections/field_types.ts";
import type { Validator } from "../../collections/define.ts";
import { capabilitiesOf, capabilitySetCovers } from "../capabilities.ts";
import { currentApp } from "../_state.ts";
import { useUser } from "../user.ts";
import { issue } from "./_issue.ts";

const isList: Validator = (value) =>
  Array.isArray(value) && value.every((item) => typeof item === "string")
    ? undefined
    : issue("invalidType");

const distinct: Validator = (value) =>
  new Set(value as string[]).size === (value as string[]).length
    ? undefined
    : issue("duplicateValue");

const known: Validator = (value) => {
  const roles = currentApp()?.layers.roles;
  if (!roles) return undefined;
  const unknown = (value as string[]).find((name) => !roles.has(name));
  return unknown === undefined
    ? undefined
    : issue("invalidRole", { role: unknown });
};

// Trusted code running without a signed-in user (seed scripts, the install endpoint,
// an app's sign-up route) grants freely; a signed-in writer only what they hold.
const grantable: Validator = async (value) => {
  const writer = await useUser();
  if (!writer) return undefined;
  const roles = currentApp()?.layers.roles;
  if (!roles) return undefined;
  const held = capabilitiesOf(writer.roles, roles);
  const refused = (value as string[]).find((name) => {
    const role = roles.get(name);
    return role !== undefined && !capabilitySetCovers(held, role.capabilities);
  });
  return refused === undefined
    ? undefined
    : issue("invalidRole", { role: refused });
};

/** The `roles` field type (kind `multiSelect`, no fixed choices). */
export const rolesType: FieldType = defineFieldType({
  name: "roles",
  kind: "multiSelect",
  validators: [isList, distinct, known, grantable],
});
