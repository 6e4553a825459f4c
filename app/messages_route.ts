/**
 * `GET /messages/[group]/[language]`: one group of the message catalog, flat, in the best
 * language available per key (SPEC.md "Messages endpoint", DESIGN.md §8).
 *
 * @module
 */
import {
  defineHandler,
  type HandlerDefinition,
  type OperationDoc,
} from "../router/handler.ts";
import { errorRefs } from "./openapi/errors.ts";
import { badRequest, notFound } from "../router/errors.ts";
import { contentVersion, etagMatches } from "../router/etag.ts";
import { canonicalLanguage } from "../i18n/language.ts";
import type { AppMessages } from "./messages.ts";
import { useApp } from "./ambient.ts";

/** An answered group: its body and entity tag. */
interface Answer {
  readonly body: string;
  readonly etag: string;
}

/** Groups answered per catalog are kept: the catalog never changes after boot. */
const answers = new WeakMap<AppMessages, Map<string, Answer | null>>();

/** Distinct (group, language) pairs kept per app; the URL picks them, so they are capped. */
const MAX_ANSWERS = 512;

function answerOf(
  messages: AppMessages,
  group: string,
  language: string,
): Answer | null {
  let cache = answers.get(messages);
  if (!cache) answers.set(messages, cache = new Map());
  const key = `${group}\u0000${language}`;
  let answer = cache.get(key);
  if (answer === undefined) {
    const keys = messages.translator.group(group, language);
    const body = JSON.stringify(keys);
    answer = Object.keys(keys).length === 0
      ? null
      : { body, etag: `"${contentVersion(body)}"` };
    if (cache.size < MAX_ANSWERS) cache.set(key, answer);
  }
  return answer;
}

/** How the messages route reads in the OpenAPI document. */
const MESSAGES_DOC: OperationDoc = {
  summary: "A group of message templates in a language (with fallback)",
  tags: ["messages"],
  responses: {
    "200": {
      description: "Templates by flat key, with the language each came from",
      content: {
        "application/json": {
          schema: {
            type: "object",
            additionalProperties: {
              type: "object",
              properties: {
                template: { type: "string" },
                language: { type: "string" },
              },
              required: ["template", "language"],
            },
          },
        },
      },
    },
    "304": { description: "Not modified (If-None-Match)" },
    ...errorRefs([400, 404, 503]),
  },
};

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
export const messagesRoute: HandlerDefinition = defineHandler((event) => {
  const language = canonicalLanguage(event.params.language);
  if (!language) throw badRequest("Malformed language tag");
  const answer = answerOf(useApp().messages, event.params.group, language);
  if (!answer) throw notFound();
  event.headers.set("etag", answer.etag);
  event.headers.set("cache-control", "no-cache");
  if (etagMatches(event.request.headers.get("if-none-match"), answer.etag)) {
    return new Response(null, { status: 304 });
  }
  return new Response(answer.body, {
    headers: { "content-type": "application/json" },
  });
}, { openapi: MESSAGES_DOC });
