// Seeded, signed-in concurrent fuzzing: six workers, each signed in as its own account,
// send mostly valid writes at once over a real socket — values of the pets each worker
// owns, links to owners and tags every worker creates and deletes, translation deletes and
// copies, password changes, sign-ins with current and old passwords of another account,
// logouts of the other sessions. Every answer must be one a serial order allows (no 5xx),
// and afterwards everything is read back and compared with what was acknowledged: no
// acknowledged write lost or corrupted, no link to a deleted record, no session opened with
// a password that was changed afterwards still working.
//
// Short in CI (1.5 s per seed); a long run by hand:
//   STRATA_FUZZ_MS=60000 STRATA_FUZZ_SEEDS=1,2 deno test -A tests/concurrency/fuzz_test.ts
import assert from "node:assert/strict";
import { mulberry32, pick, type Rng } from "../_helpers/random.ts";
import { type Answer, raceTest, type Site } from "./_race.ts";

const WORKERS = 6;
const PETS_PER_WORKER = 2;
const DURATION = Number(Deno.env.get("STRATA_FUZZ_MS")) || 1500;
const SEEDS = (Deno.env.get("STRATA_FUZZ_SEEDS") ?? "1,2").split(",").map(
  Number,
);
const LOCALES = ["en", "de", "fr"];

interface Translation {
  title: string | null;
  note: string | null;
}

/** What a worker's acknowledged writes say a pet holds. */
interface PetModel {
  readonly id: string;
  name: string;
  /** Locale → values, for the locales the pet holds. */
  locales: Map<string, Translation>;
  vet: string | null;
  keeper: string | null;
  owner: string | null;
  tags: string[];
  /** Deleted by its worker (204). */
  deleted: boolean;
  /** Found gone (404) by its worker: a cascade from its owner's delete must explain it. */
  vanished: boolean;
}

/** A session opened by signing in as another worker's account. */
interface ForeignSession {
  readonly user: number;
  readonly password: string;
  readonly cookie: string;
}

interface World {
  readonly site: Site;
  readonly deadline: number;
  readonly pets: PetModel[];
  /** Owners and tags that exist as far as acknowledged writes say (deletes may race). */
  readonly owners: string[];
  readonly tags: string[];
  readonly deletedOwners: Set<string>;
  readonly deletedTags: Set<string>;
  /** Owners whose delete was sent (acknowledged or not yet). */
  readonly deletingOwners: Set<string>;
  readonly emails: string[];
  /** Per account: its passwords in order, the last acknowledged one last. */
  readonly passwords: string[][];
  /** Per account: bumped when a password change starts and when it ends. */
  readonly changeEpoch: number[];
  readonly cookies: string[];
  readonly foreign: ForeignSession[];
  readonly log: string[];
}

function fail(world: World, message: string): never {
  throw new Error(
    `${message}\nLast requests:\n${world.log.slice(-20).join("\n")}`,
  );
}

async function send(
  world: World,
  worker: number,
  method: string,
  path: string,
  json?: unknown,
  cookie?: string | null,
): Promise<Answer> {
  const answer = await world.site.ask(method, path, {
    json,
    cookie: cookie === undefined ? world.cookies[worker] : cookie,
  });
  world.log.push(
    `w${worker} ${method} ${path} ${
      JSON.stringify(json) ?? ""
    } → ${answer.status}`,
  );
  if (answer.status >= 500 || answer.status === 400 || answer.status === 403) {
    fail(world, `${method} ${path} answered ${answer.status}`);
  }
  return answer;
}

function word(rng: Rng): string {
  return Math.floor(rng() * 1e9).toString(36);
}

/** A 404 on a pet its worker did not delete: its owner must be gone (cascade). */
function vanished(world: World, pet: PetModel, what: string): void {
  if (pet.owner === null || !world.deletingOwners.has(pet.owner)) {
    fail(world, `${what}: pet ${pet.id} is gone, but nothing deleted it`);
  }
  pet.vanished = true;
}

