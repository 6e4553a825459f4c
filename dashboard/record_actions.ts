/**
 * Record actions: buttons a layer adds to the rows of a collection in the dashboard's
 * browser. Each POSTs `/collections/<path>/<uuid>/<name>` (a route the layer ships) and
 * reloads the list. A layer registers a function on {@link RECORD_ACTIONS_HOOK} that names
 * the actions of a collection for the caller.
 *
 * @module
 */

/** One button on a collection's rows. */
export interface DashboardRecordAction {
  /** The last path segment of the route the button POSTs to (`retry`). */
  readonly name: string;
  /** The key of its label in the `dashboard` message group (`retry`: `dashboard.retry`). */
  readonly label: string;
  /** Shown only on records whose `field` holds one of `values`. */
  readonly when?: {
    readonly field: string;
    readonly values: readonly string[];
  };
}

/**
 * The hook naming a collection's record actions: `(collection, can) => actions`, where
 * `collection` is the collection's name and `can(capability)` tells whether the caller holds
 * a capability.
 */
export const RECORD_ACTIONS_HOOK = "dashboard:record-actions";

/** A function registered on {@link RECORD_ACTIONS_HOOK}. */
export type RecordActionsFunction = (
  collection: string,
  can: (capability: string) => boolean,
) => readonly DashboardRecordAction[] | undefined;
