// Roles and access scopes: authors write only their own posts, editors any.
import assert from "node:assert/strict";
import { bootBlog, DATABASES, DEMO_PASSWORD, json } from "./_boot.ts";
import type { TestApp } from "@strata/strata/testing";

async function uuidOf(app: TestApp, slug: string): Promise<string> {
  const editor = await app.signIn("editor@example.com", DEMO_PASSWORD);
  const response = await editor.request(
    `/collections/posts?where={slug:"${slug}"}&select=[slug]`,
  );
  const [post] = await response.json();
  return post.UUID;
}

for (const { name, url } of DATABASES) {
  Deno.test(`[${name}] authors edit only their own posts`, async () => {
    const app = await bootBlog(url);
    try {
      const own = await uuidOf(app, "hello-strata");
      const other = await uuidOf(app, "access-scopes");
      const ada = await app.signIn("ada@example.com", DEMO_PASSWORD);

      const edited = await ada.request(
        `/collections/posts/${own}?locale=de`,
        json("PATCH", { title: "Hallo, Strata!" }),
      );
      assert.equal(edited.status, 200);
      const body = await edited.json();
      assert.equal(body.title, "Hallo, Strata!");
      assert.equal(
        body.author,
        undefined,
        "the scope's select bounds the answer",
      );

      const foreign = await ada.request(
        `/collections/posts/${other}`,
        json("PATCH", { title: "Mine now" }),
      );
      assert.equal(foreign.status, 404, "another author's post looks missing");
      await foreign.body?.cancel();

      const graceUuid =
        (await (await app.request("/posts/access-scopes")).json())
          .author.UUID;
      const reassign = await ada.request(
        `/collections/posts/${own}`,
        json("PATCH", { author: graceUuid }),
      );
      assert.equal(
        reassign.status,
        422,
        "author is outside the writable fields",
      );
      assert.ok((await reassign.json()).data.errors.author);

      const deleted = await ada.request(`/collections/posts/${other}`, {
        method: "DELETE",
      });
      assert.equal(deleted.status, 404);
      await deleted.body?.cancel();

      const editor = await app.signIn("editor@example.com", DEMO_PASSWORD);
      const anyPost = await editor.request(
        `/collections/posts/${other}`,
        json("PATCH", { title: "Access scopes, edited" }),
      );
      assert.equal(anyPost.status, 200);
      assert.equal((await anyPost.json()).title, "Access scopes, edited");
    } finally {
      await app.close();
    }
  });
}

Deno.test("authors create posts under their own name only", async () => {
  const app = await bootBlog();
  try {
    const authors = await (await app.request("/collections/authors")).json();
    const byName = Object.fromEntries(
      authors.map((a: { name: string; UUID: string }) => [a.name, a.UUID]),
    );
    const ada = await app.signIn("ada@example.com", DEMO_PASSWORD);
    const post = { title: "New", slug: "new-post", body: "" };
    const asGrace = await ada.request(
      "/collections/posts",
      json("POST", { ...post, author: byName.Grace }),
    );
    assert.equal(asGrace.status, 404);
    await asGrace.body?.cancel();
    const asAda = await ada.request(
      "/collections/posts",
      json("POST", { ...post, author: byName.Ada }),
    );
    assert.equal(asAda.status, 201);
    assert.equal((await asAda.json()).published, false);

    const badSlug = await ada.request(
      "/collections/posts",
      json("POST", { ...post, slug: "Not A Slug", author: byName.Ada }),
    );
    assert.equal(badSlug.status, 422);
    assert.equal(
      (await badSlug.json()).data.errors.slug,
      "Use lower-case words joined by -",
    );
  } finally {
    await app.close();
  }
});

Deno.test("roles: readers cannot write posts, signed-out callers are asked to sign in", async () => {
  const app = await bootBlog();
  try {
    const anonymous = await app.request(
      "/collections/posts",
      json("POST", { title: "x" }),
    );
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();
    const signup = await app.request(
      "/signup",
      json("POST", {
        email: "reader@example.com",
        password: "a long password",
      }),
    );
    await signup.body?.cancel();
    const reader = await app.signIn("reader@example.com", "a long password");
    const refused = await reader.request(
      "/collections/posts",
      json("POST", { title: "x" }),
    );
    assert.equal(refused.status, 403);
    await refused.body?.cancel();
  } finally {
    await app.close();
  }
});

Deno.test("authors edit their own profile's name and bio only", async () => {
  const app = await bootBlog();
  try {
    const authors = await (await app.request("/collections/authors")).json();
    const ada = authors.find((a: { name: string }) => a.name === "Ada");
    const grace = authors.find((a: { name: string }) => a.name === "Grace");
    const client = await app.signIn("ada@example.com", DEMO_PASSWORD);
    const renamed = await client.request(
      `/collections/authors/${ada.UUID}`,
      json("PATCH", { name: "Ada L." }),
    );
    assert.equal(renamed.status, 200);
    assert.equal((await renamed.json()).name, "Ada L.");
    const other = await client.request(
      `/collections/authors/${grace.UUID}`,
      json("PATCH", { name: "Nope" }),
    );
    assert.equal(other.status, 404);
    await other.body?.cancel();
  } finally {
    await app.close();
  }
});

Deno.test("GET /me/posts lists what the caller may edit (queryScoped)", async () => {
  const app = await bootBlog();
  try {
    const grace = await app.signIn("grace@example.com", DEMO_PASSWORD);
    const mine = await (await grace.request("/me/posts")).json();
    assert.deepEqual(mine.map((p: { slug: string }) => p.slug), [
      "access-scopes",
      "draft-ideas",
    ]);
    const editor = await app.signIn("editor@example.com", DEMO_PASSWORD);
    assert.equal((await (await editor.request("/me/posts")).json()).length, 4);
    const anonymous = await app.request("/me/posts");
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();
  } finally {
    await app.close();
  }
});
