/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
// The account page's security sections: changing the email, two-factor sign-in (set up with
// a QR code drawn in the page, recovery codes, turning it off) and API tokens.
import { h } from "../dom.ts";
import type { Dashboard } from "../context.ts";
import type { User } from "../types.ts";
import { fieldErrors } from "../values.ts";
import {
  type FieldRow,
  fieldRow,
  formAlert,
  onSubmit,
  requireFilled,
  showErrors,
} from "../forms.ts";
import { qrSvg } from "../qr.ts";

function section(title: string, testid: string, ...body: Node[]): HTMLElement {
  return h(
    "section",
    { class: "card card-medium", "data-testid": testid },
    h("h2", {}, title),
    body,
  );
}

function form(
  testid: string,
  rows: readonly FieldRow[],
  label: string,
): HTMLFormElement {
  return h(
    "form",
    { class: "form", "data-testid": testid },
    rows.map((row) => row.element),
    formAlert(),
    h(
      "div",
      { class: "actions" },
      h("button", {
        type: "submit",
        class: "button button-primary",
        "data-testid": testid + "-submit",
      }, label),
    ),
  );
}

function refuse(app: Dashboard, target: HTMLFormElement, response: {
  status: number;
  data: unknown;
  ok: boolean;
}): void {
  showErrors(
    target,
    fieldErrors(response.data),
    response.status === 422 ? "" : app.errorText(response),
  );
}

function passwordRow(app: Dashboard): FieldRow {
  return fieldRow({
    name: "password",
    label: app.t("currentPassword"),
    type: "password",
    autocomplete: "current-password",
    required: true,
  });
}

function codeRow(app: Dashboard): FieldRow {
  return fieldRow({
    name: "code",
    label: app.t("totpCode"),
    autocomplete: "one-time-code",
    inputmode: "numeric",
    required: true,
  });
}

/** Changing the email: a confirmation link goes to the new address. */
function emailSection(app: Dashboard): HTMLElement {
  const t = app.t;
  const email = fieldRow({
    name: "email",
    label: t("newEmail"),
    type: "email",
    autocomplete: "email",
    required: true,
  });
  const password = passwordRow(app);
  const status = h("p", {
    role: "status",
    "data-testid": "email-change-status",
  });
  const target = form("email-change", [email, password], t("changeEmail"));
  onSubmit(app, target, async function () {
    const missing = requireFilled(app, [email, password]);
    if (Object.keys(missing).length > 0) return showErrors(target, missing);
    const response = await app.api("POST", "/auth/email/change", {
      body: { email: email.input.value.trim(), password: password.input.value },
      auth: true,
    });
    password.input.value = "";
    if (response.ok) {
      showErrors(target, {});
      status.textContent = t("confirmNewEmail");
    } else refuse(app, target, response);
  });
  return section(t("changeEmail"), "email-section", target, status);
}

/** Two-factor sign-in: off → set up (QR code, code) → recovery codes; on → turn off. */
async function totpSection(app: Dashboard): Promise<HTMLElement> {
  const t = app.t;
  const body = h("div", {});
  const state = await app.api("GET", "/auth/totp", { auth: true });
  const enabled =
    (state.data as { enabled?: boolean } | null)?.enabled === true;
  const showOff = () => {
    const password = passwordRow(app);
    const start = form("totp-setup", [password], t("totpSetUp"));
    onSubmit(app, start, async function () {
      const missing = requireFilled(app, [password]);
      if (Object.keys(missing).length > 0) return showErrors(start, missing);
      const response = await app.api("POST", "/auth/totp/setup", {
        body: { password: password.input.value },
        auth: true,
      });
      if (response.status !== 200) return refuse(app, start, response);
      const { secret, otpauthUrl } = response.data as {
        secret: string;
        otpauthUrl: string;
      };
      showSetup(secret, otpauthUrl);
    });
    body.replaceChildren(
      h("p", { "data-testid": "totp-off" }, t("totpOff")),
      start,
    );
  };
  const showSetup = (secret: string, url: string) => {
    // Drawn in the page from the otpauth URL: the secret never leaves it.
    const svg = new DOMParser().parseFromString(qrSvg(url), "image/svg+xml")
      .documentElement;
    svg.setAttribute("width", "200");
    svg.setAttribute("height", "200");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", t("totpQr"));
    svg.setAttribute("data-testid", "totp-qr");
    svg.setAttribute("data-otpauth", url);
    const code = codeRow(app);
    const confirm = form("totp-enable", [code], t("totpEnable"));
    onSubmit(app, confirm, async function () {
      const missing = requireFilled(app, [code]);
      if (Object.keys(missing).length > 0) return showErrors(confirm, missing);
      const response = await app.api("POST", "/auth/totp/enable", {
        body: { code: code.input.value.trim() },
        auth: true,
      });
      if (response.status !== 200) return refuse(app, confirm, response);
      const codes =
        (response.data as { recoveryCodes: string[] }).recoveryCodes;
      body.replaceChildren(
        h("p", { role: "status", "data-testid": "totp-on" }, t("totpNowOn")),
        h("p", {}, t("recoveryCodesIntro")),
        h(
          "ul",
          { class: "recovery-codes", "data-testid": "recovery-codes" },
          codes.map((c) => h("li", {}, h("code", {}, c))),
        ),
      );
    });
    body.replaceChildren(
      h("p", {}, t("totpScan")),
      svg,
      h(
        "p",
        {},
        t("totpSecret"),
        " ",
        h("code", { "data-testid": "totp-secret" }, secret),
      ),
      confirm,
    );
  };
  const showOn = () => {
    const password = passwordRow(app);
    const code = codeRow(app);
    const stop = form("totp-disable", [password, code], t("totpDisable"));
    onSubmit(app, stop, async function () {
      const missing = requireFilled(app, [password, code]);
      if (Object.keys(missing).length > 0) return showErrors(stop, missing);
      const response = await app.api("POST", "/auth/totp/disable", {
        body: { password: password.input.value, code: code.input.value.trim() },
        auth: true,
      });
      if (response.status !== 200) return refuse(app, stop, response);
      showOff();
    });
    body.replaceChildren(
      h("p", { "data-testid": "totp-on" }, t("totpIsOn")),
      stop,
    );
  };
  if (enabled) showOn();
  else showOff();
  return section(t("totpTitle"), "totp-section", body);
}

