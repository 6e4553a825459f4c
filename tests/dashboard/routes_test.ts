// The dashboard's server side: route keys, the HTML shell, assets with ETag/304.
import assert from "node:assert/strict";
import { dashboardRoutes } from "../../dashboard/mod.ts";
import { appJs } from "../../dashboard/assets/app_js.ts";
import { stylesCss } from "../../dashboard/assets/styles_css.ts";
import { parseRouteFile } from "../../router/route_path.ts";
import { HTTPError } from "../../router/errors.ts";
import { renderShell } from "../../dashboard/_shell.ts";
import type { StrataEvent } from "../../router/event.ts";
import { createApp, defineLayer } from "../../mod.ts";

const routes = dashboardRoutes();

/** A minimal event for `url`, whose bare path is `path` (the URL path minus the base). */
function fakeEvent(
  url: string,
  path: string,
  params: Record<string, string> = {},
  headers: HeadersInit = {},
): StrataEvent {
  const request = new Request(url, { headers });
  const parsed = new URL(url);
  return {
    request,
    url: parsed,
    method: "GET",
    path,
    params,
    query: parsed.searchParams,
    context: {},
    headers: new Headers(),
    status: undefined,
    ip: "",
    body: () => Promise.reject(new Error("No body")),
    waitUntil: () => {},
  };
}

async function call(
  key: string,
  url: string,
  path: string,
  params: Record<string, string> = {},
  headers: HeadersInit = {},
): Promise<Response> {
  const result = await routes[key].fn(fakeEvent(url, path, params, headers));
  if (result instanceof HTTPError) {
    return new Response(JSON.stringify(result.toJSON()), {
      status: result.status,
    });
  }
  assert.ok(result instanceof Response, `${key} answers a Response`);
  return result;
}

function metaBase(html: string): string | undefined {
  return /<meta name="strata-base" content="([^"]*)">/.exec(html)?.[1];
}

Deno.test("the route keys map to the dashboard's GET routes", () => {
  const patterns = Object.keys(routes).map((key) => {
    const parsed = parseRouteFile(key);
    return `${parsed.method} ${parsed.pattern}`;
  });
  assert.deepEqual(patterns.sort(), [
    "GET /dashboard",
    "GET /dashboard/[...path]",
    "GET /dashboard/assets/app.js",
    "GET /dashboard/assets/client.js",
    "GET /dashboard/assets/styles.css",
  ]);
  for (const handler of Object.values(routes)) {
    assert.equal(handler.kind, "handler");
  }
  assert.ok(!("dashboard/api/collections.get.ts" in routes));
});

Deno.test("the shell is HTML with a strict CSP and no inline script or style", async () => {
  const response = await call(
    "dashboard/index.get.ts",
    "http://localhost/dashboard",
    "/dashboard",
  );
  assert.equal(response.status, 200);
  assert.equal(
    response.headers.get("content-type"),
    "text/html; charset=utf-8",
  );
  assert.equal(response.headers.get("cache-control"), "no-cache");
  assert.equal(response.headers.get("x-content-type-options"), "nosniff");
  const csp = response.headers.get("content-security-policy") ?? "";
  assert.match(csp, /(^|; )default-src 'self'(;|$)/);
  assert.match(csp, /(^|; )script-src 'self'(;|$)/);
  assert.match(csp, /(^|; )style-src 'self'(;|$)/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  const html = await response.text();
  assert.match(html, /^<!doctype html>/);
  assert.equal(metaBase(html), "");
  const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
  assert.equal(scripts.length, 1);
  assert.match(scripts[0][1], /type="module"/);
  assert.match(scripts[0][1], /src="\/dashboard\/assets\/app\.js\?v=[\w-]+"/);
  assert.equal(scripts[0][2], "", "no inline script");
  assert.doesNotMatch(html, /<style|\sstyle=|\son\w+=/);
  assert.match(
    html,
    /<link rel="stylesheet" href="\/dashboard\/assets\/styles\.css\?v=[\w-]+">/,
  );
  assert.match(html, /<meta name="viewport" content="width=device-width/);
});

Deno.test("the shell derives the base path from the URL and the bare path", async () => {
  const cases: Array<[string, string, Record<string, string>, string]> = [
    ["http://x/api/dashboard", "/dashboard", {}, "/api"],
    ["http://x/api/dashboard/", "/dashboard/", {}, "/api"],
    [
      "http://x/a/b/dashboard/collections/posts",
      "/dashboard/collections/posts",
      { path: "collections/posts" },
      "/a/b",
    ],
    // The bare path is canonical, the URL as sent: segments still line up.
    [
      "http://x/api/dashboard/collections/caf%c3%a9",
      "/dashboard/collections/caf%C3%A9",
      { path: "collections/café" },
      "/api",
    ],
    ["http://x/dashboard/sign-in", "/dashboard/sign-in", {
      path: "sign-in",
    }, ""],
  ];
  for (const [url, path, params, base] of cases) {
    const key = params.path === undefined
      ? "dashboard/index.get.ts"
      : "dashboard/[...path].get.ts";
    const html = await (await call(key, url, path, params)).text();
    assert.equal(metaBase(html), base, url);
    assert.ok(
      html.includes(`src="${base}/dashboard/assets/app.js?v=`),
      `script under ${base}`,
    );
  }
});

Deno.test("the base path is escaped in the shell", async () => {
  // The URL parser already escapes quotes and angle brackets in a path.
  const html = await (await call(
    "dashboard/index.get.ts",
    'http://x/a"b<c>/dashboard',
    "/dashboard",
  )).text();
  assert.equal(metaBase(html), "/a%22b%3Cc%3E");
  // Whatever reaches the template is HTML-escaped all the same.
  const shell = renderShell(`/x"><script>&'`, { app: "1", styles: "2" });
  assert.equal(metaBase(shell), "/x&quot;&gt;&lt;script&gt;&amp;&#39;");
  assert.doesNotMatch(shell, /<script>/);
});

Deno.test("every page path answers the shell; assets/ and api/ paths do not", async () => {
  for (const page of ["install", "sign-in", "account", "collections/posts"]) {
    const response = await call(
      "dashboard/[...path].get.ts",
      `http://localhost/dashboard/${page}`,
      `/dashboard/${page}`,
      { path: page },
    );
    assert.equal(response.status, 200, page);
    assert.match(await response.text(), /<div id="app"/);
  }
  for (const reserved of ["assets/missing.js", "assets", "api/other"]) {
    const response = await call(
      "dashboard/[...path].get.ts",
      `http://localhost/dashboard/${reserved}`,
      `/dashboard/${reserved}`,
      { path: reserved },
    );
    assert.equal(response.status, 404, reserved);
    await response.body?.cancel();
  }
});

Deno.test("assets answer their content with type, ETag and cache-control", async () => {
  const cases = [
    ["app.js", appJs, "text/javascript; charset=utf-8"],
    ["styles.css", stylesCss, "text/css; charset=utf-8"],
  ] as const;
  for (const [name, body, type] of cases) {
    const response = await call(
      `dashboard/assets/${name}.get.ts`,
      `http://localhost/dashboard/assets/${name}`,
      `/dashboard/assets/${name}`,
    );
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), type);
    assert.equal(response.headers.get("cache-control"), "no-cache");
    assert.match(response.headers.get("etag") ?? "", /^"[\w-]+"$/);
    assert.equal(await response.text(), body);
  }
});

