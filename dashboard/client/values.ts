// Field values as form inputs show them, and back.
import type { ErrorBody, FieldLike } from "./types.ts";
import { fieldKind } from "./fields.ts";

/** What an input holds: whether it is empty, and its value for the wire. */
export interface InputValue {
  readonly empty: boolean;
  readonly value: unknown;
  /** An upload is still running: the value is not final yet. */
  readonly busy?: boolean;
}

function pad(number: number): string {
  return String(number).padStart(2, "0");
}

/** A field value as the text an input shows. */
export function toInputValue(
  field: FieldLike,
  value: unknown,
  timeZone?: string | null,
): string {
  if (value === null || value === undefined) return "";
  const kind = fieldKind(field);
  if (kind === "dateTime") {
    const date = new Date(value as number);
    if (Number.isNaN(date.getTime())) return "";
    const wall = timeZone ? wallTime(date, timeZone) : null;
    if (wall) return wall;
    return date.getFullYear() + "-" + pad(date.getMonth() + 1) + "-" +
      pad(date.getDate()) + "T" + pad(date.getHours()) + ":" +
      pad(date.getMinutes()) + ":" + pad(date.getSeconds());
  }
  if (Array.isArray(value)) return value.join(", ");
  return String(value);
}

/** The text of an input as a field value: { empty, value }. */
export function fromInputValue(
  field: FieldLike,
  text: string,
  timeZone?: string | null,
): InputValue {
  const raw = String(text);
  const kind = fieldKind(field);
  if (kind === "records" || kind === "multiSelect") {
    const items = raw.split(/[\s,]+/).filter(function (item) {
      return item !== "";
    });
    return { empty: items.length === 0, value: items };
  }
  if (raw.trim() === "") return { empty: true, value: null };
  if (kind === "integer" || kind === "number") {
    const number = Number(raw);
    return { empty: false, value: Number.isFinite(number) ? number : raw };
  }
  if (kind === "dateTime") {
    const zoned = timeZone ? fromWallTime(raw, timeZone) : null;
    const time = zoned ?? new Date(raw).getTime();
    return { empty: false, value: Number.isNaN(time) ? raw : time };
  }
  if (kind === "time" && /^\d\d:\d\d$/.test(raw)) {
    return { empty: false, value: raw + ":00" };
  }
  if (kind === "record") return { empty: false, value: raw.trim() };
  return { empty: false, value: raw };
}

/** The value to write for a field the user emptied. */
export function emptyValue(field: FieldLike): unknown {
  if (field.nullable) return null;
  const kind = fieldKind(field);
  if (kind === "text") return "";
  if (kind === "multiSelect" || kind === "records") return [];
  return null;
}

/** The keys of data.errors in an error answer, mapped to their field names. */
export function fieldErrors(body: unknown): Record<string, string> {
  const errors = (body as ErrorBody | null)?.data?.errors;
  const out: Record<string, string> = {};
  if (!errors || typeof errors !== "object") return out;
  for (const key of Object.keys(errors)) {
    const name = key.split(/[.[]/)[0];
    const message = String(errors[key]);
    out[name] = out[name] ? out[name] + " " + message : message;
  }
  return out;
}

// "YYYY-MM-DDTHH:mm:ss" of date on the clocks of timeZone, or null for an unknown zone.
function wallTime(date: Date, timeZone: string): string | null {
  try {
    const parts: Record<string, string> = {};
    const format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    for (const part of format.formatToParts(date)) {
      parts[part.type] = part.value;
    }
    return parts.year + "-" + parts.month + "-" + parts.day + "T" + parts.hour +
      ":" + parts.minute + ":" + parts.second;
  } catch {
    return null;
  }
}

/**
 * The instant a wall time ("YYYY-MM-DDTHH:mm[:ss]") names in timeZone (epoch ms), or null
 * when the text or the zone is not one; a time a DST gap skips lands after the gap.
 */
export function fromWallTime(text: string, timeZone: string): number | null {
  const match = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d))?$/.exec(text);
  if (!match) return null;
  const [y, mo, d, h, mi, s] = match.slice(1).map(function (part) {
    return Number(part || 0);
  });
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, s);
  const offsetAt = function (at: number): number | null {
    const wall = wallTime(new Date(at), timeZone);
    if (!wall) return null;
    const [date, time] = wall.split("T");
    const [wy, wmo, wd] = date.split("-").map(Number);
    const [wh, wmi, ws] = time.split(":").map(Number);
    return Date.UTC(wy, wmo - 1, wd, wh, wmi, ws) - at;
  };
  const first = offsetAt(asUtc);
  if (first === null) return null;
  const guess = asUtc - first;
  const second = offsetAt(guess);
  return second === null ? guess : asUtc - second;
}
