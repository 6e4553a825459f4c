/**
 * `timezone`: an IANA time zone name the runtime knows (`Intl.supportedValuesOf`) or `UTC`,
 * stored in its canonical spelling (`europe/berlin` → `Europe/Berlin`).
 *
 * @module
 */
import {
  defineFieldType,
  type FieldType,
} from "../../collections/field_types.ts";
import type { Sanitizer, Validator } from "../../collections/define.ts";
import { issue } from "./_issue.ts";

let zones: Map<string, string> | undefined;

function zoneNames(): Map<string, string> {
  if (!zones) {
    zones = new Map();
    for (const zone of [...Intl.supportedValuesOf("timeZone"), "UTC"]) {
      zones.set(zone.toLowerCase(), zone);
    }
  }
  return zones;
}

/**
 * The canonical spelling of a time zone name, or `undefined` when it is not one.
 *
 * @example
 * ```ts
 * import { canonicalTimeZone } from "./timezone.ts";
 * canonicalTimeZone("europe/berlin"); // "Europe/Berlin"
 * canonicalTimeZone("Mars/Olympus"); // undefined
 * ```
 */
export function canonicalTimeZone(value: string): string | undefined {
  return zoneNames().get(value.trim().toLowerCase());
}

const canonicalize: Sanitizer = (value) =>
  typeof value === "string" ? canonicalTimeZone(value) ?? value : value;

const isString: Validator = (value) =>
  typeof value === "string" ? undefined : issue("invalidType");

const isZone: Validator = (value) =>
  zoneNames().get((value as string).toLowerCase()) === value
    ? undefined
    : issue("invalidTimezone");

/** The `timezone` field type (kind `text`). */
export const timezoneType: FieldType = defineFieldType({
  name: "timezone",
  kind: "text",
  sanitizers: [canonicalize],
  validators: [isString, isZone],
});
