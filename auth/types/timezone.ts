/**
 * `timezone`: an IANA time zone name the runtime knows, stored as the runtime's canonical
 * name (`europe/berlin` → `Europe/Berlin`): one of `Intl.supportedValuesOf("timeZone")` or
 * `UTC`.
 *
 * @module
 */
import {
  defineFieldType,
  type FieldType,
} from "../../collections/field_types.ts";
import type { Sanitizer, Validator } from "../../collections/define.ts";
import { issue } from "./_issue.ts";

let zones: Set<string> | undefined;
const resolved = new Map<string, string | undefined>();
const MAX_LENGTH = 64;

function zoneNames(): Set<string> {
  return zones ??= new Set([...Intl.supportedValuesOf("timeZone"), "UTC"]);
}

/**
 * The canonical spelling of a time zone name, or `undefined` when it is not one. Aliases
 * resolve to the runtime's canonical name (`Asia/Kolkata` → `Asia/Calcutta`,
 * `Etc/UTC` → `UTC`), so every stored value is one of `Intl.supportedValuesOf("timeZone")`
 * or `UTC`; offsets such as `+01:00` are refused.
 *
 * @example
 * ```ts
 * import { canonicalTimeZone } from "./timezone.ts";
 * canonicalTimeZone("europe/berlin"); // "Europe/Berlin"
 * canonicalTimeZone("Mars/Olympus"); // undefined
 * ```
 */
export function canonicalTimeZone(value: string): string | undefined {
  const name = value.trim();
  if (name === "" || name.length > MAX_LENGTH) return undefined;
  if (resolved.has(name)) return resolved.get(name);
  let zone: string | undefined;
  try {
    zone = new Intl.DateTimeFormat("en", { timeZone: name }).resolvedOptions()
      .timeZone;
  } catch {
    zone = undefined;
  }
  if (zone !== undefined && !zoneNames().has(zone)) zone = undefined;
  // Bounded: names come from requests.
  if (resolved.size >= 1024) resolved.clear();
  resolved.set(name, zone);
  return zone;
}

const canonicalize: Sanitizer = (value) =>
  typeof value === "string" ? canonicalTimeZone(value) ?? value : value;

const isString: Validator = (value) =>
  typeof value === "string" ? undefined : issue("invalidType");

const isZone: Validator = (value) =>
  zoneNames().has(value as string) ? undefined : issue("invalidTimezone");

/** The `timezone` field type (kind `text`). */
export const timezoneType: FieldType = defineFieldType({
  name: "timezone",
  kind: "text",
  sanitizers: [canonicalize],
  validators: [isString, isZone],
});
