// An in-memory stand-in for the HTTP contract the dashboard speaks (auth,
// messages, collections), serving the real dashboard routes, so the browser
// test drives the front end without the back end.
import { HTTPError } from "../../router/errors.ts";
import type { HandlerDefinition } from "../../router/handler.ts";
import type { StrataEvent } from "../../router/event.ts";
import { dashboardRoutes } from "../../dashboard/mod.ts";
import { appJs } from "../../dashboard/assets/app_js.ts";

export interface LoggedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

interface User {
  UUID: string;
  email: string;
  password: string;
  roles: string[];
  dashboardLanguage: string | null;
  contentLanguage: string | null;
  timezone: string;
  dateFormat: string;
  timeFormat: string;
  smartClipboard: boolean;
}

type Row = Record<string, unknown> & {
  UUID: string;
  title: Record<string, string>;
};

export interface MockBackend {
  readonly origin: string;
  readonly base: string;
  readonly requests: LoggedRequest[];
  readonly users: User[];
  readonly posts: Row[];
  close(): Promise<void>;
}

const GERMAN: Record<string, string> = {
  signOut: "Abmelden",
  account: "Konto",
  save: "Speichern",
  saved: "Gespeichert",
  collections: "Sammlungen",
  language: "Sprache",
  records:
    "{count, plural, =0 {Keine Einträge} one {# Eintrag} other {# Einträge}}",
  pageOf: "Seite {page} von {lastPage}",
  signedInAs: "Angemeldet als {email}",
};

const POST_FIELDS = [
  field("title", "text", { translatable: true }),
  field("views", "integer"),
  field("published", "boolean"),
  field("status", "select", { choices: ["draft", "published"] }),
  field("tags", "multiSelect", { choices: ["news", "tech", "life"] }),
  field("publishedOn", "date", { nullable: true }),
  field("author", "record", { nullable: true, target: "Authors" }),
  field("secret", "text", { nullable: true, readable: false }),
];

const COLLECTIONS = [
  {
    name: "Posts",
    path: "posts",
    translatable: true,
    locales: ["en", "de"],
    operations: { read: true, create: true, update: true, delete: true },
    fields: POST_FIELDS,
  },
  {
    name: "Authors",
    path: "authors",
    translatable: false,
    locales: ["en"],
    operations: { read: true, create: false, update: false, delete: false },
    fields: [field("name", "text")],
  },
];

function field(
  name: string,
  type: string,
  extra: Record<string, unknown> = {},
) {
  return {
    name,
    type,
    kind: type,
    nullable: false,
    readable: true,
    writable: true,
    immutable: false,
    translatable: false,
    ...extra,
  };
}

function json(body: unknown, status = 200, headers: HeadersInit = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

function error(status: number, message: string, data?: unknown) {
  return json({ statusCode: status, message, data }, status);
}

function invalid(errors: Record<string, string>) {
  return error(422, "Some values are invalid", { errors });
}

function publicUser(user: User) {
  const { password: _password, ...rest } = user;
  return rest;
}

function pad(n: number) {
  return String(n).padStart(2, "0");
}

/** Seeds 25 posts plus one that cannot be deleted (409). */
function seedPosts(): Row[] {
  const rows: Row[] = [];
  for (let i = 1; i <= 25; i++) {
    rows.push({
      UUID: crypto.randomUUID(),
      _updatedAt: 1_700_000_000_000 + i,
      title: { en: `Post ${pad(i)}`, de: `Beitrag ${pad(i)}` },
      views: i * 10,
      published: i % 2 === 0,
      status: i % 2 === 0 ? "published" : "draft",
      tags: i % 3 === 0 ? ["news", "tech"] : [],
      publishedOn: i % 2 === 0 ? `2024-01-${pad(i)}` : null,
      author: i === 1 ? "0f0e0d0c-1111-4222-8333-444455556666" : null,
      secret: "hidden",
    });
  }
  rows.push({
    UUID: crypto.randomUUID(),
    _updatedAt: 1_700_000_000_100,
    title: { en: "Locked" },
    views: 0,
    published: false,
    status: "draft",
    tags: [],
    publishedOn: null,
    author: null,
    secret: null,
  });
  return rows;
}

function outputPost(row: Row, locale: string) {
  const { secret: _secret, title, ...rest } = row;
  return {
    ...rest,
    title: title[locale] ?? null,
    _translations: Object.keys(title),
  };
}

function matches(
  row: Row,
  where: Record<string, unknown>,
  locale: string,
): boolean {
  return Object.entries(where).every(([key, condition]) => {
    if (key === "or") {
      return (condition as Record<string, unknown>[]).some((w) =>
        matches(row, w, locale)
      );
    }
    const value = key === "title" ? row.title[locale] : row[key];
    const { contains } = condition as { contains?: string };
    return typeof value === "string" && contains !== undefined &&
      value.toLowerCase().includes(contains.toLowerCase());
  });
}

function validatePost(
  body: Record<string, unknown>,
  creating: boolean,
): Record<string, string> {
  const errors: Record<string, string> = {};
  const known = new Set(POST_FIELDS.map((f) => f.name));
  for (const [key, value] of Object.entries(body)) {
    if (!known.has(key)) errors[key] = "Unknown field";
    else if (key === "title" && (typeof value !== "string" || value === "")) {
      errors.title = "This field is required";
    } else if (key === "views" && !Number.isInteger(value)) {
      errors.views = "Must be a whole number";
    }
  }
  if (creating && body.title === undefined) {
    errors.title = "This field is required";
  }
  return errors;
}

const ACCOUNT_FIELDS = new Set([
  "dashboardLanguage",
  "contentLanguage",
  "timezone",
  "dateFormat",
  "timeFormat",
  "smartClipboard",
  "password",
]);

function validateAccount(body: Record<string, unknown>) {
  const errors: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    if (!ACCOUNT_FIELDS.has(key)) errors[key] = "Unknown field";
    else if (key === "timezone") {
      try {
        new Intl.DateTimeFormat("en", { timeZone: String(value) });
      } catch {
        errors.timezone = "Must be a valid time zone";
      }
    } else if (
      (key === "dateFormat" || key === "timeFormat") &&
      (typeof value !== "string" || value.trim() === "")
    ) {
      errors[key] = "Must not be empty";
    } else if (key === "password" && String(value).length < 8) {
      errors.password = "Must be at least 8 characters long";
    }
  }
  return errors;
}

