// Static assets answered with a strong ETag, 304 on a matching
// If-None-Match, and long caching when the URL carries the content version.
import { defineHandler, type HandlerDefinition } from "../router/handler.ts";
import { contentVersion, etagMatches } from "../router/etag.ts";

/** A handler serving one string asset, and the version its URL may carry. */
export interface AssetRoute {
  /** The route handler. */
  readonly handler: HandlerDefinition;
  /** A short hash of the content, used as `?v=` in asset URLs. */
  readonly version: string;
  /** The quoted strong entity tag. */
  readonly etag: string;
}

/** Revalidated on every use: the URL alone does not pin the content. */
export const REVALIDATE = "no-cache";
/** For a URL whose `?v=` names this exact content. */
export const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * Builds the route serving `body` as `contentType`.
 *
 * @example
 * ```ts
 * import { assetRoute } from "./_asset.ts";
 * const styles = assetRoute("a { color: red }", "text/css; charset=utf-8");
 * const href = `/dashboard/assets/styles.css?v=${styles.version}`;
 * ```
 */
export function assetRoute(body: string, contentType: string): AssetRoute {
  const version = contentVersion(body);
  const etag = `"${version}"`;
  const handler = defineHandler((event) => {
    const headers = new Headers({
      etag,
      "cache-control": event.query.get("v") === version
        ? IMMUTABLE
        : REVALIDATE,
      "x-content-type-options": "nosniff",
    });
    if (etagMatches(event.request.headers.get("if-none-match"), etag)) {
      return new Response(null, { status: 304, headers });
    }
    headers.set("content-type", contentType);
    return new Response(body, { status: 200, headers });
  }, { openapi: false });
  return { handler, version, etag };
}
