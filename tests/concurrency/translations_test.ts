// Translation writes raced: a write at a locale against the delete of that locale, two
// writes creating one new locale, and a copy against a write of its source locale. Each
// outcome must be one a serial order of the two requests produces, never a 5xx.
import { assertSerial, race, raceTest, ROUNDS, type Site } from "./_race.ts";

async function pet(site: Site): Promise<string> {
  return (await site.must("POST", "/collections/pets", 201, {
    json: { name: "pet", title: "Title" },
  })).body.UUID;
}

/** The title at `locale`, or "none" when the record holds no translation there. */
async function titleAt(site: Site, id: string, locale: string) {
  const answer = await site.must(
    "GET",
    `/collections/pets/${id}?locale=${locale}&select=[title]`,
    200,
  );
  return answer.body._translations.includes(locale)
    ? answer.body.title
    : "none";
}

raceTest("update of a locale vs delete of that locale", async (site) => {
  const p = await pet(site);
  for (let i = 0; i < ROUNDS; i++) {
    await site.must("PATCH", `/collections/pets/${p}?locale=de`, 200, {
      json: { title: "alt" },
    });
    const value = `neu ${i}`;
    const [patch, del] = await race(
      i,
      () =>
        site.ask("PATCH", `/collections/pets/${p}?locale=de`, {
          json: { title: value },
        }),
      () => site.ask("DELETE", `/collections/pets/${p}/translations?locale=de`),
    );
    const outcome = [
      patch.status,
      patch.body?.title,
      del.status,
      await titleAt(site, p, "de"),
    ];
    assertSerial(i, outcome, [
      [200, value, 204, "none"], // PATCH, then DELETE
      [200, value, 204, value], // DELETE, then PATCH (which creates the locale anew)
    ]);
  }
});

raceTest("two updates creating one new locale", async (site) => {
  const p = await pet(site);
  for (let i = 0; i < ROUNDS; i++) {
    const write = (value: string) => () =>
      site.ask("PATCH", `/collections/pets/${p}?locale=fr`, {
        json: { title: value },
      });
    const [a, b] = await race(i, write(`a${i}`), write(`b${i}`));
    const final = await titleAt(site, p, "fr");
    assertSerial(i, [a.status, a.body?.title, b.status, b.body?.title, final], [
      [200, `a${i}`, 200, `b${i}`, `a${i}`],
      [200, `a${i}`, 200, `b${i}`, `b${i}`],
    ]);
    await site.must(
      "DELETE",
      `/collections/pets/${p}/translations?locale=fr`,
      204,
    );
  }
});

raceTest("two copies to one new locale", async (site) => {
  const p = await pet(site);
  const copy = () =>
    site.ask("POST", `/collections/pets/${p}/translations/copy?locale=fr`, {
      json: {},
    });
  for (let i = 0; i < ROUNDS; i++) {
    const [a, b] = await race(i, copy, copy);
    const final = await titleAt(site, p, "fr");
    assertSerial(i, [a.status, a.body?.title, b.status, b.body?.title, final], [
      [200, "Title", 200, "Title", "Title"],
    ]);
    await site.must(
      "DELETE",
      `/collections/pets/${p}/translations?locale=fr`,
      204,
    );
  }
});

raceTest("copy of a locale vs update of the source locale", async (site) => {
  const p = await pet(site);
  for (let i = 0; i < ROUNDS; i++) {
    const before = `en ${i}`;
    const after = `en ${i}'`;
    await site.must("PATCH", `/collections/pets/${p}`, 200, {
      json: { title: before },
    });
    const [copy, patch] = await race(
      i,
      () =>
        site.ask("POST", `/collections/pets/${p}/translations/copy?locale=de`, {
          json: { source: "en" },
        }),
      () =>
        site.ask("PATCH", `/collections/pets/${p}`, { json: { title: after } }),
    );
    const outcome = [
      copy.status,
      copy.body?.title,
      patch.status,
      await titleAt(site, p, "de"),
      await titleAt(site, p, "en"),
    ];
    assertSerial(i, outcome, [
      [200, before, 200, before, after], // copy, then update
      [200, after, 200, after, after], // update, then copy
    ]);
  }
});
