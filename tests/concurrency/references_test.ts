// Links raced against deletes of their target: every outcome must be one a serial order of
// the two requests produces (no link to a record that no longer exists), never a 5xx.
import { assertSerial, race, raceTest, ROUNDS, type Site } from "./_race.ts";

async function owner(site: Site, name: string): Promise<string> {
  return (await site.must("POST", "/collections/owners", 201, {
    json: { name },
  })).body.UUID;
}

async function pet(
  site: Site,
  values: Record<string, unknown> = {},
): Promise<string> {
  return (await site.must("POST", "/collections/pets", 201, {
    json: { name: "pet", ...values },
  })).body.UUID;
}

/** The pet's state after a race: gone, or its link field. */
async function linkOf(site: Site, id: string, field: string): Promise<unknown> {
  const answer = await site.ask("GET", `/collections/pets/${id}`);
  if (answer.status === 404) return "gone";
  return answer.body[field];
}

async function exists(site: Site, collection: string, id: string) {
  const { status } = await site.ask("GET", `/collections/${collection}/${id}`);
  return status === 200;
}

raceTest("link vs delete of its target (restrict)", async (site) => {
  for (let i = 0; i < ROUNDS; i++) {
    const v = await owner(site, `vet ${i}`);
    const p = await pet(site);
    const [patch, del] = await race(
      i,
      () => site.ask("PATCH", `/collections/pets/${p}`, { json: { vet: v } }),
      () => site.ask("DELETE", `/collections/owners/${v}`),
    );
    const outcome = [
      patch.status,
      del.status,
      await linkOf(site, p, "vet"),
      await exists(site, "owners", v),
    ];
    assertSerial(i, outcome, [
      [200, 409, v, true], // PATCH, then DELETE (restricted)
      [422, 204, null, false], // DELETE, then PATCH (the target is gone)
    ]);
    // Unlinked so the next round's owner can be deleted.
    await site.must("PATCH", `/collections/pets/${p}`, 200, {
      json: { vet: null },
    });
  }
});

raceTest("link vs delete of its target (cascade)", async (site) => {
  for (let i = 0; i < ROUNDS; i++) {
    const v = await owner(site, `owner ${i}`);
    const p = await pet(site);
    const [patch, del] = await race(
      i,
      () => site.ask("PATCH", `/collections/pets/${p}`, { json: { owner: v } }),
      () => site.ask("DELETE", `/collections/owners/${v}`),
    );
    assertSerial(
      i,
      [patch.status, del.status, await linkOf(site, p, "owner")],
      [
        [200, 204, "gone"], // PATCH, then DELETE (cascades to the pet)
        [422, 204, null], // DELETE, then PATCH
      ],
    );
  }
});

raceTest("link vs delete of its target (setNull)", async (site) => {
  for (let i = 0; i < ROUNDS; i++) {
    const v = await owner(site, `keeper ${i}`);
    const p = await pet(site);
    const [patch, del] = await race(
      i,
      () =>
        site.ask("PATCH", `/collections/pets/${p}`, { json: { keeper: v } }),
      () => site.ask("DELETE", `/collections/owners/${v}`),
    );
    assertSerial(
      i,
      [patch.status, del.status, await linkOf(site, p, "keeper")],
      [
        [200, 204, null], // PATCH, then DELETE (nulls the link)
        [422, 204, null], // DELETE, then PATCH
      ],
    );
  }
});

raceTest("list link vs delete of its target (records)", async (site) => {
  for (let i = 0; i < ROUNDS; i++) {
    const t = (await site.must("POST", "/collections/tags", 201, {
      json: { label: `tag ${i}` },
    })).body.UUID;
    const p = await pet(site);
    const [patch, del] = await race(
      i,
      () =>
        site.ask("PATCH", `/collections/pets/${p}`, { json: { tags: [t] } }),
      () => site.ask("DELETE", `/collections/tags/${t}`),
    );
    assertSerial(i, [patch.status, del.status, await linkOf(site, p, "tags")], [
      [200, 204, []], // PATCH, then DELETE (removes the list entry)
      [422, 204, []], // DELETE, then PATCH
    ]);
  }
});

raceTest("cascade delete vs a write to a child", async (site) => {
  for (let i = 0; i < ROUNDS; i++) {
    const v = await owner(site, `owner ${i}`);
    const p = await pet(site, { owner: v });
    await site.must("PATCH", `/collections/pets/${p}?locale=de`, 200, {
      json: { title: "Titel" },
    });
    const [patch, del] = await race(
      i,
      () =>
        site.ask("PATCH", `/collections/pets/${p}?locale=de`, {
          json: { name: `renamed ${i}`, title: `Titel ${i}` },
        }),
      () => site.ask("DELETE", `/collections/owners/${v}`),
    );
    assertSerial(i, [patch.status, del.status, await linkOf(site, p, "name")], [
      [200, 204, "gone"], // PATCH, then DELETE (cascades)
      [404, 204, "gone"], // DELETE, then PATCH (nothing left to update)
    ]);
  }
});
