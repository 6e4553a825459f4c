/**
 * Ambient access to the app handling the current request: `useConfig()` and `query()`.
 *
 * @module
 */
import { currentEvent, useEvent } from "../router/event.ts";
import type { RequestEvent } from "../router/request_event.ts";
import type { App } from "./create_app.ts";
import type { ResolvedConfig } from "./config.ts";
import {
  changesOf,
  type ChangesOptions,
} from "../collections/changes/iterate.ts";
import type { ChangeEvent } from "../collections/changes/log.ts";
import type { AnyCollectionDefinition } from "../collections/typed.ts";
import type {
  CollectionName,
  QueryFor,
  TypedQuery,
} from "../collections/typed_query.ts";

/**
 * The app handling the current request; throws outside a request.
 *
 * @example
 * ```ts
 * import { defineHandler } from "@strata/strata";
 * import { useApp } from "./ambient.ts";
 * export default defineHandler(() => ({ routes: useApp().routes.length }));
 * ```
 */
export function useApp(): App {
  const app = (currentEvent() as RequestEvent | undefined)?.owner as
    | App
    | undefined;
  if (!app) {
    throw new Error(
      "This helper needs a request: call it inside a handler or middleware, or use app.query() outside one",
    );
  }
  return app;
}

/**
 * The resolved config of the app handling the current request.
 *
 * @example
 * ```ts
 * import { defineHandler, useConfig } from "@strata/strata";
 * export default defineHandler(() => ({ locales: useConfig().collections.locales }));
 * ```
 */
export function useConfig(): ResolvedConfig {
  return useApp().config;
}

/**
 * A query builder on a collection of the app handling the current request. Trusted and
 * unscoped: use `queryScoped` from `@strata/strata/auth` to apply the collections API policy.
 * Given the definition (`query(Posts)`), it is typed by the definition's fields; given a name,
 * it is typed through the registry `strata types` generates (an unknown name is then a type
 * error), and untyped without one.
 *
 * @example
 * ```ts
 * import { defineHandler, query } from "@strata/strata";
 * export default defineHandler(() =>
 *   query("Posts").where({ views: { atLeast: 10 } }).order("-views").limit(5).findMany()
 * );
 * ```
 */
export function query<C extends AnyCollectionDefinition>(
  definition: C,
): TypedQuery<C>;
/**
 * A query builder on collection `collection` (see the definition overload).
 *
 * @example
 * ```ts
 * import { defineHandler, query } from "@strata/strata";
 * export default defineHandler(() => query("Posts").count());
 * ```
 */
export function query<N extends CollectionName>(collection: N): QueryFor<N>;
export function query(
  collection: string | AnyCollectionDefinition,
): unknown {
  return useApp().query(collection as string);
}

/**
 * Renders the message `key` of the app's catalogs in the current request's language
 * (`Accept-Language`, then the signed-in user's language, then the default language).
 *
 * @example
 * ```ts
 * // messages/en.json: { "app": { "greeting": "Hello {name}" } }
 * import { defineHandler, translate } from "@strata/strata";
 * export default defineHandler(({ query }) => ({
 *   message: translate("app.greeting", { name: query.get("name") ?? "you" }),
 * }));
 * ```
 */
export function translate(
  key: string,
  params: Record<string, unknown> = {},
): string {
  const event = useEvent();
  const { messages } = useApp();
  return messages.translator.t(
    key,
    params,
    messages.languages(event.request, event),
  );
}

/**
 * Committed changes of some collections of the app handling the current request, as an async
 * iterator: the changes after `since` (as far as the change log keeps them), then live ones as
 * they commit on any instance, until `signal` aborts or the loop breaks. Trusted and unscoped.
 *
 * @example
 * ```ts
 * // api/orders/feed.get.ts: a route streaming its own SSE
 * import { changes, defineHandler } from "@strata/strata";
 * export default defineHandler((event) => {
 *   const stop = new AbortController();
 *   const feed = changes({ collections: ["Orders"], signal: stop.signal });
 *   const body = new ReadableStream<Uint8Array>({
 *     async pull(controller) {
 *       const { value, done } = await feed.next();
 *       if (done) return controller.close();
 *       controller.enqueue(new TextEncoder().encode(`id: ${value.seq}\ndata: ${JSON.stringify(value)}\n\n`));
 *     },
 *     cancel: () => stop.abort(),
 *   });
 *   return new Response(body, { headers: { "content-type": "text/event-stream" } });
 * });
 * ```
 */
export function changes(
  options: ChangesOptions,
): AsyncGenerator<ChangeEvent, void, undefined> {
  return changesOf(useApp().data, options);
}
