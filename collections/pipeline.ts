/**
 * The write pipeline: per field, type sanitizers → type validators → field sanitizers →
 * field validators. The first refusal stops that field; every field is checked and every
 * refusal is reported at once as `{ [fieldPath]: message }`. Keys that may not be written
 * (unknown, `UUID`, `_updatedAt`, `_translations`, `writable: false`, `immutable` on update)
 * are refused with `unknownField`. Defaults fill absent fields on create.
 *
 * @module
 */

import { exceedsUtf8Bytes } from "./_utf8.ts";
import type {
  FieldContext,
  ValidationIssue,
  WriteOperation,
} from "./define.ts";
import type { LayerContext } from "./_context.ts";
import type { ResolvedCollection, ResolvedField } from "./resolve.ts";
import { noteErrorCode, type WriteErrors } from "./results.ts";
import { isThenable } from "../utils/_maybe_promise.ts";

/** Options of a write from trusted code. */
export interface WriteOptions {
  /** Also accept `writable: false` and `immutable` fields (server-side computations). */
  allowProtected?: boolean;
  /** Only these fields may be written; any other key is refused like an unknown field. */
  writable?: ReadonlySet<string>;
}

/** The outcome of the pipeline. */
export interface PipelineResult {
  /** Sanitized values of the fields to write (not yet prepared for storage). */
  values: Map<ResolvedField, unknown>;
  /** Field path → rendered message. */
  errors: Record<string, string>;
}

/**
 * Renders an issue through the data layer's renderer.
 *
 * @example
 * ```ts ignore
 * renderIssue(ctx, { key: "tooLong", params: { max: 3 } });
 * ```
 */
export function renderIssue(ctx: LayerContext, issue: ValidationIssue): string {
  return typeof issue === "string"
    ? ctx.render(issue, {})
    : ctx.render(issue.key, issue.params ?? {});
}

/**
 * Records a refusal at `path`: its message rendered into `errors`, its key as the stable code.
 *
 * @example
 * ```ts ignore
 * refuseField(ctx, errors, "title", "required");
 * ```
 */
export function refuseField(
  ctx: LayerContext,
  errors: WriteErrors,
  path: string,
  issue: ValidationIssue,
): void {
  errors[path] = renderIssue(ctx, issue);
  noteErrorCode(errors, path, typeof issue === "string" ? issue : issue.key);
}

/**
 * Builds the context handed to sanitizers and validators.
 *
 * @example
 * ```ts ignore
 * const fctx = fieldContext(ctx, field, "create", "en", input);
 * ```
 */
export function fieldContext(
  ctx: LayerContext,
  field: ResolvedField,
  operation: WriteOperation,
  locale: string,
  input: Readonly<Record<string, unknown>>,
): FieldContext {
  return {
    collection: field.collection,
    field: field.name,
    path: field.name,
    operation,
    locale,
    input,
    options: field.options,
    // The layer's own function (it builds on the layer's context, whatever `this`), rather
    // than a closure per field of every write.
    query: ctx.query,
  };
}

/** The outcome of one field's pipeline. */
export interface FieldOutcome {
  /** The (sanitized) value. */
  value: unknown;
  /** The refusal, if any. */
  issue?: ValidationIssue;
}

interface Step {
  sanitize: boolean;
  fn: (value: unknown, ctx: FieldContext) => unknown;
}

const stepCache = new WeakMap<ResolvedField, readonly Step[]>();

function stepsOf(field: ResolvedField): readonly Step[] {
  let steps = stepCache.get(field);
  if (!steps) {
    steps = [
      ...field.typeSanitizers.map((fn) => ({ sanitize: true, fn })),
      ...field.typeValidators.map((fn) => ({ sanitize: false, fn })),
      ...field.fieldSanitizers.map((fn) => ({ sanitize: true, fn })),
      ...field.fieldValidators.map((fn) => ({ sanitize: false, fn })),
    ];
    stepCache.set(field, steps);
  }
  return steps;
}

function runSteps(
  steps: readonly Step[],
  start: number,
  input: unknown,
  fctx: FieldContext,
): FieldOutcome | Promise<FieldOutcome> {
  let value = input;
  for (let i = start; i < steps.length; i++) {
    const step = steps[i];
    const result = step.fn(value, fctx);
    if (isThenable(result)) {
      const current = value;
      return Promise.resolve(result).then((settled) => {
        if (step.sanitize) return runSteps(steps, i + 1, settled, fctx);
        if (settled !== undefined && settled !== null) {
          return { value: current, issue: settled as ValidationIssue };
        }
        return runSteps(steps, i + 1, current, fctx);
      });
    }
    if (step.sanitize) value = result;
    else if (result !== undefined && result !== null) {
      return { value, issue: result as ValidationIssue };
    }
  }
  return { value };
}

/**
 * Runs one field's pipeline: synchronous unless a sanitizer or validator returns a promise.
 *
 * @example
 * ```ts ignore
 * const outcome = await runField(field, "value", fctx);
 * if (outcome.issue) console.log(outcome.issue);
 * ```
 */
export function runField(
  field: ResolvedField,
  raw: unknown,
  fctx: FieldContext,
): FieldOutcome | Promise<FieldOutcome> {
  if (raw === null) {
    return field.nullable
      ? { value: null }
      : { value: null, issue: { key: "required" } };
  }
  // Both databases store a lone surrogate as U+FFFD; doing it first keeps the answer to a
  // write equal to a re-read, and validators see what will be stored.
  if (typeof raw === "string" && !raw.isWellFormed()) raw = raw.toWellFormed();
  return runSteps(stepsOf(field), 0, raw, fctx);
}

