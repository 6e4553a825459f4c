// The app's own sign-up route and the comment route behind `require-auth`.
import assert from "node:assert/strict";
import { bootBlog, DATABASES, json } from "./_boot.ts";

for (const { name, url } of DATABASES) {
  Deno.test(`[${name}] sign up, then comment as the new account`, async () => {
    const app = await bootBlog(url);
    try {
      const signup = await app.request(
        "/signup",
        json("POST", {
          email: " Reader@Example.com ",
          password: "a long password",
        }),
      );
      assert.equal(signup.status, 201);
      const user = await signup.json();
      assert.equal(user.email, "reader@example.com");
      assert.deepEqual(user.roles, []);
      assert.equal(user.password, undefined);
      const cookie = signup.headers.getSetCookie()[0]?.split(";")[0];
      assert.ok(cookie, "sign-up signs the account in");

      const me = await app.request("/auth/me", { headers: { cookie } });
      assert.equal((await me.json()).email, "reader@example.com");

      const comment = await app.request("/posts/hello-strata/comments", {
        ...json("POST", { body: "Nice post" }),
        headers: { cookie, "content-type": "application/json" },
      });
      assert.equal(comment.status, 201);
      assert.equal((await comment.json()).body, "Nice post");

      const signedIn = await app.signIn(
        "reader@example.com",
        "a long password",
      );
      const empty = await signedIn.request(
        "/posts/hello-strata/comments",
        json("POST", { body: "" }),
      );
      assert.equal(empty.status, 422);
      assert.ok((await empty.json()).data.errors.body);
      const hidden = await signedIn.request(
        "/posts/draft-ideas/comments",
        json("POST", { body: "First!" }),
      );
      assert.equal(
        hidden.status,
        404,
        "a draft cannot be found, let alone commented",
      );
      await hidden.body?.cancel();
    } finally {
      await app.close();
    }
  });
}

Deno.test("sign-up refuses a bad or taken email with per-field messages", async () => {
  const app = await bootBlog();
  try {
    const taken = await app.request(
      "/signup",
      json("POST", { email: "ADA@example.com", password: "a long password" }),
    );
    assert.equal(taken.status, 422);
    assert.ok((await taken.json()).data.errors.email);
    const bad = await app.request(
      "/signup",
      json("POST", { email: "not-an-email", password: "short" }),
    );
    assert.equal(bad.status, 422);
    const { errors } = (await bad.json()).data;
    assert.ok(errors.email);
    assert.ok(errors.password);
    assert.equal(taken.headers.getSetCookie().length, 0);
  } finally {
    await app.close();
  }
});

Deno.test("commenting needs a session", async () => {
  const app = await bootBlog();
  try {
    const anonymous = await app.request(
      "/posts/hello-strata/comments",
      json("POST", { body: "Hi" }),
    );
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();
  } finally {
    await app.close();
  }
});
