/**
 * The policy engine of the collections API, shared by its routes and by `queryScoped`:
 * exposure → guard → operation middleware → access verdict, in that order (DESIGN.md §6).
 *
 * @module
 */
import {
  forbidden,
  HTTPError,
  notFound,
  unauthorized,
} from "../../router/errors.ts";
import type { StrataEvent } from "../../router/event.ts";
import type { WhereFilter } from "../where.ts";
import type { ReadPolicy } from "../read_policy.ts";
import type { ApiHost } from "./host.ts";
import type { ApiCollection } from "./registry.ts";
import { apiRegistry } from "./registry.ts";
import type {
  AccessVerdict,
  ApiOperation,
  OperationPolicy,
} from "./exposure.ts";
import type { MaybePromise } from "../../utils/_maybe_promise.ts";
import { ANONYMOUS, type Principal, PRINCIPAL_HOOK } from "./principal.ts";

/** A verdict in normal form; composing a client's query into it can only narrow it. */
export interface Scope {
  /** ANDed into every query of the operation. */
  readonly where?: WhereFilter;
  /** Fields the request may reach (`UUID` only when named). */
  readonly select?: ReadonlySet<string>;
  /** Cap on a list's window. */
  readonly limit?: number;
  /** Default read locale. */
  readonly locale?: string;
}

/** An operation the caller may run, with its scope. */
export interface Grant {
  /** The collection. */
  readonly collection: ApiCollection;
  /** The operation. */
  readonly operation: ApiOperation;
  /** The scope (`{}` when unscoped). */
  readonly scope: Scope;
}

/** The outcome of {@link authorizeOperation}: a grant, or an answer a middleware gave. */
export type Authorization =
  | { readonly granted: true; readonly grant: Grant }
  | { readonly granted: false; readonly answer: unknown };

const UNSCOPED: Scope = Object.freeze({});

function verdictError(
  collection: string,
  operation: string,
  problem: string,
): Error {
  return new Error(
    `Collection ${collection}: api.${operation}.access ${problem}`,
  );
}

function normalizeVerdict(
  collection: ApiCollection,
  operation: ApiOperation,
  verdict: AccessVerdict,
  locales: readonly string[],
): Scope | false {
  if (verdict === true) return UNSCOPED;
  if (verdict === false) return false;
  if (
    typeof verdict !== "object" || verdict === null || Array.isArray(verdict)
  ) {
    throw verdictError(
      collection.name,
      operation,
      "must return true, false or a scope object",
    );
  }
  const scope: {
    where?: WhereFilter;
    select?: Set<string>;
    limit?: number;
    locale?: string;
  } = {};
  for (const [key, value] of Object.entries(verdict)) {
    if (value === undefined) continue;
    if (key === "where") {
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        throw verdictError(
          collection.name,
          operation,
          "returned a where that is not an object",
        );
      }
      scope.where = value as WhereFilter;
    } else if (key === "select") {
      if (!Array.isArray(value) || value.some((f) => typeof f !== "string")) {
        throw verdictError(
          collection.name,
          operation,
          "returned a select that is not a list of field names",
        );
      }
      for (const name of value) {
        if (name !== "UUID" && !collection.resolved.fields.has(name)) {
          throw verdictError(
            collection.name,
            operation,
            `returned a select naming unknown field "${name}"`,
          );
        }
      }
      scope.select = new Set(value);
    } else if (key === "limit") {
      if (!Number.isSafeInteger(value) || (value as number) < 0) {
        throw verdictError(
          collection.name,
          operation,
          "returned a limit that is not a non-negative integer",
        );
      }
      scope.limit = value as number;
    } else if (key === "locale") {
      const canonical = typeof value === "string"
        ? Intl.getCanonicalLocales(value)[0]
        : undefined;
      if (!canonical || !locales.includes(canonical)) {
        throw verdictError(
          collection.name,
          operation,
          `returned a locale that is not configured`,
        );
      }
      scope.locale = canonical;
    } else {
      throw verdictError(
        collection.name,
        operation,
        `returned an unknown scope key "${key}"`,
      );
    }
  }
  return Object.freeze(scope);
}

