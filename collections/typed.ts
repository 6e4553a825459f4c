/**
 * Types from collection definitions: {@link RecordOf} (what a read answers),
 * {@link CreateInputOf} and {@link UpdateInputOf} (what writes take), and the per-field
 * where conditions of the typed query builder. Types only; nothing here runs.
 *
 * @module
 */
import type { CollectionDefinition } from "./define.ts";
import type { FileDescriptor } from "./files/descriptors.ts";

/**
 * The collections an app has, by name. `strata types` writes `strata.gen.ts`, which augments
 * this interface with every collection of every layer; `query("Posts")` and everything that
 * crosses to another collection (`populate`, `has`) are typed through it.
 */
// deno-lint-ignore no-empty-interface
export interface CollectionRegistry {}

/** Any collection definition, its field map's types kept. */
// deno-lint-ignore no-explicit-any
export type AnyCollectionDefinition = CollectionDefinition<any>;

/** The field map of a definition. */
export type FieldsOf<C> = C extends CollectionDefinition<infer F> ? F : never;

/** Field types whose values are strings. */
export type TextTypes =
  | "text"
  | "email"
  | "password"
  | "timezone"
  | "datePattern"
  | "date"
  | "time";

/** The choices of a `select` / `multiSelect` field, or `string` without fixed ones. */
export type ChoiceOf<D> = D extends { readonly choices: readonly (infer C)[] }
  ? C
  : string;

/** A field's value, links as UUIDs, without `null`. */
export type ValueOf<D> = D extends { readonly type: infer T }
  ? T extends TextTypes ? string
  : T extends "integer" | "number" | "dateTime" ? number
  : T extends "boolean" ? boolean
  : T extends "select" ? ChoiceOf<D>
  : T extends "multiSelect" ? ChoiceOf<D>[]
  : T extends "roles" ? string[]
  : T extends "language" ? string | null
  : T extends "record" ? string
  : T extends "records" ? string[]
  : T extends "file" ? string
  : T extends "files" ? string[]
  : unknown
  : unknown;

/** A field's value, `| null` when the field is nullable. */
export type StoredValueOf<D> =
  | ValueOf<D>
  | (D extends { readonly nullable: true } ? null : never);

/** A field's value as reads answer it: files as descriptors, `| null` when nullable. */
export type ReadValueOf<D> = D extends { readonly type: "file" }
  ? FileDescriptor | (D extends { readonly nullable: true } ? null : never)
  : D extends { readonly type: "files" } ? FileDescriptor[]
  : StoredValueOf<D>;

/** The readable field names of a field map. */
export type ReadableKeys<F> =
  & {
    [K in keyof F]: F[K] extends { readonly readable: false } ? never : K;
  }[keyof F]
  & string;

/** The field names of a field map that write input may carry. */
export type WritableKeys<F> =
  & {
    [K in keyof F]: F[K] extends { readonly writable: false } ? never : K;
  }[keyof F]
  & string;

/** Whether a create may leave field `D` out (nullable or defaulted). */
export type OptionalOnCreate<D> = D extends { readonly nullable: true } ? true
  : D extends { readonly default: unknown } ? true
  : false;

/** The field names a create must give. */
export type RequiredCreateKeys<F> = {
  [K in WritableKeys<F>]: OptionalOnCreate<F[K]> extends true ? never : K;
}[WritableKeys<F>];

/** The field names an update may give (writable, not immutable). */
export type UpdatableKeys<F> = {
  [K in WritableKeys<F>]: F[K] extends { readonly immutable: true } ? never
    : K;
}[WritableKeys<F>];

/** The translatable field names of a field map. */
export type TranslatableKeys<F> = {
  [K in keyof F]: F[K] extends { readonly translatable: true } ? K : never;
}[keyof F];

/** `T` with its intersections flattened, for readable hovers. */
export type Simplify<T> = { [K in keyof T]: T[K] } & unknown;

