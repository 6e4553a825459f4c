// GroupCommit (collections/db/_group_commit.ts): the writes of one turn of the event loop
// commit through one call of the writer, each answered with its own outcome.
import assert from "node:assert/strict";
import {
  GroupCommit,
  type GroupStatement,
  type GroupWriter,
  MAX_GROUP,
} from "../../collections/db/_group_commit.ts";

/** A writer that records each call and answers the position of each write's statement. */
function fakeWriter(
  answer: (writes: readonly (readonly GroupStatement[])[]) =>
    | number[]
    | undefined = (writes) => writes.map((w) => w[0].parameters[0] as number),
): GroupWriter & { calls: number[][] } {
  const calls: number[][] = [];
  return {
    calls,
    writeGroups(writes) {
      calls.push(writes.map((w) => w[0].parameters[0] as number));
      return answer(writes);
    },
  };
}

const statement = (n: number): GroupStatement[] => [
  { sql: "insert into t (n) values (?)", parameters: [n] },
];

Deno.test("group commit: the writes of one turn go through one call, in order, each answered its rowid", async () => {
  const writer = fakeWriter();
  const group = new GroupCommit(writer);
  const answers = await Promise.all(
    [1, 2, 3].map((n) => group.write(statement(n))),
  );
  assert.deepEqual(answers, [1, 2, 3]);
  assert.deepEqual(writer.calls, [[1, 2, 3]]);
  // A later turn is a transaction of its own.
  assert.equal(await group.write(statement(4)), 4);
  assert.deepEqual(writer.calls, [[1, 2, 3], [4]]);
});

Deno.test("group commit: more writes than MAX_GROUP go through several calls", async () => {
  const writer = fakeWriter();
  const group = new GroupCommit(writer);
  const count = MAX_GROUP * 2 + 1;
  const numbers = Array.from({ length: count }, (_, i) => i);
  assert.deepEqual(
    await Promise.all(numbers.map((n) => group.write(statement(n)))),
    numbers,
  );
  assert.deepEqual(writer.calls.map((call) => call.length), [
    MAX_GROUP,
    MAX_GROUP,
    1,
  ]);
  assert.deepEqual(writer.calls.flat(), numbers);
});

Deno.test("group commit: when the group fails, each write runs alone and only the failing one rejects", async () => {
  const writer = fakeWriter((writes) => {
    if (writes.some((w) => w[0].parameters[0] === 2)) {
      throw new Error("Refused 2");
    }
    return writes.map((w) => 10 * (w[0].parameters[0] as number));
  });
  const group = new GroupCommit(writer);
  const outcomes = await Promise.allSettled(
    [1, 2, 3].map((n) => group.write(statement(n))),
  );
  assert.deepEqual(outcomes.map((o) => o.status), [
    "fulfilled",
    "rejected",
    "fulfilled",
  ]);
  assert.deepEqual(
    outcomes.map((o) =>
      o.status === "fulfilled" ? o.value : String(o.reason.message)
    ),
    [10, "Refused 2", 30],
  );
  assert.deepEqual(writer.calls, [[1, 2, 3], [1], [2], [3]]);
});

Deno.test("group commit: a group that cannot run now answers undefined to each write", async () => {
  const writer = fakeWriter(() => undefined);
  const group = new GroupCommit(writer);
  assert.deepEqual(
    await Promise.all([1, 2].map((n) => group.write(statement(n)))),
    [undefined, undefined],
  );
  assert.deepEqual(writer.calls, [[1, 2]]);
});

Deno.test("group commit: flush() commits what is pending at once, and the turn's end finds nothing left", async () => {
  const writer = fakeWriter();
  const group = new GroupCommit(writer);
  const pending = [1, 2].map((n) => group.write(statement(n)));
  group.flush();
  assert.deepEqual(writer.calls, [[1, 2]]);
  assert.deepEqual(await Promise.all(pending), [1, 2]);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(writer.calls, [[1, 2]]);
});