/**
 * The caller of the current request, from the `collections:principal` hook (anonymous when
 * no layer registers one).
 *
 * @example
 * ```ts ignore
 * const principal = await resolvePrincipal(app);
 * principal.can("collection.Posts.read");
 * ```
 */
export async function resolvePrincipal(host: ApiHost): Promise<Principal> {
  const resolvers = host.hooks(PRINCIPAL_HOOK);
  const resolver = resolvers[resolvers.length - 1] as
    | (() => Principal | Promise<Principal>)
    | undefined;
  return resolver ? await resolver() : ANONYMOUS;
}

async function runMiddleware(
  list: readonly ((event: StrataEvent) => unknown)[],
  event: StrataEvent,
): Promise<unknown> {
  for (const middleware of list) {
    const answer = await middleware(event);
    if (answer !== undefined) return answer;
  }
  return undefined;
}

/**
 * What the capability guard of an exposed operation says to `principal`: nothing when it
 * passes (public, or a signed-in user whose capabilities cover `collection.<Name>.<operation>`),
 * 401 without a user, 403 without the capability.
 *
 * @example
 * ```ts ignore
 * guardRefusal(posts, "update", await resolvePrincipal(app)); // undefined, 401 or 403
 * ```
 */
export function guardRefusal(
  collection: ApiCollection,
  operation: ApiOperation,
  principal: Principal,
): 401 | 403 | undefined {
  if (collection.exposure[operation]?.public) return undefined;
  if (!principal.signedIn) return 401;
  return principal.can(`collection.${collection.name}.${operation}`)
    ? undefined
    : 403;
}

/** Options of {@link authorizeOperation}. */
export interface AuthorizeOptions {
  /** The body as sent (create and update), handed to `access`. */
  readonly input?: unknown;
  /** Run the operation's middleware (the routes do; `queryScoped` does not). */
  readonly runMiddleware: boolean;
  /** The request. */
  readonly event: StrataEvent;
}

/**
 * Decides whether the caller may run `operation` on `collection`: an unknown collection or a
 * closed operation is 404, a guarded one needs a user (401) whose capabilities cover
 * `collection.<Name>.<operation>` (403); then the operation's middleware may answer, then the
 * access verdict: `false` is 404, an object scopes the operation.
 *
 * @example
 * ```ts ignore
 * const outcome = await authorizeOperation(app, registry.byName.get("Posts"), "read", {
 *   runMiddleware: true,
 *   event,
 * });
 * ```
 */