function linkErrorsOnly(world: World, answer: Answer): void {
  const keys = Object.keys(answer.body?.data?.errors ?? {});
  if (
    keys.length === 0 ||
    keys.some((k) => !/^(vet|keeper|owner|tags\[\d+\])$/.test(k))
  ) {
    fail(world, `Unexpected 422: ${JSON.stringify(answer.body)}`);
  }
}

async function newPet(
  world: World,
  worker: number,
  rng: Rng,
): Promise<PetModel> {
  const name = word(rng);
  const title = word(rng);
  const answer = await send(world, worker, "POST", "/collections/pets", {
    name,
    title,
  });
  assert.equal(answer.status, 201);
  return {
    id: answer.body.UUID,
    name,
    locales: new Map([["en", { title, note: null }]]),
    vet: null,
    keeper: null,
    owner: null,
    tags: [],
    deleted: false,
    vanished: false,
  };
}

/** The worker's live pet at `slot`, replaced when it was deleted or vanished. */
async function petAt(
  world: World,
  worker: number,
  rng: Rng,
  slot: number,
): Promise<PetModel> {
  const index = worker * PETS_PER_WORKER + slot;
  let pet = world.pets[index];
  if (pet.deleted || pet.vanished) {
    world.pets.push(pet); // kept for the final read-back
    pet = world.pets[index] = await newPet(world, worker, rng);
  }
  return pet;
}

async function patchPet(world: World, worker: number, rng: Rng, pet: PetModel) {
  const locale = pick(rng, LOCALES);
  const input: Record<string, unknown> = {};
  if (rng() < 0.5) input.name = word(rng);
  if (rng() < 0.6) input.title = word(rng);
  if (rng() < 0.3) input.note = rng() < 0.2 ? null : word(rng);
  const link = () => rng() < 0.2 ? null : pick(rng, world.owners) ?? null;
  if (rng() < 0.25) input.vet = link();
  if (rng() < 0.25) input.keeper = link();
  if (rng() < 0.15) input.owner = link();
  if (rng() < 0.2 && world.tags.length > 0) {
    input.tags = [...new Set([pick(rng, world.tags), pick(rng, world.tags)])];
  }
  if (Object.keys(input).length === 0) input.name = word(rng);
  const answer = await send(
    world,
    worker,
    "PATCH",
    `/collections/pets/${pet.id}?locale=${locale}`,
    input,
  );
  if (answer.status === 404) return vanished(world, pet, "PATCH");
  if (answer.status === 422) return linkErrorsOnly(world, answer);
  assert.equal(answer.status, 200);
  if ("name" in input) pet.name = input.name as string;
  if ("title" in input || "note" in input) {
    const current = pet.locales.get(locale) ?? { title: null, note: null };
    pet.locales.set(locale, {
      title: "title" in input ? input.title as string : current.title,
      note: "note" in input ? input.note as string | null : current.note,
    });
  }
  for (const key of ["vet", "keeper", "owner"] as const) {
    if (key in input) pet[key] = input[key] as string | null;
  }
  if ("tags" in input) pet.tags = input.tags as string[];
  // The answer is the record's state at once: the worker's own values.
  assert.equal(answer.body.name, pet.name);
  const values = pet.locales.get(locale);
  assert.equal(answer.body.title, values?.title ?? null);
}

async function deleteTranslation(
  world: World,
  worker: number,
  rng: Rng,
  pet: PetModel,
) {
  const locale = pick(rng, LOCALES);
  const answer = await send(
    world,
    worker,
    "DELETE",
    `/collections/pets/${pet.id}/translations?locale=${locale}`,
  );
  if (answer.status === 204) {
    if (!pet.locales.delete(locale)) fail(world, "Deleted a missing locale");
    return;
  }
  assert.equal(answer.status, 404);
  if (pet.locales.has(locale)) vanished(world, pet, "translation delete");
}

