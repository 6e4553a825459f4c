/**
 * Reading the raw params of a request: URL params through the relaxed
 * literal syntax, a JSON body's keys as they are.
 *
 * @module
 */

import { wireError } from "./errors.ts";
import { isPlainObject } from "./_fields.ts";
import { parseRelaxedLiteral } from "./literal.ts";

/**
 * Returns the given params of `allowed`, parsed, keyed by name. An unknown
 * name is `unknownParam`, a repeated URL param `invalidShape`; unknown and
 * repeated names are all refused before any value is parsed. A body key whose
 * value is `undefined` counts as absent. URL params named in `raw` keep their
 * text as it is (no relaxed literal syntax).
 *
 * @example
 * ```ts
 * import { readParams } from "./_params.ts";
 * readParams(new URLSearchParams("limit=10"), ["limit", "offset"]);
 * // Map { "limit" => 10 }
 * ```
 */
export function readParams(
  input: URLSearchParams | Record<string, unknown>,
  allowed: readonly string[],
  raw: readonly string[] = [],
): Map<string, unknown> {
  const known = new Set(allowed);
  const values = new Map<string, unknown>();
  if (input instanceof URLSearchParams) {
    const given = new Map<string, string>();
    for (const [name, value] of input) {
      if (!known.has(name)) throw wireError("unknownParam", name);
      if (given.has(name)) {
        throw wireError("invalidShape", name, "Parameter given more than once");
      }
      given.set(name, value);
    }
    for (const name of allowed) {
      const text = given.get(name);
      if (text === undefined) continue;
      values.set(
        name,
        raw.includes(name) ? text : parseRelaxedLiteral(text, name),
      );
    }
    return values;
  }
  if (!isPlainObject(input)) {
    throw wireError("invalidShape", "", "Expected a JSON object");
  }
  for (const name of Object.keys(input)) {
    if (!known.has(name)) throw wireError("unknownParam", name);
  }
  for (const name of allowed) {
    if (Object.hasOwn(input, name) && input[name] !== undefined) {
      values.set(name, input[name]);
    }
  }
  return values;
}