/** Runs a route handler with a minimal event, as the dispatcher would. */
async function runHandler(
  handler: HandlerDefinition,
  request: Request,
  url: URL,
  path: string,
  params: Record<string, string>,
): Promise<Response> {
  const event: StrataEvent = {
    request,
    url,
    method: request.method,
    path,
    params,
    query: url.searchParams,
    context: {},
    headers: new Headers(),
    status: undefined,
    ip: "127.0.0.1",
    body: () => request.json(),
    waitUntil: () => {},
  };
  const result = await handler.fn(event);
  if (result instanceof HTTPError) return json(result.toJSON(), result.status);
  return result as Response;
}

export function startMockBackend(
  options: { base?: string; installed?: boolean } = {},
): MockBackend {
  const base = options.base ?? "/api";
  const routes = dashboardRoutes();
  const users: User[] = [];
  const sessions = new Map<string, string>();
  const posts = seedPosts();
  const requests: LoggedRequest[] = [];
  const catalogs: Record<string, Record<string, unknown>> = { en: {}, de: {} };
  // The English catalog is the script's own fallback texts with a marker, so
  // the test can tell catalog texts from fallbacks.
  const mod = import("data:text/javascript," + encodeURIComponent(appJs));
  const ready = mod.then((m) => {
    for (const [key, template] of Object.entries(m.fallbackMessages)) {
      catalogs.en[`dashboard.${key}`] = { template, language: "en" };
      catalogs.de[`dashboard.${key}`] = GERMAN[key]
        ? { template: GERMAN[key], language: "de" }
        : { template, language: "en" };
    }
  });
  if (options.installed) {
    users.push({
      UUID: crypto.randomUUID(),
      email: "admin@example.com",
      password: "correct horse",
      roles: ["admin"],
      dashboardLanguage: null,
      contentLanguage: null,
      timezone: "UTC",
      dateFormat: "LL",
      timeFormat: "LTS",
      smartClipboard: false,
    });
  }

  function currentUser(request: Request): User | undefined {
    const cookie = request.headers.get("cookie") ?? "";
    const token = /(?:^|;\s*)session=([^;]+)/.exec(cookie)?.[1];
    const uuid = token ? sessions.get(token) : undefined;
    return users.find((user) => user.UUID === uuid);
  }

  function signIn(user: User): Response {
    const token = crypto.randomUUID();
    sessions.set(token, user.UUID);
    return json(publicUser(user), 200, {
      "set-cookie": `session=${token}; HttpOnly; SameSite=Lax; Path=/`,
    });
  }

  async function handle(request: Request): Promise<Response> {
    await ready;
    const url = new URL(request.url);
    if (!url.pathname.startsWith(base + "/")) return error(404, "Not found");
    const path = url.pathname.slice(base.length);
    const method = request.method;
    let body: unknown = undefined;
    if (method === "POST" || method === "PATCH") {
      const text = await request.text();
      body = text === "" ? undefined : JSON.parse(text);
    }
    requests.push({ method, path, query: url.searchParams, body });
    const input = (body ?? {}) as Record<string, unknown>;
    const user = currentUser(request);

    if (path === "/dashboard/api/collections" && method === "GET") {
      return user ? json(COLLECTIONS) : error(401, "Please sign in");
    }
    if (method === "GET" && path.startsWith("/dashboard")) {
      const rest = path.slice("/dashboard".length);
      if (rest === "" || rest === "/") {
        return runHandler(
          routes["dashboard/index.get.ts"],
          request,
          url,
          path,
          {},
        );
      }
      const asset = routes[`dashboard${rest}.get.ts`];
      if (asset) return runHandler(asset, request, url, path, {});
      return runHandler(
        routes["dashboard/[...path].get.ts"],
        request,
        url,
        path,
        { path: rest.slice(1) },
      );
    }
    const messages = /^\/messages\/dashboard\/([^/]+)$/.exec(path);
    if (messages && method === "GET") {
      const language = messages[1];
      if (!/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]+)*$/.test(language)) {
        return error(400, "Bad request");
      }
      return json(
        catalogs[language.split("-")[0].toLowerCase()] ?? catalogs.en,
      );
    }
    if (path === "/auth/install") {
      if (method === "GET") return json({ required: users.length === 0 });
      if (users.length > 0) return error(403, "Setup is already complete");
      const errors: Record<string, string> = {};
      if (!String(input.email ?? "").includes("@")) {
        errors.email = "Must be a valid email address";
      }
      if (String(input.password ?? "").length < 8) {
        errors.password = "Must be at least 8 characters long";
      }
      if (Object.keys(errors).length > 0) return invalid(errors);
      const created: User = {
        UUID: crypto.randomUUID(),
        email: String(input.email).toLowerCase(),
        password: String(input.password),
        roles: ["admin"],
        dashboardLanguage: null,
        contentLanguage: null,
        timezone: "UTC",
        dateFormat: "LL",
        timeFormat: "LTS",
        smartClipboard: false,
      };
      users.push(created);
      return signIn(created);
    }
    if (path === "/auth/login" && method === "POST") {
      const found = users.find((u) =>
        u.email === String(input.email).toLowerCase() &&
        u.password === input.password
      );
      return found ? signIn(found) : error(401, "Invalid email or password");
    }
    if (path === "/auth/logout" && method === "POST") {
      return json({ ok: true }, 200, {
        "set-cookie": "session=; Max-Age=0; Path=/",
      });
    }
    if (path === "/auth/me") {
      if (!user) return error(401, "Please sign in");
      if (method === "GET") return json(publicUser(user));
      const errors = validateAccount(input);
      if (Object.keys(errors).length > 0) return invalid(errors);
      Object.assign(user, input);
      return json(publicUser(user));
    }
    const collection = /^\/collections\/([^/]+)(?:\/([^/]+))?$/.exec(path);
    if (collection) {
      if (!user) return error(401, "Please sign in");
      if (collection[1] !== "posts") {
        return json({
          records: [],
          total: 0,
          page: 1,
          perPage: 20,
          lastPage: 0,
        });
      }
      const locale = url.searchParams.get("locale") ?? "en";
      const uuid = collection[2];
      if (uuid === undefined && method === "GET") {
        let rows = posts;
        const where = url.searchParams.get("where");
        if (where) {
          rows = rows.filter((row) => matches(row, JSON.parse(where), locale));
        }
        const order = url.searchParams.get("order");
        if (order) {
          const [key] = JSON.parse(order) as string[];
          const name = key.replace(/^-/, "");
          const sign = key.startsWith("-") ? -1 : 1;
          const value = (row: Row) =>
            name === "title" ? row.title[locale] ?? "" : row[name];
          rows = [...rows].sort((a, b) =>
            sign *
            ((value(a) as number) > (value(b) as number)
              ? 1
              : (value(a) as number) < (value(b) as number)
              ? -1
              : 0)
          );
        }
        const page = Number(url.searchParams.get("page") ?? 1);
        const perPage = Number(url.searchParams.get("perPage") ?? 20);
        return json({
          records: rows.slice((page - 1) * perPage, page * perPage).map((row) =>
            outputPost(row, locale)
          ),
          total: rows.length,
          page,
          perPage,
          lastPage: Math.ceil(rows.length / perPage),
        });
      }
      if (uuid === undefined && method === "POST") {
        const errors = validatePost(input, true);
        if (Object.keys(errors).length > 0) return invalid(errors);
        const { title, ...rest } = input;
        const row: Row = {
          UUID: crypto.randomUUID(),
          _updatedAt: Date.now(),
          views: 0,
          published: false,
          status: "draft",
          tags: [],
          publishedOn: null,
          author: null,
          secret: null,
          ...rest,
          title: { [locale]: String(title) },
        };
        posts.push(row);
        return json(outputPost(row, locale), 201);
      }
      const row = posts.find((candidate) => candidate.UUID === uuid);
      if (!row) return error(404, "Not found");
      if (method === "GET") return json(outputPost(row, locale));
      if (method === "PATCH") {
        const errors = validatePost(input, false);
        if (Object.keys(errors).length > 0) return invalid(errors);
        const { title, ...rest } = input;
        Object.assign(row, rest);
        if (title !== undefined) row.title[locale] = String(title);
        return json(outputPost(row, locale));
      }
      if (method === "DELETE") {
        if (row.title.en === "Locked") {
          return error(
            409,
            "This record cannot be deleted because other records refer to it",
          );
        }
        posts.splice(posts.indexOf(row), 1);
        return new Response(null, { status: 204 });
      }
    }
    return error(404, "Not found");
  }

  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    handle,
  );
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    base,
    requests,
    users,
    posts,
    close: () => server.shutdown(),
  };
}