async function copyTranslation(
  world: World,
  worker: number,
  rng: Rng,
  pet: PetModel,
) {
  const locale = pick(rng, ["de", "fr"]);
  const answer = await send(
    world,
    worker,
    "POST",
    `/collections/pets/${pet.id}/translations/copy?locale=${locale}`,
    { source: "en" },
  );
  const source = pet.locales.get("en");
  if (answer.status === 404) {
    if (source) vanished(world, pet, "copy");
    return;
  }
  assert.equal(answer.status, 200);
  if (!source) fail(world, "Copied from a missing locale");
  assert.deepEqual([answer.body.title, answer.body.note], [
    source.title,
    source.note,
  ]);
  pet.locales.set(locale, { ...source });
}

async function deletePet(world: World, worker: number, pet: PetModel) {
  const answer = await send(
    world,
    worker,
    "DELETE",
    `/collections/pets/${pet.id}`,
  );
  if (answer.status === 404) return vanished(world, pet, "DELETE");
  assert.equal(answer.status, 204);
  pet.deleted = true;
}

/** Creates an owner or a tag (shared by every worker) and adds it to its pool. */
async function createShared(
  world: World,
  worker: number,
  rng: Rng,
  kind: "owners" | "tags",
) {
  const answer = await send(world, worker, "POST", `/collections/${kind}`, {
    [kind === "owners" ? "name" : "label"]: word(rng),
  });
  assert.equal(answer.status, 201);
  world[kind].push(answer.body.UUID);
}

async function deleteOwner(world: World, worker: number, rng: Rng) {
  const id = pick(rng, world.owners);
  if (!id) return;
  world.deletingOwners.add(id);
  const answer = await send(
    world,
    worker,
    "DELETE",
    `/collections/owners/${id}`,
  );
  if (answer.status === 204) {
    world.deletedOwners.add(id);
    const at = world.owners.indexOf(id);
    if (at >= 0) world.owners.splice(at, 1);
  } else if (answer.status !== 409 && answer.status !== 404) {
    fail(world, `Owner delete answered ${answer.status}`);
  }
}

async function deleteTag(world: World, worker: number, rng: Rng) {
  if (world.tags.length < 3) return;
  const id = pick(rng, world.tags);
  const answer = await send(world, worker, "DELETE", `/collections/tags/${id}`);
  if (answer.status === 204) {
    world.deletedTags.add(id);
    const at = world.tags.indexOf(id);
    if (at >= 0) world.tags.splice(at, 1);
  } else assert.equal(answer.status, 404);
}

async function changePassword(world: World, worker: number, rng: Rng) {
  const password = `pw-${word(rng)}-${word(rng)}`;
  world.changeEpoch[worker]++;
  const answer = await send(world, worker, "PATCH", "/auth/me", { password });
  world.changeEpoch[worker]++;
  assert.equal(answer.status, 200);
  world.passwords[worker].push(password);
}

async function foreignLogin(world: World, worker: number, rng: Rng) {
  const user = (worker + 1) % WORKERS;
  const known = world.passwords[user];
  const password = rng() < 0.5 ? known[known.length - 1] : pick(rng, known);
  const current = password === known[known.length - 1];
  const epoch = world.changeEpoch[user];
  const answer = await send(world, worker, "POST", "/auth/login", {
    email: world.emails[user],
    password,
  }, null);
  if (answer.status === 200) {
    world.foreign.push({ user, password, cookie: answer.cookie! });
    return;
  }
  assert.equal(answer.status, 401);
  // Refused with the current password: only a change racing the login explains it.
  if (current && epoch % 2 === 0 && world.changeEpoch[user] === epoch) {
    fail(world, "Login with the current password refused");
  }
}

async function logoutOthers(world: World, worker: number) {
  const answer = await send(world, worker, "POST", "/auth/logout/others", {});
  assert.equal(answer.status, 200);
}