/**
 * The record a read of collection `C` answers: `UUID`, `_updatedAt`, `_translations` where
 * fields are translatable, and every readable field by its type (`| null` when nullable).
 *
 * @example
 * ```ts
 * import { defineCollection, field, type RecordOf } from "@strata/strata";
 * const Posts = defineCollection({
 *   fields: { title: field("text"), views: field("integer", { default: 0 }) },
 * });
 * type Post = RecordOf<typeof Posts>; // { UUID: string; _updatedAt: number; title: string; views: number }
 * ```
 */
export type RecordOf<C> = C extends AnyCollectionDefinition ? Simplify<
    & { UUID: string; _updatedAt: number }
    & { [K in ReadableKeys<FieldsOf<C>>]: ReadValueOf<FieldsOf<C>[K]> }
    & ([TranslatableKeys<FieldsOf<C>>] extends [never] ? unknown
      : { _translations: string[] })
  >
  : never;

/**
 * The input of a create on collection `C`: every writable field (write-only ones included),
 * required unless nullable or defaulted.
 *
 * @example
 * ```ts
 * import { type CreateInputOf, defineCollection, field } from "@strata/strata";
 * const Posts = defineCollection({
 *   fields: { title: field("text"), views: field("integer", { default: 0 }) },
 * });
 * const input: CreateInputOf<typeof Posts> = { title: "Hello" }; // views is optional
 * ```
 */
export type CreateInputOf<C> = C extends AnyCollectionDefinition ? Simplify<
    & { [K in RequiredCreateKeys<FieldsOf<C>>]: StoredValueOf<FieldsOf<C>[K]> }
    & {
      [
        K in Exclude<WritableKeys<FieldsOf<C>>, RequiredCreateKeys<FieldsOf<C>>>
      ]?: StoredValueOf<FieldsOf<C>[K]>;
    }
  >
  : never;

/**
 * The input of an update on collection `C`: every writable field that is not immutable,
 * each optional.
 *
 * @example
 * ```ts
 * import { defineCollection, field, type UpdateInputOf } from "@strata/strata";
 * const Posts = defineCollection({
 *   fields: { slug: field("text", { immutable: true }), title: field("text") },
 * });
 * const change: UpdateInputOf<typeof Posts> = { title: "New" }; // slug is absent
 * ```
 */
export type UpdateInputOf<C> = C extends AnyCollectionDefinition ? Simplify<
    {
      [K in UpdatableKeys<FieldsOf<C>>]?: StoredValueOf<FieldsOf<C>[K]>;
    }
  >
  : never;

/** The registry's definition of collection `N`, if the registry has it. */
export type RegisteredDefinition<N> = N extends keyof CollectionRegistry
  ? CollectionRegistry[N]
  : never;

/** The target collection of a `record` / `records` field, resolved through the registry. */
export type TargetOf<D> = D extends { readonly collection: infer N }
  ? RegisteredDefinition<N>
  : never;

/** The record a populated link holds: the target's record, or a plain record without a registry. */
export type PopulatedOf<D> = [TargetOf<D>] extends [never]
  ? { UUID: string; [field: string]: unknown }
  : RecordOf<TargetOf<D>>;

/** The names of the link fields (`record`, `records`) of a field map. */
export type LinkKeys<F> =
  & {
    [K in keyof F]: F[K] extends { readonly type: "record" | "records" } ? K
      : never;
  }[keyof F]
  & string;

/** A record with links `P` populated. */
export type WithPopulated<R, F, P extends keyof F> = Simplify<
  & Omit<R, P>
  & {
    [K in P & keyof R]: F[K] extends { readonly type: "records" }
      ? PopulatedOf<F[K]>[]
      : PopulatedOf<F[K]> | null;
  }
>;

// -- where -----------------------------------------------------------------

/** The comparison operators of an ordered value. */
export type Ordered<V> = {
  equalsTo?: V;
  in?: V[];
  greaterThan?: V;
  atLeast?: V;
  lessThan?: V;
  atMost?: V;
};