interface TokenRecord {
  readonly UUID: string;
  readonly name: string;
  readonly expiresAt: number | null;
  readonly lastUsedAt: number | null;
}

/** API tokens: the list with revoke buttons, and a form that shows a new token once. */
async function tokensSection(app: Dashboard): Promise<HTMLElement> {
  const t = app.t;
  const list = h("ul", { class: "token-list", "data-testid": "token-list" });
  const shown = h("div", {});
  const when = (ms: number | null) =>
    ms === null ? "—" : new Date(ms).toLocaleString(app.state.language);
  const load = async () => {
    const response = await app.api("GET", "/collections/api-tokens", {
      query: { order: "[-createdAt]", limit: "100" },
      auth: true,
    });
    const tokens = response.status === 200
      ? response.data as TokenRecord[]
      : [];
    list.replaceChildren(
      ...tokens.map((token) =>
        h(
          "li",
          { "data-testid": "token-item" },
          h("strong", {}, token.name),
          " ",
          h(
            "span",
            { class: "hint" },
            t("tokenLastUsed", { when: when(token.lastUsedAt) }),
          ),
          " ",
          h("button", {
            type: "button",
            class: "button",
            "data-testid": "token-revoke",
            onclick: async () => {
              await app.api(
                "DELETE",
                "/collections/api-tokens/" + encodeURIComponent(token.UUID),
                { auth: true },
              );
              await load();
            },
          }, t("revoke")),
        )
      ),
    );
  };
  const name = fieldRow({
    name: "name",
    label: t("tokenName"),
    required: true,
  });
  const expires = fieldRow({
    name: "expiresIn",
    label: t("tokenExpiresIn"),
    placeholder: "30d",
  });
  const create = form("token-create", [name, expires], t("createToken"));
  onSubmit(app, create, async function () {
    const missing = requireFilled(app, [name]);
    if (Object.keys(missing).length > 0) return showErrors(create, missing);
    const expiresIn = expires.input.value.trim();
    const response = await app.api("POST", "/auth/tokens", {
      body: {
        name: name.input.value.trim(),
        ...(expiresIn ? { expiresIn } : {}),
      },
      auth: true,
    });
    if (!response.ok) return refuse(app, create, response);
    showErrors(create, {});
    name.input.value = "";
    expires.input.value = "";
    shown.replaceChildren(
      h("p", {}, t("tokenShownOnce")),
      h(
        "p",
        {},
        h(
          "code",
          { "data-testid": "new-token" },
          (response.data as { token: string }).token,
        ),
      ),
    );
    await load();
  });
  await load();
  return section(t("apiTokens"), "tokens-section", list, shown, create);
}

/** The security sections for the signed-in user. */
export async function securitySections(
  app: Dashboard,
  _user: User,
): Promise<HTMLElement[]> {
  return [
    emailSection(app),
    await totpSection(app),
    await tokensSection(app),
  ];
}
