// The HTML shell route: fills in the base path and asset URLs and answers
// with a strict content-security-policy.
import { defineHandler, type HandlerDefinition } from "../router/handler.ts";
import type { StrataEvent } from "../router/event.ts";
import { notFound } from "../router/errors.ts";
import { indexHtml } from "./assets/index_html.ts";

/** The content versions of the dashboard's assets, for cache-busting URLs. */
export interface ShellVersions {
  /** The app script's version. */
  readonly app: string;
  /** The style sheet's version. */
  readonly styles: string;
  /** The bundled client's version. */
  readonly client?: string;
}

/** No inline script or style anywhere: everything comes from the assets. */
export const CONTENT_SECURITY_POLICY: string = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]);
}

/**
 * The `api.basePath` of a request: its URL path minus the bare route path.
 * Segments are counted rather than compared as text, because the bare path is
 * in canonical form (percent-escapes normalised) and the URL path as sent.
 *
 * @example
 * ```ts
 * import { basePathOf } from "./_shell.ts";
 * basePathOf({
 *   url: new URL("http://localhost/api/dashboard/account"),
 *   path: "/dashboard/account",
 * }); // "/api"
 * ```
 */
export function basePathOf(event: Pick<StrataEvent, "url" | "path">): string {
  const sent = event.url.pathname.split("/");
  const bare = event.path.split("/");
  const keep = sent.length - bare.length + 1;
  if (keep < 1) return "";
  return sent.slice(0, keep).join("/");
}

/**
 * The shell for a base path, linking the assets at their versions.
 *
 * @example
 * ```ts
 * import { renderShell } from "./_shell.ts";
 * const html = renderShell("/api", { app: "v1", styles: "v2" });
 * ```
 */
export function renderShell(
  base: string,
  versions: ShellVersions,
): string {
  const assets = `${base}/dashboard/assets/`;
  const fill: Record<string, string> = {
    base,
    scriptSrc: `${assets}app.js?v=${versions.app}`,
    stylesHref: `${assets}styles.css?v=${versions.styles}`,
    clientSrc: `${assets}client.js${
      versions.client ? `?v=${versions.client}` : ""
    }`,
  };
  return indexHtml.replace(
    /\{\{(\w+)\}\}/g,
    (_, name: string) => escapeHtml(fill[name] ?? ""),
  );
}

/** Paths under `/dashboard` that are never pages. */
const RESERVED = /^(assets|api)(\/|$)/;

/**
 * The route answering `/dashboard` and `/dashboard/[...path]` with the shell;
 * `assets/…` and `api/…` paths that no other route serves are 404.
 *
 * @example
 * ```ts
 * import { shellRoute } from "./_shell.ts";
 * const routes = { "dashboard/index.get.ts": shellRoute({ app: "1", styles: "2" }) };
 * ```
 */
export function shellRoute(
  versions: ShellVersions,
): HandlerDefinition {
  return defineHandler((event) => {
    const rest = event.params.path;
    if (rest !== undefined && RESERVED.test(rest)) return notFound();
    const body = renderShell(basePathOf(event), versions);
    return new Response(body, {
      status: 200,
      headers: {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-cache",
        "content-security-policy": CONTENT_SECURITY_POLICY,
        "x-content-type-options": "nosniff",
        "x-frame-options": "DENY",
        "referrer-policy": "same-origin",
      },
    });
  }, { openapi: false });
}
