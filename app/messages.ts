/**
 * The app's messages: catalogs merged across layers, the language of a request, and the
 * translation of validation messages and framework errors.
 *
 * @module
 */
import {
  filterCatalog,
  mergeCatalogs,
  messageKeyMatcher,
  type NestedMessages,
} from "../i18n/catalog.ts";
import { frameworkMessages } from "../i18n/framework_messages.ts";
import {
  canonicalLanguage,
  languageFallbacks,
  parseAcceptLanguage,
} from "../i18n/language.ts";
import {
  createTranslator,
  defaultLanguageOf,
  type Translator,
} from "../i18n/translator.ts";
import { renderDefaultMessage } from "../collections/messages.ts";
import { currentEvent, type StrataEvent } from "../router/event.ts";
import { HTTPError } from "../router/errors.ts";

/** The hook a layer registers to name the signed-in user's language for a request. */
export const USER_LANGUAGE_HOOK = "messages:user-language";

/** Returns the user's preferred language for `event`, if known without waiting. */
export type UserLanguageResolver = (
  event: StrataEvent,
) => string | null | undefined;

const STATUS_KEYS: Record<number, string> = {
  400: "badRequest",
  401: "unauthorized",
  403: "forbidden",
  404: "notFound",
  405: "methodNotAllowed",
  409: "conflict",
  413: "payloadTooLarge",
  415: "unsupportedMediaType",
  422: "unprocessableContent",
  429: "tooManyRequests",
  500: "internalServerError",
  503: "serviceUnavailable",
};

/** The app's translation services. */
export interface AppMessages {
  /** The merged catalog's translator. */
  readonly translator: Translator;
  /** Preferred languages of a request: `Accept-Language`, then the user's language. */
  languages(request: Request, event?: StrataEvent): readonly string[];
  /**
   * Whether a language of the request's `Accept-Language` has a catalog; when none has, the
   * signed-in user's language decides, so the session must be known before messages render.
   */
  acceptsServedLanguage(request: Request): boolean;
  /** Renders a validation message key for the current request (the data layer's renderer). */
  renderValidation(key: string, params: Record<string, unknown>): string;
  /** Translates an error's message for the request, when it carries a known key. */
  localizeError(
    error: HTTPError,
    request: Request,
    event?: StrataEvent,
  ): HTTPError;
}

/**
 * Builds the app's translation services from the layers' catalogs (furthest first).
 *
 * @example
 * ```ts ignore
 * const messages = createAppMessages([appCatalogs], "en", [], () => []);
 * messages.translator.t("errors.notFound", {}, ["de"]); // "Nicht gefunden"
 * ```
 */
export function createAppMessages(
  layerMessages: readonly Readonly<Record<string, NestedMessages>>[],
  defaultLanguage: string,
  disabled: readonly string[],
  userLanguage: () => readonly UserLanguageResolver[],
): AppMessages {
  // A mistake in the app's catalogs, its `disable.messages` or its default language fails the
  // boot; merging them over the framework's catalogs (the larger part, dashboard included)
  // waits for the first message rendered, which most requests never need.
  mergeCatalogs(layerMessages);
  messageKeyMatcher(disabled);
  // The translator's own check, without building one (nor compiling its maker) at boot.
  defaultLanguageOf(defaultLanguage);
  let merged: Translator | undefined;
  const translatorNow = (): Translator =>
    merged ??= createTranslator(
      filterCatalog(
        mergeCatalogs([frameworkMessages, ...layerMessages]),
        disabled,
      ),
      defaultLanguage,
    );
  const cache = new WeakMap<Request, readonly string[]>();
  const served = new Set<string>();
  for (const layer of [frameworkMessages, ...layerMessages]) {
    for (const tag of Object.keys(layer)) {
      const language = canonicalLanguage(tag);
      if (language) served.add(language);
    }
  }

  function accepted(request: Request): readonly string[] {
    let list = cache.get(request);
    if (!list) {
      list = parseAcceptLanguage(request.headers.get("accept-language"));
      cache.set(request, list);
    }
    return list;
  }

  function acceptsServedLanguage(request: Request): boolean {
    return accepted(request).some((tag) =>
      languageFallbacks(tag, "").some((language) => served.has(language))
    );
  }

  function languages(request: Request, event?: StrataEvent): readonly string[] {
    const list = accepted(request);
    if (!event) return list;
    for (const resolve of userLanguage()) {
      const language = resolve(event);
      if (language) return [...list, language];
    }
    return list;
  }

  function has(key: string): boolean {
    const translator = translatorNow();
    return translator.lookup(key, translator.defaultLanguage) !== undefined;
  }

  return Object.freeze({
    get translator(): Translator {
      return translatorNow();
    },
    languages,
    acceptsServedLanguage,
    renderValidation(key: string, params: Record<string, unknown>): string {
      const event = currentEvent();
      const preferred = event ? languages(event.request, event) : [];
      if (has(`validation.${key}`)) {
        return translatorNow().t(`validation.${key}`, params, preferred);
      }
      if (key.includes(".") && has(key)) {
        return translatorNow().t(key, params, preferred);
      }
      return renderDefaultMessage(key, params);
    },
    localizeError(
      error: HTTPError,
      request: Request,
      event?: StrataEvent,
    ): HTTPError {
      const key = error.messageKey ??
        (error.message === HTTPError.defaultMessage(error.status)
          ? `errors.${STATUS_KEYS[error.status]}`
          : undefined);
      if (!key || !has(key)) return error;
      const message = translatorNow().t(
        key,
        error.messageParams,
        languages(request, event),
      );
      return message === error.message ? error : error.withMessage(message);
    },
  });
}