/** `isNull`, for a nullable field only. */
export type NullTest<D> = D extends { readonly nullable: true }
  ? { isNull?: boolean }
  : unknown;

/** The filter of the target of a link, through the registry (untyped without one). */
export type TargetWhere<D> = [TargetOf<D>] extends [never]
  ? Record<string, unknown>
  : WhereOf<TargetOf<D>>;

/** The operators field `D` accepts, with values of its type. */
export type ConditionOf<D> = D extends { readonly type: infer T }
  ? T extends "text" | "email" | "password" | "timezone" | "datePattern" ?
      & Ordered<string>
      & {
        contains?: string;
        startsWith?: string;
        endsWith?: string;
        like?: string;
      }
      & NullTest<D>
  : T extends "integer" | "number" | "dateTime" ? Ordered<number> & NullTest<D>
  : T extends "date" | "time" ? Ordered<string> & NullTest<D>
  : T extends "boolean" ? { equalsTo?: boolean } & NullTest<D>
  : T extends "select" | "language"
    ? { equalsTo?: ChoiceOf<D>; in?: ChoiceOf<D>[] } & NullTest<D>
  : T extends "multiSelect" | "roles" ? {
      includes?: ChoiceOf<D>;
      includesAll?: ChoiceOf<D>[];
      includesAny?: ChoiceOf<D>[];
      empty?: boolean;
    }
  : T extends "record" ?
      & {
        equalsTo?: string;
        in?: string[];
        has?: TargetWhere<D>;
        empty?: boolean;
      }
      & NullTest<D>
  : T extends "records" ? {
      includes?: string;
      includesAll?: string[];
      includesAny?: string[];
      has?: TargetWhere<D>;
      empty?: boolean;
    }
  : Record<string, unknown>
  : Record<string, unknown>;

/** What a field accepts in a filter: a value of its type (equality) or its operators. */
export type FieldFilter<D> = ValueOf<D> | ConditionOf<D>;

/**
 * A typed filter over collection `C`: keys are its readable fields (and `UUID`), each a value
 * of the field's type or the operators the field type allows; `or` and `not` combine.
 *
 * @example
 * ```ts
 * import { defineCollection, field, type WhereOf } from "@strata/strata";
 * const Posts = defineCollection({
 *   fields: { title: field("text"), views: field("integer", { default: 0 }) },
 * });
 * const popular: WhereOf<typeof Posts> = { views: { atLeast: 10 }, title: { startsWith: "A" } };
 * ```
 */
export type WhereOf<C> = C extends AnyCollectionDefinition ?
    & {
      [K in ReadableKeys<FieldsOf<C>>]?: FieldFilter<FieldsOf<C>[K]>;
    }
    & {
      UUID?: string | { equalsTo?: string; in?: string[] };
      or?: WhereOf<C>[];
      not?: WhereOf<C>;
    }
  : never;

/** A field of `F` that `where(field, op, value)` may name. */
export type WhereKeys<F> = ReadableKeys<F> | "UUID";

/** The readable field names of collection `C`. */
export type ReadableFieldOf<C> = ReadableKeys<FieldsOf<C>>;

/**
 * The registry the client (`@strata/strata/client`) takes, from the generated one: each
 * collection's record, create and update shapes.
 *
 * @example
 * ```ts
 * import type { ClientRegistryOf, CollectionRegistry } from "@strata/strata";
 * import { createClient } from "@strata/strata/client";
 * const client = createClient<ClientRegistryOf<CollectionRegistry>>({ baseUrl: "http://localhost:8000" });
 * ```
 */
export type ClientRegistryOf<R = CollectionRegistry> = {
  [N in Extract<keyof R, string>]: {
    record: RecordOf<R[N]>;
    create: CreateInputOf<R[N]>;
    update: UpdateInputOf<R[N]>;
  };
};
