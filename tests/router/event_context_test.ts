import assert from "node:assert/strict";
import { AsyncLocalStorage } from "node:async_hooks";
import {
  engineCarrier,
  type EventCarrier,
  storageCarrier,
} from "../../utils/_async_carrier.ts";
import { currentEvent, runWithEvent, useEvent } from "../../router/event.ts";
import type { StrataEvent } from "../../router/event.ts";

interface Mark {
  readonly name: string;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

// Both carriers must keep the same contract; the engine one exists in this runtime.
const carriers: [string, () => EventCarrier<Mark> | undefined][] = [
  ["engine", () => engineCarrier<Mark>()],
  ["storage", () => storageCarrier<Mark>()],
];

// The fast carrier relies on Deno's internal async-context functions (see
// utils/_async_carrier.ts). Should a Deno upgrade drop or change them, this fails: requests
// still work (AsyncLocalStorage takes over) but pay its cost again; re-measure bench/http.
Deno.test("the engine carrier is available in this Deno", () => {
  assert.equal(engineCarrier()?.kind, "engine");
});

for (const [kind, make] of carriers) {
  const carrier = make()!;

  Deno.test(`${kind} carrier: the event is seen synchronously and after awaits`, async () => {
    assert.equal(carrier.get(), undefined);
    const a = { name: "a" };
    const seen = await carrier.run(a, async (arg: number) => {
      const first = carrier.get();
      await tick();
      await Promise.resolve();
      const later = await new Promise<Mark | undefined>((resolve) =>
        setTimeout(() => resolve(carrier.get()), 1)
      );
      return [first, carrier.get(), later, arg];
    }, 7);
    assert.deepEqual(seen, [a, a, a, 7]);
    assert.equal(carrier.get(), undefined);
  });

  Deno.test(`${kind} carrier: interleaved runs each keep their own event`, async () => {
    const run = (name: string, delay: number) =>
      carrier.run({ name }, async () => {
        const names: (string | undefined)[] = [];
        for (let i = 0; i < 3; i++) {
          await new Promise((resolve) => setTimeout(resolve, delay));
          names.push(carrier.get()?.name);
        }
        return names;
      }, undefined);
    const [x, y] = await Promise.all([run("x", 3), run("y", 1)]);
    assert.deepEqual(x, ["x", "x", "x"]);
    assert.deepEqual(y, ["y", "y", "y"]);
  });

  Deno.test(`${kind} carrier: nested runs restore the outer event, also after a throw`, () => {
    const outer = { name: "outer" };
    carrier.run(outer, () => {
      assert.throws(
        () =>
          carrier.run({ name: "inner" }, () => {
            assert.equal(carrier.get()?.name, "inner");
            throw new Error("boom");
          }, undefined),
        /boom/,
      );
      assert.equal(carrier.get(), outer);
    }, undefined);
    assert.equal(carrier.get(), undefined);
  });

  Deno.test(`${kind} carrier: an app's own AsyncLocalStorage works inside and around it`, async () => {
    const own = new AsyncLocalStorage<string>();
    const mark = { name: "m" };
    // The app's storage inside the event…
    const inside = await carrier.run(mark, () =>
      own.run("inside", async () => {
        await tick();
        return [own.getStore(), carrier.get()];
      }), undefined);
    assert.deepEqual(inside, ["inside", mark]);
    // …and the event inside the app's storage.
    const around = await own.run("around", () =>
      carrier.run(mark, async () => {
        await tick();
        return [own.getStore(), carrier.get()];
      }, undefined));
    assert.deepEqual(around, ["around", mark]);
    assert.equal(own.getStore(), undefined);
  });

  Deno.test(`${kind} carrier: work started in a run and finishing later still sees its event`, async () => {
    let late: Mark | undefined;
    const done = carrier.run({ name: "bg" }, () => {
      // Fire and forget, like work handed to waitUntil.
      return (async () => {
        await tick();
        await tick();
        late = carrier.get();
      })();
    }, undefined);
    await carrier.run({ name: "other" }, async () => {
      await done;
    }, undefined);
    assert.equal(late?.name, "bg");
  });
}

Deno.test("useEvent and currentEvent read the event runWithEvent set", async () => {
  const event = { path: "/x" } as unknown as StrataEvent;
  assert.equal(currentEvent(), undefined);
  assert.throws(() => useEvent(), /outside a request/);
  const seen = await runWithEvent(event, async () => {
    await tick();
    return useEvent();
  });
  assert.equal(seen, event);
  assert.equal(currentEvent(), undefined);
});
