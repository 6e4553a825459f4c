// Mail: the outbox written in the request's transaction, the worker delivering through the
// `log` transport and through a real SMTP server on loopback, retries with backoff while the
// server refuses, bodies deleted once delivered or given up, and exactly-once delivery by
// two instances sharing a database.
import assert from "node:assert/strict";
import { kyselyOf } from "../../collections/database.ts";
import { enqueueMail, outboxRows } from "../../mail/outbox.ts";
import { resolveConfig } from "../../app/config.ts";
import { ask, authTest, fixture } from "../auth/_helpers.ts";
import { startSmtp } from "../_helpers/smtp.ts";
import type { App } from "../../mod.ts";

const ROOT = fixture("mail_app");

function smtpConfig(port: number, extra: Record<string, unknown> = {}) {
  return {
    mail: {
      from: "Strata Test <noreply@example.com>",
      transport: { smtp: { host: "127.0.0.1", port } },
      ...extra,
    },
  };
}

function contact(app: App, to: string[], subject = "Hello", text = "Hi there") {
  return ask(app, "/contact", { json: { to, subject, text } });
}

authTest(
  "the log transport delivers from the outbox and keeps the mail sent",
  async (h) => {
    const app = await h.boot({ root: ROOT, config: {} });
    const log = console.log;
    const printed: string[] = [];
    console.log = (...args: unknown[]) => void printed.push(args.join(" "));
    try {
      const answer = await contact(
        app,
        ["ada@example.com"],
        "Welcome",
        "Go to https://example.com/x",
      );
      assert.equal(answer.status, 200);
      await app.mail.settle();
    } finally {
      console.log = log;
    }
    assert.equal(app.mail.sent.length, 1);
    const [mail] = app.mail.sent;
    assert.deepEqual(mail.to, ["ada@example.com"]);
    assert.equal(mail.subject, "Welcome");
    assert.equal(mail.from, "Strata <noreply@localhost>");
    assert.ok(
      printed.some((line) =>
        line.includes("ada@example.com") && line.includes("Welcome") &&
        line.includes("https://example.com/x")
      ),
    );
    const [row] = await outboxRows(kyselyOf(app.db));
    assert.equal(row.status, "sent");
    assert.equal(row.recipients, "ada@example.com");
    assert.equal(row.subject, null);
    assert.equal(row.text, null);
    assert.equal(row.html, null);
    assert.ok(row.finishedAt !== null);
  },
);

