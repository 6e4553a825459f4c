// Shared pieces of the dashboard's browser tests: Debian's Chromium, pages
// that record script errors, screenshots, keyboard walks and the check that
// a German page shows no English texts, and axe-core's check.
import assert from "node:assert/strict";
import {
  type Browser,
  chromium,
  type Locator,
  type Page,
} from "npm:playwright-core@^1.50.0";
import axe from "npm:axe-core@^4.10.0";

/** Debian's Chromium; the browser tests are skipped without it. */
export const CHROMIUM = "/usr/bin/chromium";

/** Flags for a quiet headless Chromium on a machine without internet. */
export const CHROMIUM_ARGS: string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Whether {@link CHROMIUM} is installed. */
export const hasChromium: boolean = (() => {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch {
    return false;
  }
})();

/** The administrator every browser test installs. */
export const ADMIN = { email: "admin@example.com", password: "correct horse" };

/** The absolute path of `tests/fixtures/<name>`. */
export function fixture(name: string): string {
  return new URL(`../fixtures/${name}/`, import.meta.url).pathname;
}

/** Opens a page that records script errors and failed console messages. */
export async function openPage(
  browser: Browser,
  width: number,
): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({
    viewport: { width, height: 800 },
    locale: "en-US",
  });
  // Generous: the suite runs in parallel on two cores.
  page.setDefaultTimeout(10_000);
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => {
    // The browser logs every 4xx fetch (401 from /auth/me when signed out,
    // 422, 409); those are answers the app handles, not faults.
    if (message.type() === "error" && !/status of \d{3}/.test(message.text())) {
      problems.push(message.text());
    }
  });
  return { page, problems };
}

/** The control with exactly this label. */
export function label(scope: Page | Locator, text: string): Locator {
  return scope.getByLabel(text, { exact: true });
}

/** Waits until the app has rendered the current page. */
export async function ready(page: Page): Promise<void> {
  await page.waitForSelector("html[data-state=ready]");
}

// Strings, not functions: the tests are type-checked without the DOM library.

/** The `data-testid` of the focused element. */
export function focusedTestId(page: Page): Promise<string | null> {
  return page.evaluate<string | null>(
    "document.activeElement && document.activeElement.getAttribute('data-testid')",
  );
}

/**
 * Focuses `from`, then presses Tab until `to` has focus; answers the test ids
 * focused on the way, `from` and `to` included.
 */
export async function tabUntil(
  page: Page,
  from: string,
  to: string,
): Promise<string[]> {
  await page.getByTestId(from).focus();
  const reached = [from];
  for (let i = 0; i < 60 && reached.at(-1) !== to; i++) {
    await page.keyboard.press("Tab");
    reached.push((await focusedTestId(page)) ?? "?");
  }
  assert.equal(reached.at(-1), to, `Tab reached ${reached.join(", ")}`);
  return reached;
}

/** A folder of numbered screenshots. */
export interface Screenshots {
  /** The folder. */
  readonly dir: string;
  /** Saves a full-page screenshot as `<nn>-<name>.png`. */
  take(page: Page, name: string): Promise<void>;
}

/** A fresh screenshot folder under the temp directory. */
export async function screenshots(prefix: string): Promise<Screenshots> {
  const dir = await Deno.makeTempDir({ prefix });
  let count = 0;
  return {
    dir,
    async take(page, name) {
      const file = `${dir}/${String(++count).padStart(2, "0")}-${name}.png`;
      await page.screenshot({ path: file, fullPage: true });
    },
  };
}

type Catalog = Record<string, { template: string; language: string }>;

/** Something that answers `GET /messages/dashboard/<lang>`. */
export interface MessagesSource {
  request(path: string): Promise<Response>;
}

async function catalog(
  source: MessagesSource,
  language: string,
): Promise<Catalog> {
  const response = await source.request(`/messages/dashboard/${language}`);
  assert.equal(response.status, 200);
  return await response.json();
}

const PAGE_TEXTS = `(() => {
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    if (text !== "") texts.push(text);
  }
  for (const element of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
    for (const name of ["aria-label", "title", "placeholder"]) {
      const value = element.getAttribute(name);
      if (value) texts.push(value.split(": ")[0].trim());
    }
  }
  texts.push(document.title.split(" · ")[0]);
  return texts;
})()`;

/**
 * Asserts that the page (dialogs included) shows none of the dashboard's
 * English texts that the German catalog translates differently.
 */
export async function noEnglishLeftovers(
  page: Page,
  source: MessagesSource,
): Promise<void> {
  const english = await catalog(source, "en");
  const german = await catalog(source, "de");
  const leftovers = new Map<string, string>();
  for (const [key, entry] of Object.entries(english)) {
    const translated = german[key];
    assert.ok(translated, `the German catalog has ${key}`);
    assert.equal(translated.language, "de", `${key} is translated to German`);
    if (
      translated.template !== entry.template && !entry.template.includes("{")
    ) {
      leftovers.set(entry.template, key);
    }
  }
  const texts = await page.evaluate<string[]>(PAGE_TEXTS);
  const found = texts.filter((text) => leftovers.has(text))
    .map((text) => `${leftovers.get(text)}: "${text}"`);
  assert.deepEqual(found, [], "English texts on the German page");
}

/** Launches Debian's Chromium headless with the flags this machine needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

/** Serves `fetch` on a free loopback port; answers the server and its origin. */
export function serveOnLoopback(
  fetch: (request: Request) => Promise<Response>,
): { server: Deno.HttpServer; origin: string } {
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    fetch,
  );
  return { server, origin: `http://127.0.0.1:${server.addr.port}` };
}

/** Runs axe-core on the page; answers the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate<boolean>("typeof axe !== 'undefined'"))) {
    // Through the DevTools protocol, so the page's strict CSP does not stop it.
    await page.evaluate(axe.source);
  }
  const found = await page.evaluate<
    { id: string; impact: string; nodes: { target: string[] }[] }[]
  >(
    `axe.run(document, { resultTypes: ["violations"] }).then((r) =>
      r.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        nodes: v.nodes.map((n) => ({ target: n.target.map(String) })),
      })))`,
  );
  return found.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) =>
      `${v.id} (${v.impact}): ${
        v.nodes.map((n) => n.target.join(" ")).join(", ")
      }`
    );
}
