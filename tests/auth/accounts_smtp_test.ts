// The account flows end to end over a real socket, with the mails delivered to a real SMTP
// server on loopback and the links read from what it received: sign-up, verification and
// sign-in; forgot and reset.
import assert from "node:assert/strict";
import { authTest, install } from "./_helpers.ts";
import { accountsConfig } from "./_accounts.ts";
import { startSmtp, type TestSmtp } from "../_helpers/smtp.ts";
import { serveOnSocket } from "../_helpers/socket.ts";

function tokenIn(smtp: TestSmtp, to: string, page: string): string {
  const mail = smtp.received.findLast((m) => m.to.includes(to));
  assert.ok(mail, `no mail to ${to}`);
  const match = new RegExp(`/dashboard/${page}\\?token=([A-Za-z0-9_-]{43})`)
    .exec(mail.text);
  assert.ok(match, mail.text);
  return match[1];
}

authTest(
  "sign-up, verification, forgot and reset over a socket with a real SMTP server",
  async (h) => {
    const smtp = await startSmtp();
    try {
      const app = await h.boot({
        config: accountsConfig(
          { signup: { requireVerifiedEmail: true } },
          {
            mail: {
              from: "Accounts <accounts@example.com>",
              transport: { smtp: { host: "127.0.0.1", port: smtp.port } },
            },
          },
        ),
      });
      await install(app);
      const server = serveOnSocket(app);
      try {
        const post = async (path: string, body: unknown) => {
          const response = await fetch(`${server.url}${path}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
          });
          return { status: response.status, body: await response.json() };
        };
        const user = { email: "ada@example.com", password: "violet-anchor-47" };
        assert.equal((await post("/auth/signup", user)).status, 202);
        await app.mail.settle();
        const verify = tokenIn(smtp, user.email, "verify");
        assert.ok(
          smtp.received.at(-1)!.text.includes(
            `${server.url}/dashboard/verify?`,
          ),
          "the link starts with the origin the request came to",
        );
        assert.equal((await post("/auth/login", user)).status, 403);
        assert.deepEqual((await post("/auth/verify", { token: verify })).body, {
          ok: true,
        });
        assert.equal((await post("/auth/login", user)).status, 200);
        assert.equal(
          (await post("/auth/password/forgot", { email: user.email })).status,
          200,
        );
        await app.mail.settle();
        const reset = tokenIn(smtp, user.email, "reset");
        const mail = smtp.received.at(-1)!;
        assert.equal(mail.from, "accounts@example.com");
        assert.equal(mail.subject, "Reset your password");
        const answer = await post("/auth/password/reset", {
          token: reset,
          password: "a-new-password-9",
        });
        assert.deepEqual(answer.body, { ok: true });
        assert.equal(
          (await post("/auth/login", { ...user, password: "a-new-password-9" }))
            .status,
          200,
        );
        // Each mail was delivered once.
        assert.equal(smtp.received.length, 2);
      } finally {
        await server.close();
      }
    } finally {
      await smtp.close();
    }
  },
);
