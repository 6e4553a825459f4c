/**
 * The `api` option of a collection, normalised per operation (SPEC.md "Collection `api`
 * option").
 *
 * @module
 */
import type { WhereFilter } from "../where.ts";

/** The four operations of the collections API. */
export type ApiOperation = "read" | "create" | "update" | "delete";

/** Every operation, in a stable order. */
export const API_OPERATIONS: readonly ApiOperation[] = Object.freeze([
  "read",
  "create",
  "update",
  "delete",
]);

/** What an `access` function receives. */
export interface AccessContext {
  /** The operation being authorised. */
  readonly operation: ApiOperation;
  /** The JSON body as sent (create and update only). */
  readonly input?: unknown;
}

/** What an `access` function returns (SPEC.md "Access scope"). */
export type AccessVerdict = boolean | AccessScope;

/** A scope narrowing an operation. */
export interface AccessScope {
  /** ANDed into every query of the operation. */
  readonly where?: WhereFilter;
  /** The fields the request may reach; on update, the fields that write. */
  readonly select?: readonly string[];
  /** Cap on a list read's window. */
  readonly limit?: number;
  /** Locale a read uses when the request names none. */
  readonly locale?: string;
}

/** An `access` function; the caller is read ambiently (`useUser`). */
export type AccessFunction = (
  ctx: AccessContext,
) => AccessVerdict | Promise<AccessVerdict>;

/** One operation's options in the object form of `api`. */
export interface ApiOperationOptions {
  /** Open to anyone (no capability guard). */
  readonly public?: boolean;
  /** Named middleware run after the guard and the global middleware. */
  readonly middleware?: readonly string[];
  /** Narrows the operation. */
  readonly access?: AccessFunction;
}

/** The `api` option of a collection. */
export type ApiOption =
  | true
  | {
    readonly [K in ApiOperation]?: true | "public" | ApiOperationOptions;
  };

/** One operation after normalisation; `undefined` means closed. */
export interface OperationPolicy {
  /** No capability guard. */
  readonly public: boolean;
  /** Named middleware, in order. */
  readonly middleware: readonly string[];
  /** The access function, if any. */
  readonly access?: AccessFunction;
}

/** Every operation of one collection; a missing key is a closed operation. */
export type ExposurePolicy = Readonly<
  Partial<Record<ApiOperation, OperationPolicy>>
>;

const GUARDED: OperationPolicy = Object.freeze({
  public: false,
  middleware: Object.freeze([]),
});
const PUBLIC: OperationPolicy = Object.freeze({
  public: true,
  middleware: Object.freeze([]),
});

function normalizeOperation(
  value: unknown,
  where: string,
): OperationPolicy | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return GUARDED;
  if (value === "public") return PUBLIC;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`${where} must be true, "public" or an options object`);
  }
  const options = value as Record<string, unknown>;
  for (const key of Object.keys(options)) {
    if (!["public", "middleware", "access"].includes(key)) {
      throw new Error(`${where} has an unknown option "${key}"`);
    }
  }
  if (options.public !== undefined && typeof options.public !== "boolean") {
    throw new Error(`${where}.public must be a boolean`);
  }
  const middleware = options.middleware ?? [];
  if (
    !Array.isArray(middleware) || middleware.some((m) => typeof m !== "string")
  ) {
    throw new Error(`${where}.middleware must be an array of middleware names`);
  }
  if (options.access !== undefined && typeof options.access !== "function") {
    throw new Error(`${where}.access must be a function`);
  }
  return Object.freeze({
    public: options.public === true,
    middleware: Object.freeze([...middleware]),
    access: options.access as AccessFunction | undefined,
  });
}

/**
 * Normalises a collection's `api` option; throws naming the collection for a bad shape.
 *
 * @example
 * ```ts
 * import { normalizeApiOption } from "./exposure.ts";
 * const policy = normalizeApiOption("Posts", { read: "public", update: true });
 * policy.read?.public; // true
 * policy.delete; // undefined: closed
 * ```
 */
export function normalizeApiOption(
  collection: string,
  api: unknown,
): ExposurePolicy {
  if (api === undefined || api === false) return Object.freeze({});
  if (api === true) {
    return Object.freeze({
      read: GUARDED,
      create: GUARDED,
      update: GUARDED,
      delete: GUARDED,
    });
  }
  if (typeof api !== "object" || api === null || Array.isArray(api)) {
    throw new Error(
      `Collection ${collection}: api must be true or an object keyed by operation`,
    );
  }
  const policy: Partial<Record<ApiOperation, OperationPolicy>> = {};
  for (const [key, value] of Object.entries(api)) {
    if (!API_OPERATIONS.includes(key as ApiOperation)) {
      throw new Error(
        `Collection ${collection}: api has an unknown operation "${key}" (read, create, update, delete)`,
      );
    }
    const normalized = normalizeOperation(
      value,
      `Collection ${collection}: api.${key}`,
    );
    if (normalized) policy[key as ApiOperation] = normalized;
  }
  return Object.freeze(policy);
}