export function authorizeOperation(
  host: ApiHost,
  collection: ApiCollection | undefined,
  operation: ApiOperation,
  options: AuthorizeOptions,
): Promise<Authorization> {
  try {
    return Promise.resolve(
      decideOperation(host, collection, operation, options),
    );
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * {@link authorizeOperation}, answered at once (or thrown) when nothing has to be waited
 * for: a public operation without middleware to run and without an `access` rule, the
 * usual case of a public read. Otherwise a promise.
 *
 * @example
 * ```ts ignore
 * const outcome = decideOperation(app, registry.byName.get("Posts"), "read", {
 *   runMiddleware: true,
 *   event,
 * }); // an Authorization when Posts is publicly readable with no middleware or access rule
 * ```
 */
export function decideOperation(
  host: ApiHost,
  collection: ApiCollection | undefined,
  operation: ApiOperation,
  options: AuthorizeOptions,
): MaybePromise<Authorization> {
  const policy = collection?.exposure[operation];
  if (!collection || !policy) throw notFound();
  const middleware = collection.middleware[operation];
  if (
    policy.public && !policy.access &&
    !(options.runMiddleware && middleware && middleware.length > 0)
  ) {
    return {
      granted: true,
      grant: Object.freeze({ collection, operation, scope: UNSCOPED }),
    };
  }
  return authorizeLater(host, collection, policy, operation, options);
}

async function authorizeLater(
  host: ApiHost,
  collection: ApiCollection,
  policy: OperationPolicy,
  operation: ApiOperation,
  options: AuthorizeOptions,
): Promise<Authorization> {
  if (!policy.public) {
    const refusal = guardRefusal(
      collection,
      operation,
      await resolvePrincipal(host),
    );
    if (refusal === 401) throw unauthorized();
    if (refusal === 403) throw forbidden();
  }
  const middleware = collection.middleware[operation];
  if (options.runMiddleware && middleware && middleware.length > 0) {
    const answer = await runMiddleware(middleware, options.event);
    if (answer !== undefined) return { granted: false, answer };
  }
  let scope: Scope = UNSCOPED;
  if (policy.access) {
    const context = operation === "create" || operation === "update"
      ? Object.freeze({ operation, input: options.input })
      : Object.freeze({ operation });
    const verdict = normalizeVerdict(
      collection,
      operation,
      await policy.access(context),
      apiRegistry(host).locales,
    );
    if (verdict === false) throw notFound();
    scope = operation === "create" ? UNSCOPED : verdict;
  }
  return {
    granted: true,
    grant: Object.freeze({ collection, operation, scope }),
  };
}

/** What the caller may read of a collection reached through populate or `has`. */
export type TargetPolicy = false | Scope;

/**
 * The read policy of a query on `root` under `rootScope`, with `targets` deciding every other
 * collection it reaches (a collection linking to itself answers under `rootScope`). A scope
 * is itself the rule the data layer applies (its `where` and `select`).
 *
 * @example
 * ```ts ignore
 * const policy = scopedReadPolicy("Posts", grant.scope, targets);
 * policy("Authors"); // the Authors read scope, false, or undefined
 * ```
 */
export function scopedReadPolicy(
  root: string,
  rootScope: Scope,
  targets: ReadonlyMap<string, TargetPolicy>,
): ReadPolicy {
  return (name) => name === root ? rootScope : targets.get(name);
}

const targetPolicies = new WeakMap<
  StrataEvent,
  Map<string, Promise<TargetPolicy>>
>();

/**
 * Forgets the read policies {@link targetReadPolicy} remembered for `event`, so they are
 * evaluated afresh (an event stream re-checks its caller's grant).
 *
 * @example
 * ```ts ignore
 * forgetTargetPolicies(event);
 * ```
 */
export function forgetTargetPolicies(event: StrataEvent): void {
  targetPolicies.delete(event);
}

/**
 * The read policy of a collection reached from another one (populate, `has`, links written):
 * its own read exposure, guard, middleware and scope decide; anything refused — including a
 * middleware that answers — makes it unreadable. Evaluated once per request and collection;
 * `queryScoped` passes `runMiddleware: false` (trusted code runs no operation middleware).
 *
 * @example
 * ```ts ignore
 * const authors = await targetReadPolicy(app, event, "Authors");
 * if (authors === false) console.log("Authors are out of reach");
 * ```
 */
export function targetReadPolicy(
  host: ApiHost,
  event: StrataEvent,
  name: string,
  runMiddleware = true,
): Promise<TargetPolicy> {
  let memo = targetPolicies.get(event);
  if (!memo) targetPolicies.set(event, memo = new Map());
  const key = runMiddleware ? name : `${name} (no middleware)`;
  let policy = memo.get(key);
  if (!policy) {
    policy = authorizeOperation(
      host,
      apiRegistry(host).byName.get(name),
      "read",
      { runMiddleware, event },
    ).then(
      (outcome) => outcome.granted ? outcome.grant.scope : false,
      (error) => {
        if (error instanceof HTTPError) return false;
        throw error;
      },
    );
    memo.set(key, policy);
  }
  return policy;
}
