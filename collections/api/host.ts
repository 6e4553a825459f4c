/**
 * What the collections API needs from the app serving it. The app satisfies this interface;
 * the API never imports the app module.
 *
 * @module
 */
import type { DataLayer } from "../data_layer.ts";
import type { HandlerFunction } from "../../router/handler.ts";
import type { StrataEvent } from "../../router/event.ts";
import type { RequestEvent } from "../../router/request_event.ts";
import type { QueryGuardsConfig } from "../../app/config.ts";
import type { ResolvedCollection } from "../resolve.ts";

/** A multipart record write as read by the app's files. */
export interface FileWrite {
  /** The record input (the `data` part with the stored files' UUIDs set). */
  readonly input: unknown;
  /** Files stored by this request (discarded unless the write attaches them). */
  readonly uploads: ReadonlySet<string>;
  /** An error to answer once the caller is authorised. */
  readonly error?: unknown;
}

/** What the collections API needs of the app's files (present when a field stores files). */
export interface ApiFiles {
  /** Reads a multipart record write, streaming its files to storage. */
  readWrite(
    request: Request,
    collection: ResolvedCollection,
    maxBodySize: number,
  ): Promise<FileWrite>;
  /** Deletes files a request stored that its write did not attach. */
  discard(uuids: Iterable<string>): Promise<void>;
}

/** The app, as the collections API sees it. */
export interface ApiHost {
  /** The data layer. */
  readonly data: DataLayer;
  /** The resolved config (guards, locales, body limit). */
  readonly config: {
    readonly api: { readonly maxBodySize: number };
    readonly query: {
      readonly guards: Readonly<QueryGuardsConfig>;
      /** How long one statement may run, in ms (`Infinity`: no limit). */
      readonly timeout: number;
    };
  };
  /** The merged layers: named middleware. */
  readonly layers: {
    readonly middleware: ReadonlyMap<string, { readonly fn: HandlerFunction }>;
  };
  /** Functions registered on a hook. */
  hooks(name: string): readonly ((...args: never[]) => unknown)[];
  /** The app's files, or `null` when no field stores files. */
  readonly files?: ApiFiles | null;
}

/**
 * The host serving `event`.
 *
 * @example
 * ```ts ignore
 * const host = hostOf(useEvent());
 * ```
 */
export function hostOf(event: StrataEvent): ApiHost {
  const host = (event as RequestEvent).owner as ApiHost | undefined;
  if (!host?.data) {
    throw new Error("The collections API runs only inside an app");
  }
  return host;
}
