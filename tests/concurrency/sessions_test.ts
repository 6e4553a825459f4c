// Sign-ins raced against password changes and logouts: every session must belong to the
// password state at its creation (none opened with an old password outlives an acknowledged
// change; the changer's own session stays), and every outcome must be one a serial order of
// the two requests produces.
import assert from "node:assert/strict";
import { assertSerial, race, raceTest, ROUNDS, type Site } from "./_race.ts";

async function member(site: Site, email: string, password: string) {
  const result = await site.app.query("Users").create({ email, password });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.record.UUID;
}

function login(site: Site, email: string, password: string) {
  return site.ask("POST", "/auth/login", {
    json: { email, password },
    cookie: null,
  });
}

async function signedIn(site: Site, cookie: string | undefined) {
  if (!cookie) return false;
  const answer = await site.ask("GET", "/auth/me", { cookie });
  return answer.status === 200;
}

raceTest("login with the old password vs a password change", async (site) => {
  const email = "member@example.com";
  let password = "password-0";
  await member(site, email, password);
  const own = (await login(site, email, password)).cookie!;
  for (let i = 0; i < ROUNDS; i++) {
    const next = `password-${i + 1}`;
    const [signIn, change] = await race(
      i,
      () => login(site, email, password),
      () =>
        site.ask("PATCH", "/auth/me", {
          json: { password: next },
          cookie: own,
        }),
    );
    password = next;
    const outcome = [
      signIn.status,
      change.status,
      await signedIn(site, signIn.cookie),
      await signedIn(site, own),
    ];
    assertSerial(
      i,
      outcome,
      [
        [200, 200, false], // login, then the change (which ends the new session)
        [401, 200, false], // the change, then login with the old password
      ].map((o) => [...o, true]),
    );
  }
});

raceTest(
  "login with the old password vs an administrator's password change",
  async (site) => {
    const email = "member@example.com";
    let password = "password-0";
    const id = await member(site, email, password);
    for (let i = 0; i < ROUNDS; i++) {
      const next = `password-${i + 1}`;
      const [signIn, change] = await race(
        i,
        () => login(site, email, password),
        () =>
          site.ask("PATCH", `/collections/users/${id}`, {
            json: { password: next },
          }),
      );
      password = next;
      const outcome = [
        signIn.status,
        change.status,
        await signedIn(site, signIn.cookie),
        await signedIn(site, site.admin),
      ];
      assertSerial(i, outcome, [
        [200, 200, false, true], // login, then the change
        [401, 200, false, true], // the change, then login
      ]);
    }
  },
);

raceTest("logout of the other sessions vs login", async (site) => {
  const email = "member@example.com";
  const password = "password-0";
  await member(site, email, password);
  const own = (await login(site, email, password)).cookie!;
  for (let i = 0; i < ROUNDS; i++) {
    const [others, signIn] = await race(
      i,
      () => site.ask("POST", "/auth/logout/others", { cookie: own }),
      () => login(site, email, password),
    );
    const outcome = [
      others.status,
      signIn.status,
      await signedIn(site, own),
    ];
    assertSerial(i, outcome, [[200, 200, true]]);
    // Either order is serial: the new session survives only if the login came second, and
    // then it is an ordinary session of the account, which ending the others ends.
    assert.ok(signIn.cookie, `Round ${i}: the login set no session cookie`);
    if (await signedIn(site, signIn.cookie)) {
      await site.must("POST", "/auth/logout/others", 200, { cookie: own });
      assert.equal(await signedIn(site, signIn.cookie), false, `Round ${i}`);
    }
  }
});

raceTest("logout vs login replacing the same session", async (site) => {
  const email = "member@example.com";
  const password = "password-0";
  await member(site, email, password);
  for (let i = 0; i < ROUNDS; i++) {
    const old = (await login(site, email, password)).cookie!;
    const [logout, signIn] = await race(
      i,
      () => site.ask("POST", "/auth/logout", { cookie: old }),
      () =>
        site.ask("POST", "/auth/login", {
          json: { email, password },
          cookie: old,
        }),
    );
    const outcome = [
      logout.status,
      signIn.status,
      await signedIn(site, old),
      await signedIn(site, signIn.cookie),
    ];
    // Either order: the old session ends, the new one (login replaces the old) lives.
    assertSerial(i, outcome, [[200, 200, false, true]]);
  }
});

raceTest("password changes from two sessions of one account", async (site) => {
  const email = "member@example.com";
  let password = "password-0";
  await member(site, email, password);
  for (let i = 0; i < ROUNDS; i++) {
    const a = (await login(site, email, password)).cookie!;
    const b = (await login(site, email, password)).cookie!;
    const change = (cookie: string, next: string) => () =>
      site.ask("PATCH", "/auth/me", { json: { password: next }, cookie });
    const [byA, byB] = await race(
      i,
      change(a, `a-password-${i}`),
      change(b, `b-password-${i}`),
    );
    password = byA.status === 200 ? `a-password-${i}` : `b-password-${i}`;
    const outcome = [
      byA.status,
      byB.status,
      await signedIn(site, a),
      await signedIn(site, b),
      (await login(site, email, password)).status,
    ];
    // The first change ends the other session, so the second is refused (401).
    assertSerial(i, outcome, [
      [200, 401, true, false, 200],
      [401, 200, false, true, 200],
    ]);
  }
});
