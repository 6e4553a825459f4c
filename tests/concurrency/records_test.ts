// Two writes of one record (or of one unique value) raced: each outcome must be one a serial
// order of the two requests produces, never a 5xx.
import assert from "node:assert/strict";
import { assertSerial, race, raceTest, ROUNDS, type Site } from "./_race.ts";

async function pet(site: Site, name = "pet"): Promise<string> {
  const id = (await site.must("POST", "/collections/pets", 201, {
    json: { name },
  })).body.UUID;
  await site.must("PATCH", `/collections/pets/${id}?locale=de`, 200, {
    json: { title: "Titel" },
  });
  return id;
}

raceTest("delete vs delete of one record", async (site) => {
  for (let i = 0; i < ROUNDS; i++) {
    const p = await pet(site);
    const [a, b] = await race(
      i,
      () => site.ask("DELETE", `/collections/pets/${p}`),
      () => site.ask("DELETE", `/collections/pets/${p}`),
    );
    assertSerial(i, [a.status, b.status].sort(), [[204, 404]]);
  }
});

raceTest("update vs delete of one record", async (site) => {
  for (let i = 0; i < ROUNDS; i++) {
    const p = await pet(site);
    const [patch, del] = await race(
      i,
      () =>
        site.ask("PATCH", `/collections/pets/${p}?locale=de`, {
          json: { name: `n${i}`, title: `t${i}` },
        }),
      () => site.ask("DELETE", `/collections/pets/${p}`),
    );
    const after = await site.ask("GET", `/collections/pets/${p}`);
    assertSerial(i, [patch.status, del.status, after.status], [
      [200, 204, 404], // PATCH, then DELETE
      [404, 204, 404], // DELETE, then PATCH
    ]);
  }
});

raceTest("update vs update of one record", async (site) => {
  for (let i = 0; i < ROUNDS; i++) {
    const p = await pet(site);
    const input = (who: string) => ({
      name: `${who}${i}`,
      title: `${who}${i}`,
      note: `${who}${i}`,
    });
    const [a, b] = await race(
      i,
      () =>
        site.ask("PATCH", `/collections/pets/${p}?locale=de`, {
          json: input("a"),
        }),
      () =>
        site.ask("PATCH", `/collections/pets/${p}?locale=de`, {
          json: input("b"),
        }),
    );
    const after = await site.must(
      "GET",
      `/collections/pets/${p}?locale=de&select=[name,title,note]`,
      200,
    );
    const shown = (answer: typeof a) =>
      answer.status === 200
        ? [answer.status, answer.body.name, answer.body.title, answer.body.note]
        : [answer.status];
    // Each answer shows its own write whole; the final state is one write whole (the later).
    assertSerial(
      i,
      [shown(a), shown(b), [
        after.body.name,
        after.body.title,
        after.body.note,
      ]],
      [
        [[200, "a" + i, "a" + i, "a" + i], [200, "b" + i, "b" + i, "b" + i], [
          "b" + i,
          "b" + i,
          "b" + i,
        ]],
        [[200, "a" + i, "a" + i, "a" + i], [200, "b" + i, "b" + i, "b" + i], [
          "a" + i,
          "a" + i,
          "a" + i,
        ]],
      ],
    );
  }
});

raceTest("create vs create of one unique value", async (site) => {
  for (let i = 0; i < ROUNDS; i++) {
    const email = `owner${i}@example.com`;
    const create = () =>
      site.ask("POST", "/collections/owners", {
        json: { name: "o", email },
      });
    const [a, b] = await race(i, create, create);
    const statuses = [a.status, b.status].sort();
    assert.deepEqual(statuses, [201, 422], `Round ${i}: ${statuses}`);
    const refused = a.status === 422 ? a : b;
    assert.deepEqual(Object.keys(refused.body.data.errors), ["email"]);
    const stored = await site.must(
      "GET",
      `/collections/owners?where=${
        encodeURIComponent(JSON.stringify({ email }))
      }`,
      200,
    );
    assert.equal(stored.body.length, 1);
  }
});
