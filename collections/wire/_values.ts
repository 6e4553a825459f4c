/**
 * Value checks of `where` operands, per field kind.
 *
 * @module
 */

import type { WhereScalar } from "../where.ts";
import { wireError } from "./errors.ts";
import type { ResolvedKind } from "./_fields.ts";
import { exceedsUtf8Bytes } from "../_utf8.ts";
import type { QueryGuards } from "./types.ts";

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isDate(s: string): boolean {
  const m = DATE.exec(s);
  if (m === null) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  // Day 0 of the next month is the last day of this one.
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function isTime(s: string): boolean {
  const m = TIME.exec(s);
  return m !== null && Number(m[1]) <= 23 && Number(m[2]) <= 59 &&
    Number(m[3]) <= 59;
}

/**
 * Checks one scalar operand against the kind it is compared with and returns
 * it normalised (UUIDs lowercased). `pattern` marks a LIKE-style operand,
 * bounded by `maxPatternBytes` instead of `maxValueBytes`.
 *
 * @example
 * ```ts
 * import { checkScalar } from "./_values.ts";
 * import { DEFAULT_QUERY_GUARDS } from "./types.ts";
 * checkScalar("date", "2024-02-29", "where.on", DEFAULT_QUERY_GUARDS);
 * checkScalar("record", "0B6F3C2E-6F1D-4C3B-9A4E-2F1E0D9C8B7A", "where.a", DEFAULT_QUERY_GUARDS);
 * // "0b6f3c2e-6f1d-4c3b-9a4e-2f1e0d9c8b7a"; `1.5` for an integer throws invalidValue
 * ```
 */
export function checkScalar(
  kind: ResolvedKind,
  value: unknown,
  path: string,
  guards: QueryGuards,
  pattern = false,
): WhereScalar {
  if (typeof value === "string") {
    const max = pattern ? guards.maxPatternBytes : guards.maxValueBytes;
    if (exceedsUtf8Bytes(value, max)) throw wireError("valueTooLarge", path);
    // No stored text holds U+0000 (writes refuse it; PostgreSQL cannot even bind it).
    if (value.includes("\u0000")) throw wireError("invalidValue", path);
  }
  switch (kind) {
    case "text":
    case "select":
    case "multiSelect":
      if (typeof value === "string") return value;
      break;
    case "integer":
    case "dateTime":
      if (Number.isSafeInteger(value)) return value as number;
      break;
    case "number":
      if (typeof value === "number" && Number.isFinite(value)) return value;
      break;
    case "boolean":
      if (typeof value === "boolean") return value;
      break;
    case "date":
      if (typeof value === "string" && isDate(value)) return value;
      break;
    case "time":
      if (typeof value === "string" && isTime(value)) return value;
      break;
    case "record":
    case "records":
    case "uuid":
      if (typeof value === "string" && UUID.test(value)) {
        return value.toLowerCase();
      }
      break;
  }
  throw wireError("invalidValue", path);
}
