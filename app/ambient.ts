/**
 * Ambient access to the app handling the current request: `useConfig()` and `query()`.
 *
 * @module
 */
import { currentEvent, useEvent } from "../router/event.ts";
import type { RequestEvent } from "../router/request_event.ts";
import type { App } from "./create_app.ts";
import type { ResolvedConfig } from "./config.ts";
import type { QueryBuilder } from "../collections/query_builder.ts";

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
 * A query builder on `collection` of the app handling the current request. Trusted and
 * unscoped: use `queryScoped` from `@strata/strata/auth` to apply the collections API policy.
 *
 * @example
 * ```ts
 * import { defineHandler, query } from "@strata/strata";
 * export default defineHandler(() =>
 *   query("Posts").where({ views: { atLeast: 10 } }).order("-views").limit(5).findMany()
 * );
 * ```
 */
export function query(collection: string): QueryBuilder {
  return useApp().query(collection);
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
