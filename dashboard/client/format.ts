// Dates, times and cells as the account's formats and language show them.
import type { FieldLike, Settings } from "./types.ts";
import { fieldKind } from "./fields.ts";
import { relationText } from "./names.ts";
import { formatNumber } from "./messages.ts";

type DateStyle = NonNullable<Intl.DateTimeFormatOptions["dateStyle"]>;

const DATE_STYLES = new Map<string, DateStyle>([
  ["L", "short"],
  ["l", "short"],
  ["ll", "medium"],
  ["LL", "long"],
  ["LLL", "long"],
  ["LLLL", "full"],
]);
const TIME_STYLES = new Map<string, DateStyle>([
  ["LT", "short"],
  ["LTS", "medium"],
]);
// The fixed patterns an account may choose (auth/types/date_pattern.ts lists them).
const PATTERN_TOKENS = /YYYY|MM|DD|HH|mm|ss/g;

/** A date formatted by a fixed pattern (YYYY-MM-DD, DD.MM.YYYY, HH:mm, …) in timeZone. */
export function formatPattern(
  pattern: string,
  date: Date,
  timeZone?: string | null,
): string {
  const parts: Record<string, string> = {};
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone: timeZone || "UTC",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  });
  for (const part of format.formatToParts(date)) parts[part.type] = part.value;
  const values: Record<string, string | undefined> = {
    YYYY: parts.year,
    MM: parts.month,
    DD: parts.day,
    HH: parts.hour,
    mm: parts.minute,
    ss: parts.second,
  };
  return pattern.replace(PATTERN_TOKENS, function (token) {
    return values[token] ?? "";
  });
}

/**
 * How pattern shows date under settings (language, timezone): the account page's preview
 * of a date (kind "date") or time (kind "time") format.
 */
export function formatSample(
  kind: "date" | "time",
  pattern: string,
  date: Date,
  settings: Settings,
): string {
  const language = settings.language || "en";
  const zone = settings.timezone || "UTC";
  try {
    if (isFixedPattern(pattern)) return formatPattern(pattern, date, zone);
    const style: Intl.DateTimeFormatOptions = kind === "time"
      ? { timeStyle: TIME_STYLES.get(pattern) ?? "medium" }
      : { dateStyle: DATE_STYLES.get(pattern) ?? "medium" };
    return new Intl.DateTimeFormat(
      language,
      Object.assign({ timeZone: zone }, style),
    ).format(date);
  } catch {
    return date.toISOString();
  }
}

function isFixedPattern(pattern: unknown): pattern is string {
  return typeof pattern === "string" && /YYYY|HH/.test(pattern);
}

/** A cell's text in the records table. */
export function formatCell(
  field: FieldLike,
  value: unknown,
  settings: Settings,
): string {
  if (value === null || value === undefined) return "";
  const kind = fieldKind(field);
  const language = settings.language || "en";
  // A link is named by its target's display field (never a UUID): see relationText.
  if (kind === "record" || kind === "records") {
    return relationText(undefined, value, settings);
  }
  if (kind === "file" || kind === "files") {
    const files = Array.isArray(value) ? value : [value];
    return files.map(function (file) {
      return file && typeof file === "object"
        ? String((file as { name?: unknown }).name ?? "")
        : "";
    }).filter(Boolean).join(", ");
  }
  if (Array.isArray(value)) return value.map(String).join(", ");
  if (kind === "boolean") return value ? "✓" : "✗";
  if (kind === "integer" || kind === "number") {
    return typeof value === "number" ? formatNumber(value, language) : "";
  }
  const dateStyle = DATE_STYLES.get(settings.dateFormat ?? "") ?? "medium";
  const datePattern = isFixedPattern(settings.dateFormat)
    ? settings.dateFormat
    : null;
  const timePattern = isFixedPattern(settings.timeFormat)
    ? settings.timeFormat
    : null;
  const isDate = kind === "date" && typeof value === "string" &&
    /^\d{4}-\d\d-\d\d$/.test(value);
  if (isDate && datePattern) {
    return formatPattern(datePattern, new Date(value + "T00:00:00Z"), "UTC");
  }
  if (
    kind === "dateTime" && typeof value === "number" &&
    (datePattern || timePattern)
  ) {
    const date = new Date(value);
    const zone = settings.timezone || "UTC";
    let dayText: string;
    let timeText: string;
    try {
      dayText = datePattern
        ? formatPattern(datePattern, date, zone)
        : new Intl.DateTimeFormat(language, {
          dateStyle: dateStyle,
          timeZone: zone,
        })
          .format(date);
      timeText = timePattern
        ? formatPattern(timePattern, date, zone)
        : new Intl.DateTimeFormat(language, {
          timeStyle: TIME_STYLES.get(settings.timeFormat ?? "") ?? "medium",
          timeZone: zone,
        }).format(date);
    } catch {
      return new Date(value).toISOString();
    }
    return dayText + " " + timeText;
  }
  if (isDate) {
    try {
      return new Intl.DateTimeFormat(language, {
        dateStyle: dateStyle,
        timeZone: "UTC",
      }).format(new Date(value + "T00:00:00Z"));
    } catch {
      return String(value);
    }
  }
  if (kind === "dateTime" && typeof value === "number") {
    const options: Intl.DateTimeFormatOptions = {
      dateStyle: dateStyle,
      timeStyle: TIME_STYLES.get(settings.timeFormat ?? "") ?? "medium",
    };
    try {
      return new Intl.DateTimeFormat(
        language,
        Object.assign({ timeZone: settings.timezone || undefined }, options),
      ).format(new Date(value));
    } catch {
      return new Intl.DateTimeFormat(language, options).format(new Date(value));
    }
  }
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}