async function work(world: World, worker: number, seed: number): Promise<void> {
  const rng = mulberry32(seed * 1000 + worker);
  while (Date.now() < world.deadline) {
    const roll = rng();
    const pet = await petAt(
      world,
      worker,
      rng,
      Math.floor(rng() * PETS_PER_WORKER),
    );
    if (roll < 0.35) await patchPet(world, worker, rng, pet);
    else if (roll < 0.43) await deleteTranslation(world, worker, rng, pet);
    else if (roll < 0.5) await copyTranslation(world, worker, rng, pet);
    else if (roll < 0.54) await deletePet(world, worker, pet);
    else if (roll < 0.63) await createShared(world, worker, rng, "owners");
    else if (roll < 0.73) await deleteOwner(world, worker, rng);
    else if (roll < 0.77) await createShared(world, worker, rng, "tags");
    else if (roll < 0.8) await deleteTag(world, worker, rng);
    else if (roll < 0.86) await changePassword(world, worker, rng);
    else if (roll < 0.95) await foreignLogin(world, worker, rng);
    else await logoutOthers(world, worker);
  }
}

async function exists(site: Site, collection: string, id: string) {
  return await site.app.query(collection).where({ UUID: id }).count() === 1;
}

/** Compares the final state of one pet with its worker's acknowledged writes. */
async function checkPet(world: World, pet: PetModel): Promise<void> {
  const { site, deletedOwners, deletedTags } = world;
  const first = await site.ask("GET", `/collections/pets/${pet.id}`);
  const cascaded = pet.owner !== null && deletedOwners.has(pet.owner);
  if (first.status === 404) {
    if (!pet.deleted && !cascaded) {
      fail(world, `Pet ${pet.id} is gone; nothing acknowledged deleting it`);
    }
    return;
  }
  assert.equal(first.status, 200);
  if (pet.deleted) {
    fail(world, `Pet ${pet.id} survived its acknowledged delete`);
  }
  if (cascaded) {
    fail(world, `Pet ${pet.id} survived the delete of its owner ${pet.owner}`);
  }
  if (pet.vanished) fail(world, `Pet ${pet.id} answered 404 earlier`);
  const record = first.body;
  assert.equal(record.name, pet.name, `name of ${pet.id}`);
  if (pet.vet !== null && deletedOwners.has(pet.vet)) {
    fail(world, `Restricted owner ${pet.vet} was deleted while linked`);
  }
  assert.equal(record.vet, pet.vet, `vet of ${pet.id}`);
  assert.equal(
    record.keeper,
    pet.keeper !== null && deletedOwners.has(pet.keeper) ? null : pet.keeper,
    `keeper of ${pet.id}`,
  );
  assert.equal(record.owner, pet.owner, `owner of ${pet.id}`);
  assert.deepEqual(
    record.tags,
    pet.tags.filter((t) => !deletedTags.has(t)),
    `tags of ${pet.id}`,
  );
  for (const link of [record.vet, record.keeper, record.owner]) {
    if (link !== null) assert.ok(await exists(site, "Owners", link));
  }
  const held = LOCALES.filter((l) => pet.locales.has(l));
  for (const locale of LOCALES) {
    const answer = await site.must(
      "GET",
      `/collections/pets/${pet.id}?locale=${locale}`,
      200,
    );
    assert.deepEqual(answer.body._translations, held, `locales of ${pet.id}`);
    const values = pet.locales.get(locale) ?? { title: null, note: null };
    assert.deepEqual(
      [answer.body.title, answer.body.note],
      [values.title, values.note],
      `${locale} values of ${pet.id}`,
    );
  }
}

async function checkSessions(world: World): Promise<void> {
  const { site } = world;
  const works = async (cookie: string) =>
    (await site.ask("GET", "/auth/me", { cookie })).status === 200;
  for (let w = 0; w < WORKERS; w++) {
    assert.ok(await works(world.cookies[w]), `Worker ${w} lost its session`);
  }
  for (const session of world.foreign) {
    const known = world.passwords[session.user];
    if (session.password === known[known.length - 1]) continue;
    if (await works(session.cookie)) {
      fail(world, `A session opened with a changed password still works`);
    }
  }
  for (let w = 0; w < WORKERS; w++) {
    const known = world.passwords[w];
    const login = (password: string) =>
      site.ask("POST", "/auth/login", {
        json: { email: world.emails[w], password },
        cookie: null,
      });
    assert.equal((await login(known[known.length - 1])).status, 200);
    if (known.length > 1) {
      assert.equal((await login(known[known.length - 2])).status, 401);
    }
  }
}

