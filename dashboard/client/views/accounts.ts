/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
// The signed-out account pages: sign-up (when the app turns it on), forgot password, reset
// password, and the landing pages of the verification and email-change links.
import { h } from "../dom.ts";
import type { Dashboard, View } from "../context.ts";
import type { User } from "../types.ts";
import { fieldErrors } from "../values.ts";
import {
  card,
  credentialRows,
  fieldRow,
  formAlert,
  onSubmit,
  requireFilled,
  showErrors,
} from "../forms.ts";

function submitButton(label: string, testid: string): HTMLElement {
  return h(
    "div",
    { class: "actions" },
    h("button", {
      type: "submit",
      class: "button button-primary",
      "data-testid": testid,
    }, label),
  );
}

function notice(text: string, testid: string): HTMLElement {
  return h("p", {
    class: "alert alert-success",
    role: "status",
    "data-testid": testid,
  }, text);
}

function signInLink(app: Dashboard): HTMLElement {
  return h(
    "p",
    { class: "links" },
    h(
      "a",
      { href: app.root + "/sign-in", "data-testid": "to-sign-in" },
      app.t("signIn"),
    ),
  );
}

/** The token of a mailed link (`?token=`). */
function linkToken(): string {
  return new URLSearchParams(location.search).get("token") || "";
}

/** `/dashboard/sign-up`: only when the app turns sign-up on. */
export async function viewSignUp(app: Dashboard): Promise<View | null> {
  const t = app.t;
  const status = await app.tryApi("GET", "/auth/signup");
  if (!status || status.status !== 200) {
    app.navigate(app.root + "/sign-in", { replace: true });
    return null;
  }
  const requireVerified =
    (status.data as { requireVerifiedEmail?: boolean }).requireVerifiedEmail ===
      true;
  const { email, password } = credentialRows(t, "new-password");
  const done = h("div", {});
  const form = h(
    "form",
    { class: "form", "data-testid": "sign-up-form" },
    email.element,
    password.element,
    formAlert(),
    submitButton(t("signUp"), "sign-up-submit"),
  );
  onSubmit(app, form, async function () {
    const missing = requireFilled(app, [email, password]);
    if (Object.keys(missing).length > 0) return showErrors(form, missing);
    const response = await app.api("POST", "/auth/signup", {
      body: { email: email.input.value.trim(), password: password.input.value },
    });
    // The client answers every success alike: the body tells the modes apart (the user and
    // a session, or { ok } and a mail when the address must be verified first).
    if (response.ok && (response.data as { ok?: boolean }).ok === true) {
      form.hidden = true;
      done.replaceChildren(notice(t("checkYourMail"), "sign-up-done"));
    } else if (response.ok) {
      app.state.user = response.data as User;
      app.state.collections = null;
      app.navigate(app.root);
    } else {
      showErrors(
        form,
        fieldErrors(response.data),
        response.status === 422 ? "" : app.errorText(response),
      );
    }
  });
  return {
    title: t("signUp"),
    content: card(
      t("signUp"),
      requireVerified ? t("signUpVerifyIntro") : null,
      [form, done, signInLink(app)],
    ),
  };
}

/**
 * A one-field form that posts to `path` and, once answered 200, gives way to a notice; a 422
 * shows beside the field, anything else above it.
 */
function oneFieldForm(
  app: Dashboard,
  options: {
    row: ReturnType<typeof fieldRow>;
    testid: string;
    submit: string;
    path: string;
    body: () => Record<string, unknown>;
    doneText: string;
  },
): { form: HTMLFormElement; done: HTMLDivElement } {
  const { row, testid } = options;
  const done = h("div", {});
  const form = h(
    "form",
    { class: "form", "data-testid": testid + "-form" },
    row.element,
    formAlert(),
    submitButton(options.submit, testid + "-submit"),
  );
  onSubmit(app, form, async function () {
    const missing = requireFilled(app, [row]);
    if (Object.keys(missing).length > 0) return showErrors(form, missing);
    const response = await app.api("POST", options.path, {
      body: options.body(),
    });
    if (response.status === 200) {
      form.hidden = true;
      done.replaceChildren(notice(options.doneText, testid + "-done"));
    } else {
      showErrors(
        form,
        fieldErrors(response.data),
        response.status === 422 ? "" : app.errorText(response),
      );
    }
  });
  return { form, done };
}

/** `/dashboard/forgot`: asks for a reset link. */
export function viewForgot(app: Dashboard): Promise<View | null> {
  const t = app.t;
  const email = fieldRow({
    name: "email",
    label: t("email"),
    type: "email",
    autocomplete: "username",
    required: true,
  });
  const { form, done } = oneFieldForm(app, {
    row: email,
    testid: "forgot",
    submit: t("sendResetLink"),
    path: "/auth/password/forgot",
    body: () => ({ email: email.input.value.trim() }),
    doneText: t("resetLinkSent"),
  });
  return Promise.resolve({
    title: t("forgotPassword"),
    content: card(t("forgotPassword"), t("forgotIntro"), [
      form,
      done,
      signInLink(app),
    ]),
  });
}

/** `/dashboard/reset?token=…`: a new password. */
export function viewReset(app: Dashboard): Promise<View | null> {
  const t = app.t;
  const password = fieldRow({
    name: "password",
    label: t("newPassword"),
    type: "password",
    autocomplete: "new-password",
    required: true,
  });
  const { form, done } = oneFieldForm(app, {
    row: password,
    testid: "reset",
    submit: t("setPassword"),
    path: "/auth/password/reset",
    body: () => ({ token: linkToken(), password: password.input.value }),
    doneText: t("passwordReset"),
  });
  return Promise.resolve({
    title: t("setPassword"),
    content: card(t("setPassword"), null, [form, done, signInLink(app)]),
  });
}

/** A landing page that posts the link's token once and tells how it went. */
async function landing(
  app: Dashboard,
  path: string,
  title: string,
  success: string,
  testid: string,
): Promise<View> {
  const response = await app.api("POST", path, {
    body: { token: linkToken() },
  });
  const ok = response.status === 200;
  if (ok && path === "/auth/email/confirm" && app.state.user) {
    app.state.user = response.data as User;
  }
  return {
    title,
    content: card(title, null, [
      ok ? notice(success, testid) : h("p", {
        class: "alert alert-error",
        role: "alert",
        "data-testid": testid + "-failed",
      }, app.errorText(response)),
      signInLink(app),
    ]),
  };
}

/** `/dashboard/verify?token=…`: confirms the address. */
export function viewVerify(app: Dashboard): Promise<View | null> {
  return landing(
    app,
    "/auth/verify",
    app.t("verifyTitle"),
    app.t("emailVerified"),
    "verify-done",
  );
}

/** `/dashboard/email?token=…`: applies an email change. */
export function viewEmailConfirm(app: Dashboard): Promise<View | null> {
  return landing(
    app,
    "/auth/email/confirm",
    app.t("emailChangeTitle"),
    app.t("emailChanged"),
    "email-done",
  );
}
