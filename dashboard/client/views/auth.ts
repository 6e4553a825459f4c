/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
// The install page (the first administrator account) and the sign-in page.
import { h } from "../dom.ts";
import type { Dashboard, View } from "../context.ts";
import type { User } from "../types.ts";
import { fieldErrors } from "../values.ts";
import {
  card,
  credentialRows,
  fieldRow,
  formAlert,
  isChecked,
  onSubmit,
  requireFilled,
  showErrors,
} from "../forms.ts";

/** `/dashboard/install`: create the first administrator account. */
export async function viewInstall(
  app: Dashboard,
  _route: unknown,
  current: () => boolean,
): Promise<View | null> {
  const t = app.t;
  if (!(await app.installRequired())) {
    if (current()) app.navigate(app.root + "/sign-in", { replace: true });
    return null;
  }
  const { email, password } = credentialRows(t, "new-password");
  const form = h(
    "form",
    { class: "form", "data-testid": "install-form" },
    email.element,
    password.element,
    formAlert(),
    h(
      "div",
      { class: "actions" },
      h("button", {
        type: "submit",
        class: "button button-primary",
        "data-testid": "install-submit",
      }, t("installSubmit")),
    ),
  );
  onSubmit(app, form, async function () {
    const missing = requireFilled(app, [email, password]);
    if (Object.keys(missing).length > 0) return showErrors(form, missing);
    const response = await app.api("POST", "/auth/install", {
      body: {
        email: email.input.value.trim(),
        password: password.input.value,
      },
    });
    if (response.status === 200) {
      app.state.user = response.data as User;
      app.state.collections = null;
      app.navigate(app.root);
    } else if (response.status === 403) {
      app.navigate(app.root + "/sign-in", { replace: true });
    } else {
      showErrors(
        form,
        fieldErrors(response.data),
        response.status === 422 ? "" : app.errorText(response),
      );
    }
  });
  return {
    title: t("installTitle"),
    content: card(t("installTitle"), t("installIntro"), form),
  };
}

/** `/dashboard/sign-in`. */
export async function viewSignIn(app: Dashboard): Promise<View | null> {
  const t = app.t;
  if (app.state.user) {
    app.navigate(app.root, { replace: true });
    return null;
  }
  if (await app.installRequired()) {
    app.navigate(app.root + "/install", { replace: true });
    return null;
  }
  const { email, password } = credentialRows(t, "current-password");
  const remember = fieldRow({
    name: "remember",
    label: t("rememberMe"),
    control: "checkbox",
  });
  // Shown once the server asks for the second factor (two-factor sign-in).
  const code = fieldRow({
    name: "totp",
    label: t("totpCode"),
    autocomplete: "one-time-code",
    inputmode: "numeric",
    hint: t("totpCodeHint"),
  });
  code.element.hidden = true;
  const form = h(
    "form",
    { class: "form", "data-testid": "sign-in-form" },
    email.element,
    password.element,
    code.element,
    remember.element,
    formAlert(),
    h(
      "div",
      { class: "actions" },
      h("button", {
        type: "submit",
        class: "button button-primary",
        "data-testid": "sign-in-submit",
      }, t("signIn")),
    ),
  );
  onSubmit(app, form, async function () {
    const missing = requireFilled(app, [email, password]);
    if (Object.keys(missing).length > 0) return showErrors(form, missing);
    const second = code.input.value.trim();
    const response = await app.api("POST", "/auth/login", {
      body: {
        email: email.input.value.trim(),
        password: password.input.value,
        remember: isChecked(remember),
        ...(code.element.hidden || second === ""
          ? {}
          : /^\d{6}$/.test(second)
          ? { totp: second }
          : { recoveryCode: second }),
      },
    });
    const errorCode = (response.data as { data?: { code?: string } } | null)
      ?.data?.code;
    if (response.status === 401 && errorCode === "totpRequired") {
      code.element.hidden = false;
      showErrors(form, {}, t("totpNeeded"));
      code.input.focus();
      return;
    }
    if (response.status === 403 && errorCode === "emailNotVerified") {
      showErrors(form, {}, app.errorText(response));
      const address = email.input.value.trim();
      const resend: HTMLButtonElement = h("button", {
        type: "button",
        class: "button",
        "data-testid": "resend-verification",
        onclick: async function () {
          resend.disabled = true;
          await app.api("POST", "/auth/verify/request", {
            body: { email: address },
          });
          resend.replaceWith(
            h(
              "p",
              { role: "status", "data-testid": "verification-sent" },
              t("checkYourMail"),
            ),
          );
        },
      }, t("resendVerification"));
      form.querySelector(".form-alert")?.append(resend);
      return;
    }
    if (response.status === 200 && response.data) {
      // The session cookie is Secure: a browser on plain HTTP (localhost excepted) drops it,
      // and the next request would arrive signed out.
      const check = await app.tryApi("GET", "/auth/me");
      if (!check || check.status === 401) {
        showErrors(form, {}, t("cookieRefused"));
        return;
      }
      app.state.user = response.data as User;
      app.state.collections = null;
      app.navigate(nextPage(app));
    } else {
      if (errorCode !== "invalidTotp") password.input.value = "";
      code.input.value = "";
      showErrors(
        form,
        fieldErrors(response.data),
        response.status === 422 ? "" : app.errorText(response),
      );
    }
  });
  // The session cookie is Secure: a browser drops it on plain HTTP (localhost excepted),
  // and the sign-in would seem to bounce for no reason.
  const insecure = globalThis.isSecureContext === false
    ? h("p", {
      class: "alert alert-error",
      role: "alert",
      "data-testid": "insecure-context",
    }, t("insecureContext"))
    : null;
  const signup = await app.tryApi("GET", "/auth/signup");
  const links = h(
    "p",
    { class: "links" },
    h(
      "a",
      { href: app.root + "/forgot", "data-testid": "to-forgot" },
      t("forgotPassword"),
    ),
    signup && signup.status === 200
      ? [
        " · ",
        h(
          "a",
          { href: app.root + "/sign-up", "data-testid": "to-sign-up" },
          t("signUp"),
        ),
      ]
      : null,
  );
  return {
    title: t("signIn"),
    content: card(
      t("signIn"),
      null,
      insecure ? [insecure, form, links] : [form, links],
    ),
  };
}

// The dashboard page sign-in was asked for (`?next=`), else the dashboard's home; never a
// page outside the dashboard.
function nextPage(app: Dashboard): string {
  const next = new URLSearchParams(location.search).get("next") || "";
  return next.startsWith(app.root + "/") && !next.startsWith("//") &&
      !next.includes("\\")
    ? next
    : app.root;
}
