// Messages: the dashboard's English fallbacks and the ICU subset the catalogs use ({name},
// number, plural, selectordinal, select, #, apostrophe quoting).
import type { Catalog, MessageValues } from "./types.ts";

/** English texts, used only when the catalog lacks a key or cannot load. */
export const fallbackMessages: Readonly<Record<string, string>> = Object.freeze(
  {
    signIn: "Sign in",
    insecureContext:
      "Signing in needs HTTPS: the session cookie is Secure, so over plain HTTP the browser drops it and you stay signed out. Serve the app over HTTPS, or open the dashboard via localhost.",
    signOut: "Sign out",
    email: "Email",
    password: "Password",
    rememberMe: "Remember me",
    installTitle: "Welcome to Strata",
    installIntro: "Create the first administrator account to finish the setup.",
    installSubmit: "Create account",
    account: "Account",
    language: "Language",
    contentLanguage: "Content language",
    timezone: "Time zone",
    dateFormat: "Date format",
    timeFormat: "Time format",
    smartClipboard: "Smart clipboard",
    newPassword: "New password",
    save: "Save",
    saved: "Saved",
    create: "Create",
    edit: "Edit",
    delete: "Delete",
    retry: "Retry",
    confirmDelete: "Delete this record? This cannot be undone.",
    filter: "Filter",
    applyFilter: "Apply",
    clearFilter: "Clear",
    previous: "Previous",
    next: "Next",
    pageOf: "Page {page} of {lastPage}",
    records:
      "{count, plural, =0 {No records} one {# record} other {# records}}",
    collections: "Collections",
    noAccess: "You do not have access to this page",
    locale: "Locale",
    signedInAs: "Signed in as {email}",
    loading: "Loading…",
    error: "Something went wrong",
    sortAscending: "Sort ascending",
    sortDescending: "Sort descending",
    cancel: "Cancel",
    fieldRequired: "This field is required",
    close: "Close",
    signUp: "Create an account",
    signUpVerifyIntro: "We will send a link to confirm your email address.",
    checkYourMail:
      "Check your mail: we sent you a link to confirm your address.",
    forgotPassword: "Forgot password?",
    forgotIntro:
      "Enter your email address and we will send you a link to choose a new password.",
    sendResetLink: "Send link",
    resetLinkSent:
      "If an account uses this address, a link to reset the password is on its way.",
    setPassword: "Choose a new password",
    passwordReset: "Your password is set. Sign in with it now.",
    verifyTitle: "Email verification",
    emailVerified: "Your email address is confirmed.",
    emailChangeTitle: "Email change",
    emailChanged: "Your new email address is confirmed and in use.",
    currentPassword: "Current password",
    totpCode: "Code",
    totpCodeHint:
      "The 6-digit code of your authenticator app, or a recovery code",
    totpNeeded: "Enter the code of your authenticator app.",
    newEmail: "New email address",
    changeEmail: "Change email",
    confirmNewEmail:
      "Check the new address: open the link we sent there to apply the change.",
    totpTitle: "Two-factor sign-in",
    totpOff: "Two-factor sign-in is off.",
    totpSetUp: "Set up",
    totpScan:
      "Scan this code with your authenticator app, then enter the code it shows.",
    totpQr: "QR code for your authenticator app",
    totpSecret: "Or enter this key:",
    totpEnable: "Turn on",
    totpNowOn: "Two-factor sign-in is on.",
    recoveryCodesIntro:
      "Keep these recovery codes somewhere safe: each signs you in once if you lose your device. They are shown only now.",
    totpIsOn: "Two-factor sign-in is on.",
    totpDisable: "Turn off",
    apiTokens: "API tokens",
    tokenName: "Name",
    tokenExpiresIn: "Expires in (e.g. 30d; empty: never)",
    createToken: "Create token",
    tokenShownOnce: "Copy this token now: it is shown only once.",
    tokenLastUsed: "last used {when}",
    revoke: "Revoke",
    resendVerification: "Send the link again",
    notFound: "Page not found",
    actions: "Actions",
    searchTarget: "Search {target}",
    noMatches: "No matches",
    createNamed: "Create “{name}”",
    remove: "Remove {name}",
    moveEarlier: "Move {name} earlier",
    moveLater: "Move {name} later",
    movedTo: "{name} moved to position {position} of {count}",
    addChoice: "Add",
    created: "“{name}” created",
    updated: "“{name}” saved",
    deleted: "“{name}” deleted",
    referencedBy:
      "{count, plural, one {One record of {source} still references “{name}”} other {# records of {source} still reference “{name}”}}",
    referencedByOthers: "Other records still reference “{name}”",
    emptyCollection: "No {collection} yet",
    createFirst: "Create the first",
    columns: "Columns",
    filters: "Filters",
    addFilter: "Add filter",
    removeFilter: "Remove filter: {filter}",
    filterField: "Field",
    filterCondition: "Condition",
    filterValue: "Value",
    yes: "Yes",
    no: "No",
    opContains: "contains",
    opEqualsTo: "is",
    opAtLeast: "at least",
    opAtMost: "at most",
    opIn: "is one of",
    opIncludes: "has",
    opIsNull: "is empty",
    opIsNotNull: "is not empty",
    recordId: "Record UUID",
    copy: "Copy",
    copied: "Copied",
    showDefault: "Show {locale} beside",
    backTo: "Back to {collection}",
    unsavedChanges: "Leave without saving your changes?",
    dropFiles: "Drop files here, or choose them",
    uploaded: "{name} uploaded",
    uploadsPending: "Wait until the uploads have finished",
    cookieRefused:
      "Signed in, but the browser refused the session cookie: serve the app over HTTPS, or open the dashboard via localhost.",
  },
);