Deno.test("a matching If-None-Match answers 304 without a body", async () => {
  const url = "http://localhost/dashboard/assets/app.js";
  const path = "/dashboard/assets/app.js";
  const key = "dashboard/assets/app.js.get.ts";
  const first = await call(key, url, path);
  await first.body?.cancel();
  const etag = first.headers.get("etag")!;
  for (const header of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
    const response = await call(key, url, path, {}, {
      "if-none-match": header,
    });
    assert.equal(response.status, 304, header);
    assert.equal(response.headers.get("etag"), etag);
    assert.equal(await response.text(), "");
  }
  const stale = await call(key, url, path, {}, {
    "if-none-match": '"stale"',
  });
  assert.equal(stale.status, 200);
  assert.equal(await stale.text(), appJs);
});

Deno.test("the asset URLs in the shell are cached for good; other versions revalidate", async () => {
  const html = await (await call(
    "dashboard/index.get.ts",
    "http://localhost/dashboard",
    "/dashboard",
  )).text();
  const script = /src="([^"]+)"/.exec(html)![1];
  const styles = /stylesheet" href="([^"]+)"/.exec(html)![1];
  for (const [href, key] of [[script, "app.js"], [styles, "styles.css"]]) {
    const url = new URL(href, "http://localhost");
    const fresh = await call(
      `dashboard/assets/${key}.get.ts`,
      url.href,
      url.pathname,
    );
    await fresh.body?.cancel();
    assert.equal(
      fresh.headers.get("cache-control"),
      "public, max-age=31536000, immutable",
    );
    // The version is the ETag: a URL and its content change together.
    assert.equal(fresh.headers.get("etag"), `"${url.searchParams.get("v")}"`);
    const old = await call(
      `dashboard/assets/${key}.get.ts`,
      `http://localhost${url.pathname}?v=old`,
      url.pathname,
    );
    await old.body?.cancel();
    assert.equal(old.headers.get("cache-control"), "no-cache");
  }
});

Deno.test("an app stacking the routes serves them under api.basePath", async () => {
  const root = await Deno.makeTempDir();
  const app = await createApp({
    root,
    database: ":memory:",
    config: { api: { basePath: "/api" } },
    layers: [defineLayer({ name: "dashboard", routes: dashboardRoutes() })],
  });
  try {
    const page = await app.fetch(
      new Request("http://localhost/api/dashboard/collections/posts"),
    );
    assert.equal(page.status, 200);
    assert.equal(metaBase(await page.text()), "/api");
    const home = await app.fetch(new Request("http://localhost/api/dashboard"));
    assert.equal(metaBase(await home.text()), "/api");
    const script = await app.fetch(
      new Request("http://localhost/api/dashboard/assets/app.js"),
    );
    assert.equal(await script.text(), appJs);
    const head = await app.fetch(
      new Request("http://localhost/api/dashboard/assets/styles.css", {
        method: "HEAD",
      }),
    );
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("content-type"), "text/css; charset=utf-8");
    const missing = await app.fetch(
      new Request("http://localhost/api/dashboard/assets/nope.js"),
    );
    assert.equal(missing.status, 404);
    await missing.body?.cancel();
  } finally {
    await app.close();
    await Deno.remove(root, { recursive: true });
  }
});
