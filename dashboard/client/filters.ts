// Per-field filters built from the wire grammar: each kept in the URL as `f=field:op:value`,
// shown as a removable chip, sent as one condition of the list's `where`.
import type { FieldLike } from "./types.ts";
import { fieldKind } from "./fields.ts";

/** One filter: a field, a wire operator, and its value as the URL holds it. */
export interface FieldFilter {
  readonly field: string;
  readonly op: string;
  readonly value: string;
}

/** How many filters one list may carry. */
export const MAX_FILTERS = 10;

/** The operators offered for a field (a subset of the wire grammar's, per kind). */
export function filterOps(field: FieldLike): string[] {
  const kind = fieldKind(field);
  const nullable = field.nullable === true;
  const nulls = nullable ? ["isNull", "isNotNull"] : [];
  switch (kind) {
    case "text":
      return ["contains", "equalsTo", ...nulls];
    case "integer":
    case "number":
    case "date":
    case "dateTime":
    case "time":
      return ["atLeast", "atMost", "equalsTo", ...nulls];
    case "boolean":
      return ["equalsTo", ...nulls];
    case "select":
      return ["in", ...nulls];
    case "multiSelect":
      return ["includesAny", "empty"];
    case "record":
      return ["equalsTo", ...nulls];
    case "records":
      return ["includes", "empty"];
    default:
      return [];
  }
}

/** Whether an operator takes no value (isNull, isNotNull, empty). */
export function opTakesValue(op: string): boolean {
  return op !== "isNull" && op !== "isNotNull" && op !== "empty";
}

/** The filters of a query string (`f` parameters); malformed ones are dropped. */
export function readFilters(params: URLSearchParams): FieldFilter[] {
  const out: FieldFilter[] = [];
  for (const raw of params.getAll("f").slice(0, MAX_FILTERS)) {
    const first = raw.indexOf(":");
    const second = first < 0 ? -1 : raw.indexOf(":", first + 1);
    if (first <= 0 || second < 0) continue;
    out.push({
      field: raw.slice(0, first),
      op: raw.slice(first + 1, second),
      value: raw.slice(second + 1),
    });
  }
  return out;
}

/** A filter as its `f` parameter. */
export function filterParam(filter: FieldFilter): string {
  return filter.field + ":" + filter.op + ":" + filter.value;
}

function list(value: string): string[] {
  return value.split(",").map(function (item) {
    return item.trim();
  }).filter(function (item) {
    return item !== "";
  });
}

/**
 * The wire condition of a filter on field (`{ atLeast: 3 }`), or undefined when the operator
 * does not fit the field or the value is not one of its values.
 */
export function filterCondition(
  field: FieldLike,
  filter: FieldFilter,
): Record<string, unknown> | undefined {
  if (!filterOps(field).includes(filter.op)) return undefined;
  const kind = fieldKind(field);
  if (filter.op === "isNull") return { isNull: true };
  if (filter.op === "isNotNull") return { isNull: false };
  if (filter.op === "empty") return { empty: true };
  const text = filter.value;
  if (text.trim() === "") return undefined;
  if (filter.op === "in" || filter.op === "includesAny") {
    const items = list(text);
    return items.length > 0 ? { [filter.op]: items } : undefined;
  }
  let value: unknown = text;
  if (kind === "integer" || kind === "number") {
    value = Number(text);
    if (!Number.isFinite(value)) return undefined;
  } else if (kind === "boolean") {
    if (text !== "true" && text !== "false") return undefined;
    value = text === "true";
  } else if (kind === "dateTime") {
    // A day or a local date and time: the user's day starts at their midnight.
    const day = /^\d{4}-\d\d-\d\d$/.test(text);
    const at = new Date(day ? text + "T00:00:00" : text).getTime();
    if (Number.isNaN(at)) return undefined;
    value = day && filter.op === "atMost" ? at + 86399999 : at;
  } else if (kind === "date" && !/^\d{4}-\d\d-\d\d$/.test(text)) {
    return undefined;
  } else if (kind === "time" && /^\d\d:\d\d$/.test(text)) {
    value = text + ":00";
  }
  return { [filter.op]: value };
}

/** The where object of a list's filters: conditions on one field merge, fields AND. */
export function filtersWhere(
  fields: readonly FieldLike[],
  filters: readonly FieldFilter[],
): Record<string, Record<string, unknown>> {
  const where: Record<string, Record<string, unknown>> = {};
  for (const filter of filters) {
    const field = fields.find(function (item) {
      return item.name === filter.field && item.readable !== false;
    });
    if (!field) continue;
    const condition = filterCondition(field, filter);
    if (!condition) continue;
    where[filter.field] = { ...where[filter.field], ...condition };
  }
  return where;
}