type Node =
  | string
  | { readonly kind: "pound" }
  | {
    readonly kind: "argument";
    readonly name: string;
    readonly style: "none" | "number" | "integer" | "percent";
  }
  | {
    readonly kind: "plural" | "select";
    readonly ordinal: boolean;
    readonly name: string;
    readonly offset: number;
    readonly exact: Map<number, Node[]>;
    readonly options: Map<string, Node[]>;
  };

const parsedTemplates = new Map<string, Node[]>();

/** Parses an ICU-style template into nodes; throws a SyntaxError when malformed. */
export function parseMessage(src: string): Node[] {
  let pos = 0;
  const fail = function (): never {
    throw new SyntaxError("Malformed message at offset " + pos);
  };
  const expect = function (char: string): void {
    if (src[pos] !== char) fail();
    pos++;
  };
  const skipSpace = function (): void {
    while (pos < src.length && /\s/.test(src[pos])) pos++;
  };
  const read = function (pattern: RegExp): string {
    const start = pos;
    while (pos < src.length && pattern.test(src[pos])) pos++;
    if (pos === start) fail();
    return src.slice(start, pos);
  };
  const message = function (depth: number, inPlural: boolean): Node[] {
    if (depth > 16) fail();
    const nodes: Node[] = [];
    let text = "";
    const flush = function () {
      if (text !== "") nodes.push(text);
      text = "";
    };
    while (pos < src.length) {
      const char = src[pos];
      if (char === "}") break;
      if (char === "{") {
        flush();
        nodes.push(argument(depth, inPlural));
        continue;
      }
      if (char === "#" && inPlural) {
        flush();
        nodes.push({ kind: "pound" });
        pos++;
        continue;
      }
      if (char === "'") {
        const after = src[pos + 1];
        if (after === "'") {
          text += "'";
          pos += 2;
          continue;
        }
        if (after === "{" || after === "}" || (after === "#" && inPlural)) {
          pos++;
          while (pos < src.length) {
            if (src[pos] === "'") {
              if (src[pos + 1] === "'") {
                text += "'";
                pos += 2;
                continue;
              }
              pos++;
              break;
            }
            text += src[pos];
            pos++;
          }
          continue;
        }
      }
      text += char;
      pos++;
    }
    flush();
    return nodes;
  };
  const argument = function (depth: number, inPlural: boolean): Node {
    expect("{");
    skipSpace();
    const name = read(/[^\s{}#',]/);
    skipSpace();
    if (src[pos] === "}") {
      pos++;
      return { kind: "argument", name: name, style: "none" };
    }
    expect(",");
    skipSpace();
    const type = read(/[^\s{}#',]/);
    skipSpace();
    if (type === "number") {
      let style: "number" | "integer" | "percent" = "number";
      if (src[pos] === ",") {
        pos++;
        skipSpace();
        const named = read(/[^\s{}#',]/);
        if (named !== "integer" && named !== "percent") fail();
        style = named === "integer" ? "integer" : "percent";
        skipSpace();
      }
      expect("}");
      return { kind: "argument", name: name, style: style };
    }
    if (type !== "plural" && type !== "selectordinal" && type !== "select") {
      fail();
    }
    expect(",");
    skipSpace();
    const isPlural = type !== "select";
    let offset = 0;
    if (isPlural && src.startsWith("offset:", pos)) {
      pos += 7;
      skipSpace();
      offset = Number(read(/[0-9]/));
      skipSpace();
    }
    const options = new Map<string, Node[]>();
    const exact = new Map<number, Node[]>();
    while (pos < src.length && src[pos] !== "}") {
      const key = read(/[^\s{}]/);
      skipSpace();
      expect("{");
      const nodes = message(depth + 1, isPlural || inPlural);
      expect("}");
      skipSpace();
      if (isPlural && key[0] === "=") {
        const exactValue = Number(key.slice(1));
        if (key.length === 1 || !Number.isFinite(exactValue)) fail();
        exact.set(exactValue, nodes);
      } else {
        options.set(key, nodes);
      }
    }
    expect("}");
    if (!options.has("other")) fail();
    return {
      kind: isPlural ? "plural" : "select",
      ordinal: type === "selectordinal",
      name: name,
      offset: offset,
      exact: exact,
      options: options,
    };
  };
  const nodes = message(0, false);
  if (pos !== src.length) fail();
  return nodes;
}

/** A number in language; style "percent" or "integer" (no fraction digits). */
export function formatNumber(
  value: number,
  language: string,
  style?: string,
): string {
  const options: Intl.NumberFormatOptions = style === "percent"
    ? { style: "percent" }
    : style === "integer"
    ? { maximumFractionDigits: 0 }
    : {};
  try {
    return new Intl.NumberFormat(language, options).format(value);
  } catch {
    return String(value);
  }
}

function pluralCategory(
  language: string,
  ordinal: boolean,
  value: number,
): string {
  const options: Intl.PluralRulesOptions = {
    type: ordinal ? "ordinal" : "cardinal",
  };
  try {
    return new Intl.PluralRules(language, options).select(value);
  } catch {
    return new Intl.PluralRules("en", options).select(value);
  }
}

function formatNodes(
  nodes: readonly Node[],
  values: MessageValues,
  language: string,
  pound: number | undefined,
): string {
  let out = "";
  for (const node of nodes) {
    if (typeof node === "string") {
      out += node;
    } else if (node.kind === "pound") {
      out += pound === undefined ? "#" : formatNumber(pound, language, "none");
    } else if (node.kind === "argument") {
      const value = values[node.name];
      if (value === undefined || value === null) {
        out += "{" + node.name + "}";
      } else if (node.style !== "none" || typeof value === "number") {
        out += formatNumber(Number(value), language, node.style);
      } else {
        out += String(value);
      }
    } else if (node.kind === "plural") {
      const number = Number(values[node.name]);
      const relative = number - node.offset;
      let branch = node.exact.get(number);
      if (branch === undefined) {
        const category = pluralCategory(language, node.ordinal, relative);
        branch = node.options.get(category) || node.options.get("other") || [];
      }
      out += formatNodes(branch, values, language, relative);
    } else {
      const key = String(values[node.name]);
      const branch = node.options.get(key) || node.options.get("other") || [];
      out += formatNodes(branch, values, language, pound);
    }
  }
  return out;
}

/**
 * Renders a template with values; plural rules and numbers follow language.
 * A malformed template is shown as written rather than breaking the page.
 */
export function formatMessage(
  template: string,
  values?: MessageValues,
  language?: string,
): string {
  let nodes = parsedTemplates.get(template);
  if (nodes === undefined) {
    try {
      nodes = parseMessage(template);
    } catch {
      return template;
    }
    parsedTemplates.set(template, nodes);
  }
  return formatNodes(nodes, values || {}, language || "en", undefined);
}

/**
 * The language a catalog answer is in: the closest to the requested tag
 * among its templates' languages (the route falls back de-AT, de, default),
 * else the language most of it came from.
 */
export function catalogLanguage(
  catalog: Catalog | null | undefined,
  requested: string,
): string {
  const wanted = String(requested || "").toLowerCase();
  let best = "";
  const counts = new Map<string, number>();
  for (const key of Object.keys(catalog || {})) {
    const entry = catalog?.[key];
    const language = typeof entry === "object" ? entry.language : undefined;
    if (typeof language !== "string" || language === "") continue;
    counts.set(language, (counts.get(language) || 0) + 1);
    const lower = language.toLowerCase();
    const fits = wanted === lower || wanted.startsWith(lower + "-");
    if (fits && language.length > best.length) best = language;
  }
  if (best !== "") return best;
  let most = "";
  for (const entry of counts) {
    if (most === "" || entry[1] > (counts.get(most) ?? 0)) most = entry[0];
  }
  return most || requested || "en";
}

/** Looks a short key (signIn) up in a catalog answer, with English fallbacks. */
export function translate(
  catalog: Catalog | null | undefined,
  key: string,
  values: MessageValues | undefined,
  language: string,
): string {
  const entry = catalog ? catalog["dashboard." + key] : undefined;
  if (typeof entry === "string") return formatMessage(entry, values, language);
  if (entry && typeof entry.template === "string") {
    return formatMessage(entry.template, values, entry.language || language);
  }
  const fallback = Object.hasOwn(fallbackMessages, key)
    ? fallbackMessages[key]
    : key;
  return formatMessage(fallback, values, "en");
}
