/**
 * `GET /messages/[group]/[language]`: one group of the message catalog, flat, in the best
 * language available per key (SPEC.md "Messages endpoint", DESIGN.md §8).
 *
 * @module
 */
import { defineHandler, type HandlerDefinition } from "../router/handler.ts";
import { badRequest, notFound } from "../router/errors.ts";
import type { RequestEvent } from "../router/request_event.ts";
import { canonicalLanguage } from "../i18n/language.ts";
import type { AppMessages } from "./messages.ts";

async function etagOf(body: string): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(body),
  );
  const hex = [...new Uint8Array(digest).slice(0, 12)]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
  return `"${hex}"`;
}

function matchesEtag(header: string | null, etag: string): boolean {
  if (header === null) return false;
  return header.split(",").some((tag) => {
    const trimmed = tag.trim();
    return trimmed === "*" || trimmed === etag || trimmed === `W/${etag}`;
  });
}

/**
 * The handler of `GET /messages/[group]/[language]`: 400 for a malformed language tag, 404 for
 * a group without keys, else `{ "group.key": { template, language } }` with an ETag (304 when
 * it matches `If-None-Match`).
 *
 * @example
 * ```ts ignore
 * defineLayer({ name: "messages", routes: { "messages/[group]/[language].get.ts": messagesRoute } });
 * ```
 */
export const messagesRoute: HandlerDefinition = defineHandler(async (event) => {
  const messages =
    ((event as RequestEvent).owner as { messages: AppMessages }).messages;
  const language = canonicalLanguage(event.params.language);
  if (!language) throw badRequest("Malformed language tag");
  const group = messages.translator.group(event.params.group, language);
  if (Object.keys(group).length === 0) throw notFound();
  const body = JSON.stringify(group);
  const etag = await etagOf(body);
  event.headers.set("etag", etag);
  event.headers.set("cache-control", "no-cache");
  if (matchesEtag(event.request.headers.get("if-none-match"), etag)) {
    return new Response(null, { status: 304 });
  }
  return new Response(body, {
    headers: { "content-type": "application/json" },
  });
});
