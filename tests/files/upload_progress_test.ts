// The client's upload with progress in Chromium (bundled, through XMLHttpRequest) against
// the files fixture on a real socket: several increasing progress events, the last at the
// request body's size, then the descriptor; refusals are the same StrataError as without
// progress; an abort rejects with AbortError. The server reads a gated upload's body a step
// at a time, each step after the browser reported a new event, so the events cannot all
// collapse into one however fast the machine.
import assert from "node:assert/strict";
import { chromium } from "npm:playwright-core@^1.50.0";
import { filesTest } from "./_helpers.ts";
import { ADMIN, createUser } from "../auth/_helpers.ts";
import { CHROMIUM, CHROMIUM_ARGS, hasChromium } from "../dashboard/_browser.ts";
import { bundleClient } from "../dashboard/client_asset.ts";

const PAGE = `<!doctype html><meta charset="utf-8"><title>upload</title>
<script type="module">
import { createClient, StrataError } from "/client.js";
window.strata = { createClient, StrataError };
document.documentElement.dataset.state = "ready";
</script>`;

/** The uploaded file's size: several gate steps beyond what socket buffers hold. */
const SIZE = 32 * 1024 * 1024;
/** Bytes the server reads between two gates. */
const STEP = 2 * 1024 * 1024;

// A string, not a function: the tests are type-checked without the DOM library.
const SCENARIO = `(async ({ email, password, size }) => {
  const { createClient, StrataError } = window.strata;
  const client = createClient({ baseUrl: location.origin });
  const gated = createClient({
    baseUrl: location.origin,
    headers: { "x-test-gate": "1" },
  });
  const photos = client.collection("Photos");
  const out = {};
  const describe = (error) => error instanceof StrataError
    ? [error.status, error.message, error.code ?? null, error.data ?? null]
    : [String(error)];
  const refusal = async (options) => {
    try {
      await photos.upload("image", new Blob(["not an image"]), options);
      return ["uploaded"];
    } catch (error) {
      return describe(error);
    }
  };
  const quiet = [];
  out.signedOut = [
    await refusal({ onProgress: (p) => quiet.push(p) }),
    await refusal({}),
  ];
  await client.auth.login({ email, password });
  out.refused = [
    await refusal({ onProgress: (p) => quiet.push(p) }),
    await refusal({}),
  ];
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = i % 251;
  const events = [];
  const file = await gated.collection("Photos").upload(
    "attachment",
    new File([bytes], "big.bin"),
    {
      onProgress(progress) {
        events.push([progress.loaded, progress.total]);
        window.reportProgress(progress.loaded, progress.total);
      },
    },
  );
  out.events = events;
  out.file = [file.name, file.size];
  const controller = new AbortController();
  try {
    await gated.collection("Photos").upload("attachment", new Blob([bytes]), {
      signal: controller.signal,
      onProgress() {
        controller.abort();
        window.reportAbort();
      },
    });
    out.aborted = "uploaded";
  } catch (error) {
    out.aborted = error.name;
  }
  return out;
})`;

/** Resolves once `ready()` holds, checked whenever `wake` is called; fails after 20 s. */
function waiter(): {
  until(ready: () => boolean, what: string): Promise<void>;
  wake(): void;
} {
  const checks = new Set<() => void>();
  return {
    until(ready, what) {
      if (ready()) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const finish = () => {
          clearTimeout(timer);
          checks.delete(check);
        };
        const check = () => {
          if (!ready()) return;
          finish();
          resolve();
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`Timed out waiting for ${what}`));
        }, 20_000);
        checks.add(check);
      });
    },
    wake() {
      for (const check of [...checks]) check();
    },
  };
}

// Registered only where Chromium is installed, rather than passing without it.
if (hasChromium) {
  filesTest(
    "in Chromium the client's upload reports increasing progress up to the body's size",
    async ({ app }) => {
      await createUser(app, {
        email: "editor@example.com",
        password: ADMIN.password,
        roles: ["editor"],
      });
      const bundle = await bundleClient();
      // The current gated upload's reports (reset as each one starts).
      let reported = { count: 0, loaded: 0, total: -1, aborted: false };
      const signal = waiter();
      // A gated request's body: before each STEP, a new progress event (or the whole body
      // reported sent, or the upload aborted) must have come.
      const gate = (body: ReadableStream<Uint8Array>) => {
        reported = { count: 0, loaded: 0, total: -1, aborted: false };
        const reader = body.getReader();
        let read = 0;
        let next = 0;
        let seen = 0;
        return new ReadableStream<Uint8Array>({
          async pull(controller) {
            if (read >= next) {
              next += STEP;
              await signal.until(
                () =>
                  reported.count > seen || reported.loaded === reported.total ||
                  reported.aborted,
                "a progress event",
              );
              seen = reported.count;
            }
            const chunk = await reader.read();
            if (chunk.done) return controller.close();
            read += chunk.value.byteLength;
            controller.enqueue(chunk.value);
          },
          cancel(reason) {
            return reader.cancel(reason);
          },
        });
      };
      const server = Deno.serve(
        { port: 0, hostname: "127.0.0.1", onListen() {} },
        (request, info) => {
          const path = new URL(request.url).pathname;
          if (path === "/client.js") {
            return new Response(bundle, {
              headers: { "content-type": "text/javascript" },
            });
          }
          if (path === "/upload.html") {
            return new Response(PAGE, {
              headers: { "content-type": "text/html" },
            });
          }
          if (request.headers.has("x-test-gate") && request.body !== null) {
            request = new Request(request, {
              body: gate(request.body),
              duplex: "half",
            } as RequestInit);
          }
          return app.fetch(request, info);
        },
      );
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: CHROMIUM_ARGS,
      });
      try {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on("pageerror", (error) => errors.push(error.message));
        await page.exposeFunction(
          "reportProgress",
          (loaded: number, total: number) => {
            reported.count++;
            reported.loaded = loaded;
            reported.total = total;
            signal.wake();
          },
        );
        await page.exposeFunction("reportAbort", () => {
          reported.aborted = true;
          signal.wake();
        });
        await page.goto(`http://127.0.0.1:${server.addr.port}/upload.html`);
        await page.waitForSelector("html[data-state=ready]");
        const result = await page.evaluate(
          `${SCENARIO}(${
            JSON.stringify({
              email: "editor@example.com",
              password: ADMIN.password,
              size: SIZE,
            })
          })`,
        ) as {
          signedOut: unknown[][];
          refused: unknown[][];
          events: [number, number][];
          file: [string, number];
          aborted: string;
        };
        // The same StrataError with and without progress.
        assert.equal(result.signedOut[0][0], 401);
        assert.deepEqual(result.signedOut[0], result.signedOut[1]);
        assert.equal(result.refused[0][0], 422);
        assert.deepEqual(result.refused[0], result.refused[1]);

        const { events } = result;
        assert.ok(events.length >= 3, JSON.stringify(events));
        const total = events[0][1];
        assert.ok(total > SIZE && total < SIZE + 1024, `${total}`);
        for (let i = 0; i < events.length; i++) {
          assert.equal(events[i][1], total);
          if (i > 0) assert.ok(events[i][0] > events[i - 1][0]);
        }
        assert.equal(events[events.length - 1][0], total);
        assert.deepEqual(result.file, ["big.bin", SIZE]);
        assert.equal(result.aborted, "AbortError");
        assert.deepEqual(errors, []);
      } finally {
        await browser.close();
        await server.shutdown();
      }
    },
  );
}
