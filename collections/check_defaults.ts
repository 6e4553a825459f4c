/**
 * Boot check of field defaults: a fixed default is run through its own field type's
 * sanitizers and validators, so a default the field refuses (a `select` default outside its
 * choices, `"zero"` for an integer, `""` for a text) fails the boot naming `Collection.field`
 * instead of failing every later create on a field the client never sent. Default functions
 * are called per write and are not checked here.
 *
 * @module
 */
import type { ResolvedCollection, ResolvedField } from "./resolve.ts";
import type { FieldContext, ValidationIssue } from "./define.ts";
import { renderDefaultMessage } from "./messages.ts";
import { isThenable } from "../utils/_maybe_promise.ts";

/** The query function of the context a default is checked in: none may run at boot. */
function noQueries(): never {
  throw new Error("No queries while checking a default");
}

/** The refusal of `field`'s fixed default, or `undefined` when it passes (or cannot be judged now). */
function refusalOf(field: ResolvedField): string | undefined {
  const fallback = field.options.default;
  if (fallback === undefined || typeof fallback === "function") return;
  if (fallback === null) {
    return field.nullable ? undefined : renderDefaultMessage("required", {});
  }
  const fctx: FieldContext = {
    collection: field.collection,
    field: field.name,
    path: field.name,
    operation: "create",
    locale: "",
    input: {},
    options: field.options,
    query: noQueries,
  };
  let value = field.defaultValue();
  // Counting loops: this runs cold at boot for every field with a default, where for…of
  // allocated an iterator and a result per step.
  try {
    const sanitizers = field.typeSanitizers;
    for (let i = 0; i < sanitizers.length; i++) {
      const sanitize = sanitizers[i];
      const next = sanitize(value, fctx);
      if (isThenable(next)) return;
      value = next;
    }
    const validators = field.typeValidators;
    for (let i = 0; i < validators.length; i++) {
      const validate = validators[i];
      const issue = validate(value, fctx);
      if (isThenable(issue)) return;
      if (issue !== undefined && issue !== null) {
        const refusal = issue as ValidationIssue;
        return typeof refusal === "string"
          ? renderDefaultMessage(refusal, {})
          : renderDefaultMessage(refusal.key, refusal.params ?? {});
      }
    }
  } catch {
    // A validator that needs a request or the database is judged at write time.
    return;
  }
  return;
}

/**
 * Throws for the first fixed default its own field refuses: `Posts.status: the default
 * "gone" is refused (…)`.
 *
 * @example
 * ```ts ignore
 * checkFieldDefaults(collections.values());
 * ```
 */
export function checkFieldDefaults(
  collections: Iterable<ResolvedCollection>,
): void {
  for (const collection of collections) {
    const fields = collection.fieldList;
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i];
      const refusal = refusalOf(field);
      if (refusal === undefined) continue;
      throw new Error(
        `${collection.name}.${field.name}: the default ${
          JSON.stringify(field.options.default)
        } is refused by the field itself (${refusal}); change the default or the field's options`,
      );
    }
  }
}
