// The shapes the dashboard's client works with: what the server answers, and the client's
// own state. The collection and field descriptions are the server's own types.
import type {
  DashboardCollection,
  DashboardField,
} from "../collections_route.ts";

/** A collection as `/dashboard/api/collections` describes it. */
export type Collection = DashboardCollection;

/** A field as `/dashboard/api/collections` describes it. */
export type Field = DashboardField;

/** The parts of a field the pure helpers read (tests pass partial descriptions). */
export interface FieldLike {
  readonly name?: string;
  readonly type?: string;
  readonly kind?: string;
  readonly readable?: boolean;
  readonly nullable?: boolean;
}

/** The signed-in user as `/auth/me` answers it. */
export interface User {
  readonly UUID?: string;
  readonly email: string;
  readonly timezone?: string | null;
  readonly dateFormat?: string | null;
  readonly timeFormat?: string | null;
  readonly dashboardLanguage?: string | null;
  readonly contentLanguage?: string | null;
}

/** One record as the collections API answers it. */
export type WireRecord = Record<string, unknown>;

/** A page of records as the collections API answers a list. */
export interface ListEnvelope {
  readonly records: WireRecord[];
  readonly total: number;
  readonly page: number;
  readonly lastPage: number;
}

/** A message catalog as `/messages/dashboard/<language>` answers it. */
export type Catalog = Record<
  string,
  | string
  | { readonly template?: string; readonly language?: string }
  | undefined
>;

/** Values a message template is filled with. */
export type MessageValues = Record<string, unknown>;

/** How dates and numbers are shown: the dashboard language and the account's formats. */
export interface Settings {
  readonly language?: string;
  readonly timezone?: string | null;
  readonly dateFormat?: string | null;
  readonly timeFormat?: string | null;
}

/** A page of the dashboard. */
export type Route =
  | {
    readonly name:
      | "home"
      | "install"
      | "signIn"
      | "account"
      | "notFound"
      | "signUp"
      | "forgot"
      | "reset"
      | "verify"
      | "emailConfirm";
  }
  | { readonly name: "collection"; readonly path: string }
  | { readonly name: "record"; readonly path: string; readonly uuid: string };

/** The state of a collection page kept in its query string. */
export interface ListState {
  readonly page: number;
  readonly order: string;
  readonly q: string;
  readonly locale: string;
  /** Per-field filters (`f=field:op:value`); absent means none. */
  readonly filters?: readonly {
    readonly field: string;
    readonly op: string;
    readonly value: string;
  }[];
}

/** An error answer's body as the wire carries it. */
export interface ErrorBody {
  readonly statusCode?: number;
  readonly message?: string;
  readonly data?: {
    readonly errors?: Record<string, unknown>;
    readonly path?: string;
    readonly [key: string]: unknown;
  };
}

/** One answer: its status, whether it succeeded, and its body. */
export interface Answer {
  readonly status: number;
  readonly ok: boolean;
  readonly data: unknown;
}
