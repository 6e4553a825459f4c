/**
 * `GET /dashboard/api/collections`: the collections the signed-in caller may
 * read through the collections API, described the way the dashboard's
 * collections browser needs them (path, locales, operations, fields).
 *
 * @module
 */
import { defineHandler, type HandlerDefinition } from "../router/handler.ts";
import type { StrataEvent } from "../router/event.ts";
import type { ResolvedField } from "../collections/resolve.ts";
import type { FieldKind } from "../collections/where.ts";
import { hostOf } from "../collections/api/host.ts";
import {
  type ApiCollection,
  apiRegistry,
} from "../collections/api/registry.ts";
import {
  guardRefusal,
  resolvePrincipal,
  type Scope,
  targetReadPolicy,
} from "../collections/api/policy.ts";
import type { Principal } from "../collections/api/principal.ts";
import { requireUser } from "../auth/user.ts";
import {
  type DashboardRecordAction,
  RECORD_ACTIONS_HOOK,
  type RecordActionsFunction,
} from "./record_actions.ts";
import { useApp } from "../app/ambient.ts";
import { literalOrMessage } from "../i18n/literal_or_key.ts";
import {
  displayFieldOf,
  type FieldDisplay,
  wordsOf,
} from "../collections/presentation.ts";

/** One field of a collection as the dashboard renders it. */
export interface DashboardField {
  /** The field name. */
  readonly name: string;
  /** The field type's name (`text`, `email`, `password`, …). */
  readonly type: string;
  /** The storage kind of the type (`text`, `integer`, `record`, …). */
  readonly kind: FieldKind;
  /** `null` is accepted. */
  readonly nullable: boolean;
  /** A create must name it: neither nullable nor defaulted. */
  readonly required: boolean;
  /** The caller reads it through the API (false: write-only for them). */
  readonly readable: boolean;
  /** Accepted in write input. */
  readonly writable: boolean;
  /** Refused in update input. */
  readonly immutable: boolean;
  /** One value per locale. */
  readonly translatable: boolean;
  /** The allowed values of a `select` or `multiSelect` field. */
  readonly choices?: readonly string[];
  /** The collection a `record` or `records` field links to. */
  readonly target?: string;
  /** Its label in the request's language (default: the name, words split). */
  readonly label: string;
  /** Help text under the input, in the request's language. */
  readonly description?: string;
  /** The input's placeholder, in the request's language. */
  readonly placeholder?: string;
  /** An input hint (`textarea`, `switch`, `color`, `url`, `email`). */
  readonly display?: FieldDisplay;
  /** Left out of the dashboard's lists and forms. */
  readonly hidden: boolean;
  /** The least value (numbers, dates, times) or length (text) or count (lists). */
  readonly min?: number | string;
  /** The greatest value (numbers, dates, times) or length (text) or count (lists). */
  readonly max?: number | string;
}

/** Which operations the caller may start from the dashboard. */
export interface DashboardOperations {
  /** Always true for a listed collection. */
  readonly read: boolean;
  /** Exposed, and the caller passes its guard. */
  readonly create: boolean;
  /** Exposed, and the caller passes its guard. */
  readonly update: boolean;
  /** Exposed, and the caller passes its guard. */
  readonly delete: boolean;
}

/** One collection the caller may read, as the dashboard lists it. */
export interface DashboardCollection {
  /** The collection name. */
  readonly name: string;
  /** Its kebab-case API path segment (`/collections/<path>`). */
  readonly path: string;
  /**
   * Whether the caller may full-text search it (`search=`): it has a searchable field the
   * caller reads. Otherwise the browser's filter falls back to `contains` over text fields.
   */
  readonly search: boolean;
  /**
   * Whether a code layer (the auth layer: users, sessions, tokens) defines it rather than a
   * file of the app or a folder layer; the dashboard lists the app's own collections first.
   */
  readonly system: boolean;
  /** Whether it has translatable fields. */
  readonly translatable: boolean;
  /** The content locales its records may hold (empty when not translatable). */
  readonly locales: readonly string[];
  /** What the caller may do with it. */
  readonly operations: DashboardOperations;
  /** Its fields in definition order; `UUID` and system fields are not listed. */
  readonly fields: readonly DashboardField[];
  /** Buttons layers add to its rows for this caller (see `record_actions.ts`). */
  readonly actions: readonly DashboardRecordAction[];
  /** Its label in the request's language (default: the name, words split). */
  readonly label: string;
  /** What it holds, in the request's language. */
  readonly description?: string;
  /**
   * The readable field that names a record, or null (the dashboard then shows the label and
   * the record's `_updatedAt` date).
   */
  readonly displayField: string | null;
  /** The columns shown by default: readable fields. */
  readonly listFields: readonly string[];
  /** The default order in the wire's syntax; empty for the API's own default. */
  readonly defaultOrder: readonly string[];
}

// A collection loaded from a file (the app's folder, a folder layer) rather than a code layer.
const FILE_SOURCE = /\.[cm]?[jt]sx?$/;

// Literal or message key → text in the request's language.
type Resolve = (value: string) => string;

