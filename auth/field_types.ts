/**
 * The field types the auth layer adds: `email`, `password`, `roles`, `language`,
 * `timezone`, `datePattern` and `capabilities`. They exist only in apps that stack the layer.
 *
 * @module
 */
import type { FieldType } from "../collections/field_types.ts";
import { emailType } from "./types/email.ts";
import { passwordType } from "./types/password.ts";
import { rolesType } from "./types/roles.ts";
import { languageType } from "./types/language.ts";
import { timezoneType } from "./types/timezone.ts";
import { datePatternType } from "./types/date_pattern.ts";
import { capabilitiesType } from "./types/capabilities.ts";

/**
 * The auth field types by name.
 *
 * @example
 * ```ts
 * import { authFieldTypes } from "./field_types.ts";
 * Object.keys(authFieldTypes); // ["email", "password", "roles", "language", "timezone", "datePattern", "capabilities"]
 * ```
 */
export const authFieldTypes: Readonly<Record<string, FieldType>> = Object
  .freeze({
    email: emailType,
    password: passwordType,
    roles: rolesType,
    language: languageType,
    timezone: timezoneType,
    datePattern: datePatternType,
    capabilities: capabilitiesType,
  });