/**
 * Whether a value about to be stored holds a string with U+0000 anywhere (lists and objects
 * included, to a fixed depth). PostgreSQL cannot store it in text or JSON at all, so it is
 * refused on every database: the same write must not pass on one and fail on another.
 */
function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (value === null || typeof value !== "object" || depth > 32) return false;
  if (Array.isArray(value)) return value.some((v) => holdsNul(v, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.entries(value).some(([k, v]) =>
    k.includes("\u0000") || holdsNul(v, depth + 1)
  );
}

function tooLongForIndex(
  collection: ResolvedCollection,
  field: ResolvedField,
  value: unknown,
): boolean {
  const limit = collection.indexedTextLimits.get(field.name);
  return limit !== undefined && typeof value === "string" &&
    exceedsUtf8Bytes(value, limit);
}

const SYSTEM_KEYS: ReadonlySet<string> = new Set([
  "UUID",
  "_updatedAt",
  "_translations",
]);

/**
 * Validates a write input. `create` fills defaults and reports absent required fields;
 * `update` checks only the given keys.
 *
 * @example
 * ```ts ignore
 * const { values, errors } = await runPipeline(ctx, posts, { title: "x" }, "create", "en");
 * ```
 */
export async function runPipeline(
  ctx: LayerContext,
  collection: ResolvedCollection,
  input: Readonly<Record<string, unknown>>,
  operation: WriteOperation,
  locale: string,
  options: WriteOptions = {},
): Promise<PipelineResult> {
  return await pipelineOf(ctx, collection, input, operation, locale, options);
}

/**
 * {@link runPipeline} without a promise when no sanitizer or validator returns one (a write
 * that need not wait costs no await); throws, rather than rejects, on an input that is not an
 * object. When it answers synchronously, `values` holds the fields in definition order.
 *
 * @example
 * ```ts ignore
 * const outcome = pipelineOf(ctx, posts, { title: "x" }, "create", "en", {});
 * const { values, errors } = outcome instanceof Promise ? await outcome : outcome;
 * ```
 */
export function pipelineOf(
  ctx: LayerContext,
  collection: ResolvedCollection,
  input: Readonly<Record<string, unknown>>,
  operation: WriteOperation,
  locale: string,
  options: WriteOptions,
): PipelineResult | Promise<PipelineResult> {
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw new TypeError(
      `The ${operation} input for ${collection.name} must be an object`,
    );
  }
  const errors: WriteErrors = {};
  const values = new Map<ResolvedField, unknown>();
  // Rendered once, and only when a key is refused: rendering reads the request's languages.
  let unknown: string | undefined;
  for (const key in input) {
    if (!Object.hasOwn(input, key) || input[key] === undefined) continue;
    const field = SYSTEM_KEYS.has(key) ? undefined : collection.fields.get(key);
    if (
      !field ||
      (options.writable !== undefined && !options.writable.has(key)) ||
      (!options.allowProtected &&
        (!field.writable || (operation === "update" && field.immutable)))
    ) {
      errors[key] = unknown ??= ctx.render("unknownField", {});
      noteErrorCode(errors, key, "unknownField");
    }
  }
  let pending: Promise<void>[] | undefined;
  const fields = collection.fieldList;
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i];
    const given = input[field.name] !== undefined &&
      Object.hasOwn(input, field.name);
    if (Object.hasOwn(errors, field.name)) continue;
    let raw: unknown;
    if (given) {
      raw = input[field.name];
    } else if (operation === "update") {
      continue;
    } else if (field.hasDefault) {
      raw = field.defaultValue();
    } else if (field.nullable) {
      values.set(field, null);
      continue;
    } else {
      refuseField(ctx, errors, field.name, "required");
      continue;
    }
    const fctx = fieldContext(ctx, field, operation, locale, input);
    const outcome = runField(field, raw, fctx);
    if (outcome instanceof Promise) {
      (pending ??= []).push(
        outcome.then((result) =>
          settleField(ctx, collection, field, result, values, errors)
        ),
      );
    } else settleField(ctx, collection, field, outcome, values, errors);
  }
  if (pending === undefined) return { values, errors };
  return Promise.all(pending).then(() => ({ values, errors }));
}

/** Keeps one field's outcome: its value, or the refusal it (or what it holds) earns. */
function settleField(
  ctx: LayerContext,
  collection: ResolvedCollection,
  field: ResolvedField,
  result: FieldOutcome,
  values: Map<ResolvedField, unknown>,
  errors: WriteErrors,
): void {
  if (result.issue !== undefined) {
    refuseField(ctx, errors, field.name, result.issue);
  } else if (holdsNul(result.value)) {
    refuseField(ctx, errors, field.name, "nulCharacter");
  } else if (tooLongForIndex(collection, field, result.value)) {
    refuseField(ctx, errors, field.name, {
      key: "tooLongForIndex",
      params: { max: collection.indexedTextLimits.get(field.name) },
    });
  } else {
    values.set(field, result.value);
  }
}

/**
 * Runs `prepareForStorage` (last step before storage) over the values that define it.
 *
 * @example
 * ```ts ignore
 * await prepareForStorage(ctx, values, "create", "en", input);
 * ```
 */
export async function prepareForStorage(
  ctx: LayerContext,
  values: Map<ResolvedField, unknown>,
  operation: WriteOperation,
  locale: string,
  input: Readonly<Record<string, unknown>>,
): Promise<void> {
  for (const [field, value] of values) {
    const prepare = field.type.prepareForStorage;
    if (!prepare || value === null) continue;
    const fctx = fieldContext(ctx, field, operation, locale, input);
    let prepared = prepare(value, fctx);
    if (isThenable(prepared)) prepared = await prepared;
    values.set(field, prepared);
  }
}