function describeField(
  field: ResolvedField,
  scope: Scope,
  resolve: Resolve,
): DashboardField | undefined {
  const readable = field.readable &&
    (scope.select === undefined || scope.select.has(field.name));
  // A field the caller can neither see nor write is of no use to the forms.
  if (!readable && !field.writable) return undefined;
  const choices = field.options.choices;
  return {
    name: field.name,
    type: field.type.name,
    kind: field.kind,
    nullable: field.nullable,
    required: !field.nullable && !field.hasDefault,
    readable,
    writable: field.writable,
    immutable: field.immutable,
    translatable: field.translatable,
    ...(choices ? { choices: [...choices] } : {}),
    ...(field.target ? { target: field.target } : {}),
    label: resolve(field.options.label ?? wordsOf(field.name)),
    ...text("description", field.options.description, resolve),
    ...text("placeholder", field.options.placeholder, resolve),
    ...(field.options.display ? { display: field.options.display } : {}),
    hidden: field.options.hidden === true,
    ...(field.options.min !== undefined ? { min: field.options.min } : {}),
    ...(field.options.max !== undefined ? { max: field.options.max } : {}),
  };
}

function text(
  key: string,
  value: string | undefined,
  resolve: Resolve,
): Record<string, string> {
  return value === undefined ? {} : { [key]: resolve(value) };
}

function passesGuard(
  collection: ApiCollection,
  operation: "create" | "update" | "delete",
  principal: Principal,
): boolean {
  return collection.exposure[operation] !== undefined &&
    guardRefusal(collection, operation, principal) === undefined;
}

/**
 * Describes every collection the caller of `event` may read through the
 * collections API: the app's own first, each group sorted by name. Reading is decided by the API's own policy
 * engine (exposure, guard, access verdict; operation middleware do not run);
 * the other operations need exposure and a passing guard.
 *
 * @example
 * ```ts ignore
 * import { readableCollections } from "./collections_route.ts";
 * const list = await readableCollections(event);
 * list.map((collection) => collection.path); // ["articles", "users"]
 * ```
 */
export async function readableCollections(
  event: StrataEvent,
): Promise<DashboardCollection[]> {
  const host = hostOf(event);
  const registry = apiRegistry(host);
  const principal = await resolvePrincipal(host);
  const actionSources = host.hooks(
    RECORD_ACTIONS_HOOK,
  ) as readonly RecordActionsFunction[];
  const can = (capability: string) => principal.can(capability);
  const messages = useApp().messages;
  const sources = useApp().layers.collectionSources;
  const languages = messages.languages(event.request, event);
  const resolve: Resolve = (value) =>
    literalOrMessage(messages.translator, value, languages);
  const out: DashboardCollection[] = [];
  for (const collection of registry.byName.values()) {
    if (!collection.exposure.read) continue;
    const scope = await targetReadPolicy(host, event, collection.name, false);
    if (scope === false) continue;
    const fields = collection.resolved.fieldList
      .filter((field) => field.name !== "UUID" && !field.name.startsWith("_"))
      .map((field) => describeField(field, scope, resolve))
      .filter((field): field is DashboardField => field !== undefined);
    const definition = collection.resolved.definition;
    const readable = new Set(
      fields.filter((field) => field.readable).map((field) => field.name),
    );
    const named = displayFieldOf(definition);
    out.push({
      name: collection.name,
      path: collection.path,
      system: !FILE_SOURCE.test(sources.get(collection.name) ?? ""),
      search: collection.resolved.searchFields.some((field) =>
        fields.some((f) => f.name === field.name && f.readable)
      ),
      translatable: collection.translatable,
      locales: collection.translatable ? [...registry.locales] : [],
      operations: {
        read: true,
        create: passesGuard(collection, "create", principal),
        update: passesGuard(collection, "update", principal),
        delete: passesGuard(collection, "delete", principal),
      },
      fields,
      actions: actionSources.flatMap((actions) =>
        actions(collection.name, can) ?? []
      ),
      label: resolve(definition.label ?? wordsOf(collection.name)),
      ...text("description", definition.description, resolve),
      displayField: named !== null && readable.has(named) ? named : null,
      listFields: (definition.listFields ??
        fields.filter((field) => !field.hidden).map((field) => field.name))
        .filter((name) => readable.has(name)),
      defaultOrder: (definition.defaultOrder ?? []).filter((entry) => {
        const name = entry.replace(/^-/, "");
        return readable.has(name) ||
          (scope.select === undefined &&
            (name === "UUID" || name === "_createdAt" ||
              name === "_updatedAt"));
      }),
    });
  }
  return out.sort((a, b) =>
    a.system !== b.system
      ? (a.system ? 1 : -1)
      : a.name < b.name
      ? -1
      : a.name > b.name
      ? 1
      : 0
  );
}

/**
 * The route behind `GET /dashboard/api/collections` (route file key
 * `dashboard/api/collections.get.ts`, registered by the auth layer): 401 when
 * signed out, else the {@link DashboardCollection} list of
 * {@link readableCollections}.
 *
 * @example
 * ```ts ignore
 * import { defineLayer } from "../app/layer.ts";
 * import { collectionsRoute } from "./collections_route.ts";
 * defineLayer({
 *   name: "auth",
 *   routes: { "dashboard/api/collections.get.ts": collectionsRoute },
 * });
 * ```
 */
export const collectionsRoute: HandlerDefinition = defineHandler(
  async (event): Promise<DashboardCollection[]> => {
    await requireUser();
    event.headers.set("cache-control", "no-store");
    return await readableCollections(event);
  },
  { openapi: false },
);
