/**
 * The Standard Schema interface (standardschema.dev), types only: zod ≥ 3.24, valibot ≥ 1 and
 * arktype ≥ 2 values all satisfy it, so Strata validates with any of them without depending on
 * one. The optional `jsonSchema` member is the Standard JSON Schema interface (zod 4,
 * arktype) that lets the OpenAPI document describe a schema.
 *
 * @module
 */

/** One problem a schema found. */
export interface StandardSchemaIssue {
  /** The library's message. */
  readonly message: string;
  /** Where in the value: keys, or segments carrying a `key`. */
  readonly path?:
    | ReadonlyArray<PropertyKey | { readonly key: PropertyKey }>
    | undefined;
}

/** What `validate` answers: the output value, or the issues. */
export type StandardSchemaResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardSchemaIssue> };

/** Options of a Standard JSON Schema conversion. */
export interface StandardJsonSchemaOptions {
  /** The JSON Schema dialect wanted; OpenAPI 3.1 uses `draft-2020-12`. */
  readonly target: string;
}

/** A value that validates with the Standard Schema interface. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The Standard Schema properties. */
  readonly "~standard": {
    /** The interface version, 1. */
    readonly version: 1;
    /** The library's name. */
    readonly vendor: string;
    /** Validates a value, synchronously or not. */
    readonly validate: (
      value: unknown,
    ) =>
      | StandardSchemaResult<Output>
      | Promise<StandardSchemaResult<Output>>;
    /** Phantom input and output types. */
    readonly types?: { readonly input: Input; readonly output: Output };
    /** The Standard JSON Schema converters, where the library has them. */
    readonly jsonSchema?: {
      /** JSON Schema of the accepted input. */
      readonly input: (
        options: StandardJsonSchemaOptions,
      ) => Record<string, unknown>;
      /** JSON Schema of the produced output. */
      readonly output: (
        options: StandardJsonSchemaOptions,
      ) => Record<string, unknown>;
    };
  };
}

/** The output type of a Standard Schema. */
export type SchemaOutput<S> = S extends StandardSchemaV1<unknown, infer O> ? O
  : never;

/** The input type of a Standard Schema. */
export type SchemaInput<S> = S extends StandardSchemaV1<infer I, unknown> ? I
  : never;

/**
 * Whether `value` implements the Standard Schema interface.
 *
 * @example
 * ```ts
 * import { isStandardSchema } from "./standard_schema.ts";
 * isStandardSchema({ "~standard": { version: 1, vendor: "x", validate: () => ({ value: 1 }) } }); // true
 * ```
 */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  const standard = (value as { "~standard"?: { validate?: unknown } } | null)
    ?.["~standard"];
  return (typeof value === "object" || typeof value === "function") &&
    value !== null && typeof standard === "object" && standard !== null &&
    typeof standard.validate === "function";
}

/**
 * The dotted path of an issue (`items.0.qty`), `""` at the root.
 *
 * @example
 * ```ts
 * import { issuePath } from "./standard_schema.ts";
 * issuePath({ message: "x", path: ["items", { key: 0 }, "qty"] }); // "items.0.qty"
 * ```
 */
export function issuePath(issue: StandardSchemaIssue): string {
  return (issue.path ?? []).map((segment) =>
    String(
      typeof segment === "object" && segment !== null ? segment.key : segment,
    )
  ).join(".");
}

/**
 * Validates `value` with `schema`: the output, or a map of dotted paths (prefixed by
 * `prefix`) to the first message found there.
 *
 * @example
 * ```ts
 * import { validateWith } from "./standard_schema.ts";
 * const schema = { "~standard": { version: 1 as const, vendor: "x", validate: () => ({ issues: [{ message: "Required", path: ["id"] }] }) } };
 * await validateWith(schema, {}, "params"); // { errors: { "params.id": "Required" } }
 * ```
 */
export async function validateWith(
  schema: StandardSchemaV1,
  value: unknown,
  prefix: string,
): Promise<{ value: unknown } | { errors: Record<string, string> }> {
  const result = await schema["~standard"].validate(value);
  if (!result.issues) return { value: result.value };
  // A Map, so that paths such as `__proto__` or `constructor` are plain keys.
  const errors = new Map<string, string>();
  for (const issue of result.issues) {
    const path = issuePath(issue);
    const key = prefix && path ? `${prefix}.${path}` : prefix || path;
    if (!errors.has(key)) errors.set(key, String(issue.message));
  }
  return { errors: Object.fromEntries(errors) };
}
