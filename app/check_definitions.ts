/**
 * Boot checks of merged collection definitions that need the whole app (field types added by
 * layers, relation targets), so a mistake names the file it is in.
 *
 * @module
 */
import type { MergedLayers } from "./merge_layers.ts";
import { builtinFieldTypes } from "../collections/field_types.ts";

/**
 * Throws, naming the collection's file, for a field of an unknown type or a relation to an
 * unknown collection.
 *
 * @example
 * ```ts ignore
 * checkCollectionDefinitions(merged);
 * ```
 */
export function checkCollectionDefinitions(merged: MergedLayers): void {
  // Counting loops over the keys: at boot, for…of over Object.entries made an entry array
  // and an iterator result for every collection and every field.
  const { collections, fieldTypes } = merged;
  const names = Object.keys(collections);
  for (let c = 0; c < names.length; c++) {
    const name = names[c];
    const fields = collections[name].fields;
    const fieldNames = Object.keys(fields);
    for (let f = 0; f < fieldNames.length; f++) {
      const fieldName = fieldNames[f];
      const field = fields[fieldName];
      if (
        !Object.hasOwn(builtinFieldTypes, field.type) &&
        !Object.hasOwn(fieldTypes, field.type)
      ) {
        throw new Error(
          `${
            sourceOf(merged, name)
          }: Unknown field type "${field.type}" for ${name}.${fieldName}`,
        );
      }
      if (
        field.collection !== undefined &&
        !Object.hasOwn(collections, field.collection)
      ) {
        throw new Error(
          `${
            sourceOf(merged, name)
          }: Field ${name}.${fieldName} links to an unknown collection "${field.collection}"`,
        );
      }
    }
  }
}

function sourceOf(merged: MergedLayers, name: string): string {
  return merged.collectionSources.get(name) ?? name;
}

/**
 * Prefixes a data layer boot error with the file of the collection it names, when it names one.
 *
 * @example
 * ```ts ignore
 * throw withCollectionSource(error, merged);
 * ```
 */
export function withCollectionSource(
  error: unknown,
  merged: MergedLayers,
): unknown {
  if (!(error instanceof Error)) return error;
  for (const [name, source] of merged.collectionSources) {
    if (
      new RegExp(`\\b${name}\\b`).test(error.message) &&
      !error.message.includes(source)
    ) {
      return new Error(`${source}: ${error.message}`, { cause: error });
    }
  }
  return error;
}

/**
 * Throws, naming the role's file, for a capability under `collection.<Name>.` whose
 * collection no layer defines (a typo such as `collection.Notez.*` would grant nothing).
 *
 * @example
 * ```ts ignore
 * checkRoleCapabilities(merged);
 * ```
 */
export function checkRoleCapabilities(merged: MergedLayers): void {
  for (const [role, definition] of merged.roles) {
    for (const capability of definition.capabilities) {
      const [prefix, collection] = capability.split(".");
      if (
        prefix !== "collection" || collection === undefined ||
        collection === "*" || Object.hasOwn(merged.collections, collection)
      ) continue;
      const source = merged.roleSources.get(role) ?? role;
      throw new Error(
        `${source}: capability "${capability}" names collection "${collection}", which no layer defines; fix the name (collections: ${
          Object.keys(merged.collections).sort().join(", ") || "none"
        })`,
      );
    }
  }
}
