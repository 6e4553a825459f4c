// What the client derives from a field description: its storage kind, and what the list may
// do with it.
import type { FieldLike } from "./types.ts";

/** The storage kind of a field (kind, else its type name). */
export function fieldKind(field: FieldLike): string {
  return field.kind || field.type || "text";
}

/** Whether a field links to other records. */
export function isRelation(field: FieldLike): boolean {
  const kind = fieldKind(field);
  return kind === "record" || kind === "records";
}

/** Fields the filter box searches: readable text fields. */
export function searchableFields<F extends FieldLike>(
  fields: readonly F[],
): F[] {
  return fields.filter(function (field) {
    return field.readable !== false && fieldKind(field) === "text";
  });
}

/** Fields a header click may sort by (a link's order would be its UUID's). */
export function isSortable(field: FieldLike): boolean {
  const kind = fieldKind(field);
  return kind !== "multiSelect" && kind !== "records" && kind !== "record" &&
    kind !== "file" && kind !== "files";
}

/** The label a field is shown by (the server resolves it; the name when absent). */
export function fieldLabel(field: FieldLike & { label?: string }): string {
  return field.label || field.name || "";
}

/** The fields a list shows by default: the collection's listFields, readable and known. */
export function listColumns<F extends FieldLike & { name: string }>(
  collection: {
    readonly fields: readonly F[];
    readonly listFields?: readonly string[];
  },
): F[] {
  const readable = collection.fields.filter(function (field) {
    return field.readable !== false && field.name !== "UUID";
  });
  if (!collection.listFields) return readable;
  const out: F[] = [];
  for (const name of collection.listFields) {
    const field = readable.find(function (item) {
      return item.name === name;
    });
    if (field) out.push(field);
  }
  return out;
}
