/**
 * Parsers for the limits a config or a route option names: durations and sizes.
 *
 * @module
 */

const DURATION_UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

const SIZE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1024,
  mb: 1024 ** 2,
  gb: 1024 ** 3,
};

/** A duration: milliseconds, or a string such as `"500ms"`, `"30s"`, `"5m"`, `"2h"`, `"30d"`. */
export type Duration = number | string;
/** A size: bytes, or a string such as `"4kb"`, `"1mb"`, `"100mb"`. */
export type Size = number | string;

function parseWithUnits(
  value: unknown,
  units: Record<string, number>,
  key: string,
  what: string,
): number {
  if (typeof value === "number") {
    if (Number.isFinite(value) && value >= 0) return value;
  } else if (typeof value === "string") {
    const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]+)\s*$/i.exec(value);
    const unit = match ? units[match[2].toLowerCase()] : undefined;
    if (match && unit !== undefined) {
      return Math.round(Number(match[1]) * unit);
    }
  }
  throw new Error(
    `Invalid ${what} for ${key}: ${
      JSON.stringify(value)
    } (expected a number or a string such as ${
      what === "duration" ? '"30s"' : '"1mb"'
    })`,
  );
}

/**
 * Parses a duration to milliseconds; `false` lifts the limit and yields `Infinity`.
 * Throws an Error naming `key` for a bad value.
 *
 * @example
 * ```ts
 * import { parseDuration } from "./limits.ts";
 * parseDuration("30s", "api.handlerTimeout"); // 30000
 * parseDuration(false, "api.handlerTimeout"); // Infinity
 * ```
 */
export function parseDuration(value: Duration | false, key: string): number {
  if (value === false) return Infinity;
  return parseWithUnits(value, DURATION_UNITS, key, "duration");
}

/**
 * Parses a size to bytes; `false` lifts the limit and yields `Infinity`.
 * Throws an Error naming `key` for a bad value.
 *
 * @example
 * ```ts
 * import { parseSize } from "./limits.ts";
 * parseSize("1mb", "api.maxBodySize"); // 1048576
 * ```
 */
export function parseSize(value: Size | false, key: string): number {
  if (value === false) return Infinity;
  return parseWithUnits(value, SIZE_UNITS, key, "size");
}