authTest(
  "mail already waiting in the outbox goes at the worker's next tick, unwoken",
  async (h) => {
    // retryBase 100ms: the worker ticks every 50 ms.
    const app = await h.boot({
      root: ROOT,
      config: { mail: { retryBase: "100ms" } },
    });
    const log = console.log;
    console.log = () => {};
    try {
      // Written as another instance (or an earlier run) would have left it: no wake here.
      await enqueueMail(kyselyOf(app.db), {
        to: ["ada@example.com"],
        kind: null,
        subject: "Waiting",
        text: "Hi",
        html: null,
        params: null,
      }, h.clock.now());
      for (let i = 0; i < 500 && app.mail.sent.length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      console.log = log;
    }
    assert.deepEqual(app.mail.sent.map((mail) => mail.subject), ["Waiting"]);
  },
);

authTest("the log transport keeps the last 50 mails", async (h) => {
  const app = await h.boot({ root: ROOT, config: {} });
  const log = console.log;
  console.log = () => {};
  try {
    const to = Array.from({ length: 55 }, (_, i) => `u${i}@example.com`);
    assert.equal((await contact(app, to)).status, 200);
    await app.mail.settle();
  } finally {
    console.log = log;
  }
  assert.equal(app.mail.sent.length, 50);
  const recipients = new Set(app.mail.sent.map((m) => m.to[0]));
  assert.equal(recipients.size, 50);
});

authTest(
  "a mail written in a transaction that rolls back is never sent",
  async (h) => {
    const app = await h.boot({ root: ROOT, config: {} });
    const answer = await ask(app, "/rollback", { json: {} });
    assert.deepEqual(answer.body, { rolledBack: true });
    await app.mail.settle();
    assert.equal(app.mail.sent.length, 0);
    assert.equal((await outboxRows(kyselyOf(app.db))).length, 0);
  },
);

authTest("a malformed mail is refused before it is written", async (h) => {
  const app = await h.boot({ root: ROOT, config: {} });
  for (
    const [to, subject] of [
      ["ada@example.com\r\nBcc: eve@example.com", "Hi"],
      ["not-an-address", "Hi"],
      ["ada@example.com", "Two\r\nlines"],
    ]
  ) {
    const answer = await contact(app, [to], subject);
    assert.equal(answer.status, 400, JSON.stringify(answer.body));
  }
  assert.equal((await outboxRows(kyselyOf(app.db))).length, 0);
});

authTest("mail goes through a real SMTP server", async (h) => {
  const smtp = await startSmtp();
  try {
    const app = await h.boot({ root: ROOT, config: smtpConfig(smtp.port) });
    const text = "Grüße, with a long line ".repeat(10) +
      "\nhttps://example.com/verify?token=abc_DEF-123";
    assert.equal(
      (await contact(app, ["ada@example.com"], "Grüße", text)).status,
      200,
    );
    await app.mail.settle();
    assert.equal(smtp.received.length, 1);
    const [mail] = smtp.received;
    assert.deepEqual(mail.to, ["ada@example.com"]);
    assert.equal(mail.from, "noreply@example.com");
    assert.equal(mail.subject, "Grüße");
    assert.equal(mail.text, text.trimEnd());
    const [row] = await outboxRows(kyselyOf(app.db));
    assert.equal(row.status, "sent");
    assert.equal(row.text, null);
    assert.equal(app.mail.sent.length, 0);
  } finally {
    await smtp.close();
  }
});

authTest(
  "a server that refuses delays mail without failing the request",
  async (h) => {
    const smtp = await startSmtp();
    try {
      smtp.refuse = true;
      const app = await h.boot({
        root: ROOT,
        config: smtpConfig(smtp.port, { retryBase: "10s", retryFor: "1m" }),
      });
      assert.equal((await contact(app, ["ada@example.com"])).status, 200);
      await app.mail.settle();
      assert.equal(smtp.refused, 1);
      let [row] = await outboxRows(kyselyOf(app.db));
      assert.equal(row.status, "pending");
      assert.equal(row.attempts, 1);
      assert.equal(row.nextAt, h.clock.now() + 10_000);
      assert.match(row.lastError ?? "", /451/);
      assert.ok(row.text !== null, "the body waits for the next attempt");
      // Not yet due: nothing is tried.
      h.clock.advance(9_000);
      await app.mail.settle();
      assert.equal(smtp.refused, 1);
      // Due: refused again, next try after twice the delay.
      h.clock.advance(1_000);
      await app.mail.settle();
      assert.equal(smtp.refused, 2);
      [row] = await outboxRows(kyselyOf(app.db));
      assert.equal(row.nextAt, h.clock.now() + 20_000);
      smtp.refuse = false;
      h.clock.advance(20_000);
      await app.mail.settle();
      assert.equal(smtp.received.length, 1);
      [row] = await outboxRows(kyselyOf(app.db));
      assert.equal(row.status, "sent");
      assert.equal(row.attempts, 3);
      assert.equal(row.text, null);
      // Delivered once: later wake-ups send nothing more.
      h.clock.advance(60_000);
      await app.mail.settle();
      assert.equal(smtp.received.length, 1);
    } finally {
      await smtp.close();
    }
  },
);

authTest(
  "a mail refused past retryFor is given up and its body deleted",
  async (h) => {
    const smtp = await startSmtp();
    try {
      smtp.refuse = true;
      const app = await h.boot({
        root: ROOT,
        config: smtpConfig(smtp.port, { retryBase: "10s", retryFor: "25s" }),
      });
      assert.equal((await contact(app, ["ada@example.com"])).status, 200);
      await app.mail.settle();
      h.clock.advance(10_000);
      await app.mail.settle();
      h.clock.advance(20_000);
      await app.mail.settle();
      const [row] = await outboxRows(kyselyOf(app.db));
      assert.equal(row.status, "failed");
      assert.equal(row.subject, null);
      assert.equal(row.text, null);
      assert.equal(await app.mail.nextDue(), null);
      assert.equal(smtp.received.length, 0);
    } finally {
      await smtp.close();
    }
  },
);

authTest(
  "two instances on one database send each mail exactly once",
  async (h) => {
    const smtp = await startSmtp();
    try {
      const config = smtpConfig(smtp.port);
      const first = await h.boot({ root: ROOT, config });
      const second = await h.boot({ root: ROOT, config });
      const to = Array.from({ length: 12 }, (_, i) => `u${i}@example.com`);
      // Written through both instances, delivered by both workers racing.
      assert.equal((await contact(first, to.slice(0, 6))).status, 200);
      assert.equal((await contact(second, to.slice(6))).status, 200);
      await Promise.all([first.mail.settle(), second.mail.settle()]);
      await Promise.all([first.mail.settle(), second.mail.settle()]);
      const delivered = smtp.received.map((m) => m.to[0]).sort();
      assert.deepEqual(delivered, [...to].sort());
      const rows = await outboxRows(kyselyOf(first.db));
      assert.equal(rows.length, 12);
      assert.ok(rows.every((r) => r.status === "sent" && r.attempts === 1));
    } finally {
      await smtp.close();
    }
  },
  { shared: true },
);

Deno.test("the mail config is validated at boot, naming the key", () => {
  const bad: [unknown, RegExp][] = [
    [{ transport: "smtp" }, /mail\.transport must be/],
    [{ transport: { smtp: { port: 25 } } }, /mail\.transport\.smtp\.host/],
    [
      { transport: { smtp: { host: "h", port: 0 } } },
      /mail\.transport\.smtp\.port/,
    ],
    [{ from: "a@example.com\r\nBcc: b@example.com" }, /mail\.from/],
    [{ retryBase: "soon" }, /mail\.retryBase/],
    [{ sender: "x" }, /unknown config key "mail\.sender"/],
  ];
  for (const [mail, message] of bad) {
    assert.throws(
      () => resolveConfig({ mail } as never, "strata.config.ts"),
      message,
    );
  }
  assert.throws(
    () => resolveConfig({ api: { publicUrl: "ftp://x" } }, "strata.config.ts"),
    /api\.publicUrl/,
  );
  const config = resolveConfig(
    { api: { publicUrl: "https://example.com/app/" } },
    "strata.config.ts",
  );
  assert.equal(config.api.publicUrl, "https://example.com/app");
  assert.equal(config.mail.retryFor, 3_600_000);
});