async function checkLinks(world: World): Promise<void> {
  const { site } = world;
  const owners = new Set(
    (await site.app.query("Owners").select("name").findMany()).map((o) =>
      o.UUID
    ),
  );
  const tags = new Set(
    (await site.app.query("Tags").select("label").findMany()).map((t) =>
      t.UUID
    ),
  );
  for (const id of world.deletedOwners) assert.ok(!owners.has(id));
  for (const id of world.deletedTags) assert.ok(!tags.has(id));
  for (const pet of await site.app.query("Pets").findMany()) {
    for (const key of ["vet", "keeper", "owner"]) {
      const link = pet[key] as string | null;
      if (link !== null && !owners.has(link)) {
        fail(world, `Pet ${pet.UUID}.${key} links the missing owner ${link}`);
      }
    }
    for (const tag of pet.tags as string[]) {
      if (!tags.has(tag)) {
        fail(world, `Pet ${pet.UUID} lists the missing tag ${tag}`);
      }
    }
  }
}

for (const seed of SEEDS) {
  raceTest(`signed-in concurrent fuzz, seed ${seed}`, async (site) => {
    const emails = Array.from(
      { length: WORKERS },
      (_, w) => `worker${w}@example.com`,
    );
    const passwords = emails.map((_, w) => [`initial-password-${w}`]);
    const cookies: string[] = [];
    for (let w = 0; w < WORKERS; w++) {
      const created = await site.app.query("Users").create({
        email: emails[w],
        password: passwords[w][0],
        roles: ["admin"],
      });
      assert.ok(created.ok, JSON.stringify(created));
      cookies.push(
        (await site.must("POST", "/auth/login", 200, {
          json: { email: emails[w], password: passwords[w][0] },
          cookie: null,
        })).cookie!,
      );
    }
    const world: World = {
      site,
      deadline: 0,
      pets: [],
      owners: [],
      tags: [],
      deletedOwners: new Set(),
      deletedTags: new Set(),
      deletingOwners: new Set(),
      emails,
      passwords,
      changeEpoch: emails.map(() => 0),
      cookies,
      foreign: [],
      log: [],
    };
    const rng = mulberry32(seed);
    for (let i = 0; i < 4; i++) await createShared(world, 0, rng, "owners");
    for (let i = 0; i < 4; i++) await createShared(world, 0, rng, "tags");
    for (let w = 0; w < WORKERS; w++) {
      for (let i = 0; i < PETS_PER_WORKER; i++) {
        world.pets.push(await newPet(world, w, rng));
      }
    }
    (world as { deadline: number }).deadline = Date.now() + DURATION;
    await Promise.all(
      Array.from({ length: WORKERS }, (_, w) => work(world, w, seed)),
    );
    for (const pet of world.pets) await checkPet(world, pet);
    await checkLinks(world);
    await checkSessions(world);
    // What the run did, for a long run by hand (a short one may do little on a loaded box).
    const statuses = new Map<string, number>();
    for (const line of world.log) {
      const status = line.slice(line.lastIndexOf("→ ") + 2);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    const stale = world.foreign.filter((f) =>
      f.password !== world.passwords[f.user].at(-1)
    ).length;
    console.log(
      `fuzz seed ${seed} [${site.dialect}], ${DURATION} ms: ${world.log.length} requests (${
        [...statuses].sort().map(([s, n]) => `${n}× ${s}`).join(", ")
      }); ${stale} of ${world.foreign.length} foreign sessions opened with a password changed since, all ended`,
    );
  });
}
