/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
// What every view works with: the app's state, its requests, navigation and texts.
import type { UploadProgress } from "../../client/mod.ts";
import type { Child } from "./dom.ts";
import type {
  Answer,
  Catalog,
  Collection,
  ErrorBody,
  MessageValues,
  Route,
  Settings,
  User,
} from "./types.ts";

/** The app's state between renders. */
export interface State {
  /** undefined: not asked yet; null: signed out. */
  user: User | null | undefined;
  collections: Collection[] | null;
  catalog: Catalog;
  catalogFor: string | null;
  language: string;
  /** A message for the next render ("saved" on the account page). */
  flash: string | null;
  /** The selector to focus after the next render. */
  focus: string | null;
  /** A disclosure to keep open across the next render ("columns"). */
  keepOpen?: string | null;
  /** Whether the page holds unsaved changes: leaving it then asks first. */
  dirty?: (() => boolean) | null;
}

/** Options of one request. */
export interface ApiOptions {
  /** Query parameters; empty values are left out. */
  readonly query?: Readonly<Record<string, string | null | undefined>>;
  readonly body?: unknown;
  /** A 401 signs out and goes to the sign-in page. */
  readonly auth?: boolean;
}

/** How to navigate. */
export interface NavigateOptions {
  readonly replace?: boolean;
  readonly focus?: string | null;
}

/** What a view renders: the document title and the main content. */
export interface View {
  readonly title: string;
  readonly content: Child;
}

/** A view: null when it navigated elsewhere instead. */
export type ViewFunction = (
  app: Dashboard,
  route: Route,
  current: () => boolean,
) => Promise<View | null> | View | null;

/** The app as its views see it. */
export interface Dashboard {
  readonly base: string;
  /** base + "/dashboard". */
  readonly root: string;
  readonly state: State;
  readonly main: HTMLElement;
  t(key: string, values?: MessageValues): string;
  settings(): Settings;
  api(method: string, path: string, options?: ApiOptions): Promise<Answer>;
  /** Like api, but a failed request answers null. */
  tryApi(
    method: string,
    path: string,
    options?: ApiOptions,
  ): Promise<Answer | null>;
  /**
   * Uploads a file for a collection's file field first (`POST /files`), calling onProgress
   * as its bytes go out; the answer as api's (201 with the descriptor, or the refusal).
   */
  upload(
    collection: string,
    field: string,
    file: File,
    onProgress: (progress: UploadProgress) => void,
  ): Promise<Answer>;
  errorText(answer: Answer | null): string;
  navigate(url: string, options?: NavigateOptions): void;
  render(): Promise<void>;
  installRequired(): Promise<boolean>;
  requireSignedIn(): Promise<boolean>;
  loadCollections(): Promise<Collection[]>;
  signedInUser(): User;
  /** Shows a short message that goes away by itself ("error" stays until closed). */
  toast(text: string, kind?: "success" | "error"): void;
}

/** Thrown when a request navigated away (a 401 went to the sign-in page). */
export class Redirected extends Error {}

/** An answer that refused what the view needs. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(response: Answer, fallback: string) {
    const body = response.data as ErrorBody | null;
    super(
      body && typeof body.message === "string" ? body.message : fallback,
    );
    this.status = response.status;
    this.body = body;
  }
}
