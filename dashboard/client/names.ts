// How records are named: by their collection's display field, else the collection's label
// and the record's last change ("Post · 12 Mar 2026"); never by a UUID.
import type { Settings } from "./types.ts";

/** What naming a record of a collection needs to know. */
export interface NamingCollection {
  readonly label?: string;
  readonly name?: string;
  readonly displayField?: string | null;
}

/** Shown for an empty link, or one the user may not read. */
export const NO_VALUE = "—";

/** The name of a record (a populated link or a listed record). */
export function recordName(
  collection: NamingCollection | undefined,
  record: unknown,
  settings: Settings,
): string {
  if (!record || typeof record !== "object" || Array.isArray(record)) {
    return NO_VALUE;
  }
  const values = record as Record<string, unknown>;
  const field = collection?.displayField;
  if (field) {
    const value = values[field];
    if (typeof value === "string" && value.trim() !== "") return value;
    if (typeof value === "number") return String(value);
  }
  const label = collection?.label || collection?.name || "";
  const changed = values._updatedAt;
  const day = typeof changed === "number" ? dayText(changed, settings) : "";
  if (label && day) return label + " · " + day;
  return label || day || NO_VALUE;
}

/** A link's text in a list cell: the target's names, "—" when empty or unreadable. */
export function relationText(
  target: NamingCollection | undefined,
  value: unknown,
  settings: Settings,
): string {
  if (Array.isArray(value)) {
    const names = value.filter(function (item) {
      return item !== null && typeof item === "object";
    }).map(function (item) {
      return recordName(target, item, settings);
    });
    return names.length > 0 ? names.join(", ") : NO_VALUE;
  }
  return recordName(target, value, settings);
}

function dayText(at: number, settings: Settings): string {
  const date = new Date(at);
  try {
    return new Intl.DateTimeFormat(settings.language || "en", {
      dateStyle: "medium",
      timeZone: settings.timezone || undefined,
    }).format(date);
  } catch {
    return date.toISOString().slice(0, 10);
  }
}
