// Sign this browser in as a player that lives on another device: a link code (made there, under
// Account → Link another device, typed here or opened as /play#link=<code>) or one of the player's
// recovery codes, redeemed for a session of this device's own (POST /v1/sessions), which identity.js
// keeps as this browser's credential. A passkey is a third way, when js/passkeys.js is there: it
// exports signInWithPasskey({deviceName}), resolving to the same answer ({session, token, player}) or
// null when the person cancels; without that module the dialog shows no passkey button.

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { currentPlayer, isSession, keepPlayer } from "./identity.js";
import { describeProblem, showMessage } from "./messages.js";

export const LINK_CODE_LENGTH = 8; // characters, without dashes (services/api/players/credentials.py)
export const RECOVERY_CODE_LENGTH = 16;
const DEVICE_NAME_MAX = 60;

/** A code as typed, without spaces or dashes, in capitals (pure; the server reads O as 0, I and L as 1). */
export function compactCode(text) {
  return String(text || "").replace(/[\s-]+/g, "").toUpperCase();
}

/** Which code was typed, by its length (pure): "link_code" | "recovery_code" | null. */
export function codeKind(text) {
  const length = compactCode(text).length;
  if (length === LINK_CODE_LENGTH) return "link_code";
  if (length === RECOVERY_CODE_LENGTH) return "recovery_code";
  return null;
}

/** The link code a `#link=<code>` fragment carries, grouped XXXX-XXXX, or null (pure). */
export function linkCodeIn(hash) {
  const match = /^#link=([0-9A-Za-z-]{8,12})$/.exec(hash || "");
  if (!match || codeKind(match[1]) !== "link_code") return null;
  const code = compactCode(match[1]);
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

const BROWSERS = [
  [/EdgA?\//, "Edge"], [/OPR\/|Opera/, "Opera"], [/SamsungBrowser\//, "Samsung Internet"], [/Firefox\/|FxiOS\//, "Firefox"],
  [/CriOS\/|Chrome\/|Chromium\//, "Chrome"], [/Safari\//, "Safari"],
];
const SYSTEMS = [
  [/iPhone/, "iPhone"], [/iPad/, "iPad"], [/Android/, "Android"], [/CrOS/, "ChromeOS"], [/Windows/, "Windows"],
  [/Macintosh|Mac OS X/, "Mac"], [/Linux/, "Linux"],
];

/** {browser, system} a user-agent string names, either null when unknown (pure). */
export function deviceOf(userAgent) {
  const ua = String(userAgent || "");
  const first = (list) => (list.find(([pattern]) => pattern.test(ua)) || [null, null])[1];
  return { browser: first(BROWSERS), system: first(SYSTEMS) };
}

/** This device's name as the list of devices shows it, e.g. "Chrome on Android" (in the page's language). */
export function defaultDeviceName(userAgent = typeof navigator === "undefined" ? "" : navigator.userAgent) {
  const { browser, system } = deviceOf(userAgent);
  if (browser && system) return t("signin.deviceName", { browser, system });
  return browser || system || t("signin.deviceUnknown");
}

let passkeys = null; // js/passkeys.js once asked for: the module, or false when it is not there

function passkeyModule() {
  passkeys = passkeys || import("./passkeys.js").then((m) => (typeof m.signInWithPasskey === "function" ? m : false), () => false);
  return passkeys;
}

/**
 * The "Sign in on this device" dialog; `code` pre-filled (from a link, `fromLink`: the person is asked to
 * confirm). Resolves to the player signed in, or null when closed without signing in.
 */
export function askSignIn({ code = "", fromLink = false } = {}) {
  const held = currentPlayer();
  const input = h("input", {
    id: "signin-code", type: "text", value: code, autocomplete: "one-time-code", autocapitalize: "characters", spellcheck: "false",
    maxlength: "40", placeholder: "XXXX-XXXX", required: true, "aria-describedby": "signin-code-help signin-error", dataset: { testid: "signin-code" },
  });
  const device = h("input", {
    id: "signin-device", type: "text", value: defaultDeviceName(), maxlength: String(DEVICE_NAME_MAX), autocomplete: "off",
    "aria-describedby": "signin-device-help", dataset: { testid: "signin-device" },
  });
  const error = h("small.field-error", { id: "signin-error", role: "alert", dataset: { testid: "signin-error" } });
  const submit = h("button.primary", { type: "submit", dataset: { testid: "signin-submit" } }, t("signin.submit"));
  const cancel = h("button", { type: "button", dataset: { testid: "signin-cancel" } }, t("signin.cancel"));
  const passkeySlot = h("div.signin-passkey", { hidden: true, dataset: { testid: "signin-passkey-slot" } });
  const form = h(
    "form.signin-form",
    { novalidate: true },
    h("h2.panel-title", { id: "signin-title" }, t(fromLink ? "signin.confirmTitle" : "signin.title")),
    h("p.help.signin-lead", {}, t(fromLink ? "signin.fromLink" : "signin.help")),
    held ? h("p.signin-warning", { dataset: { testid: "signin-replaces" } }, t(isSession(held.token) ? "signin.replaces" : "signin.replacesOnly", { name: held.name })) : null,
    h(
      "div.field",
      {},
      h("label", { for: "signin-code" }, t("signin.code")),
      input,
      h("small.help", { id: "signin-code-help" }, t("signin.codeHelp")),
      error,
    ),
    h("div.field", {}, h("label", { for: "signin-device" }, t("signin.device")), device, h("small.help", { id: "signin-device-help" }, t("signin.deviceHelp"))),
    passkeySlot,
    h("div.modal-buttons", {}, cancel, submit),
  );
  const dialog = h("dialog.modal.signin-dialog", { "aria-labelledby": "signin-title", dataset: { testid: "signin-dialog" } }, h("div.modal-body", {}, form));
  document.body.append(dialog);
  dialog.showModal();
  (fromLink ? submit : input).focus();
  return new Promise((resolve) => {
    let result = null;
    const done = (answer) => {
      keepPlayer(answer.player, answer.token);
      result = currentPlayer();
      showMessage(t("signin.done", { name: answer.player.name }), "info");
      dialog.close();
    };
    passkeyModule().then((module) => {
      if (!module || !dialog.open) return;
      const button = h("button.passkey-button", { type: "button", dataset: { testid: "signin-passkey" } }, t("signin.passkey"));
      button.addEventListener("click", async () => {
        button.disabled = true;
        try {
          const answer = await module.signInWithPasskey({ deviceName: device.value.trim() || defaultDeviceName() });
          if (answer) done(answer);
        } catch (problem) {
          error.textContent = describeProblem(problem);
        } finally {
          button.disabled = false;
        }
      });
      passkeySlot.append(h("span.signin-or", {}, t("signin.or")), button);
      passkeySlot.hidden = false;
    });
    cancel.addEventListener("click", () => dialog.close());
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(result);
    });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      error.textContent = "";
      input.removeAttribute("aria-invalid");
      const kind = codeKind(input.value);
      if (!kind) {
        error.textContent = t(compactCode(input.value) ? "signin.codeLength" : "signin.codeEmpty");
        input.setAttribute("aria-invalid", "true");
        return input.focus();
      }
      submit.disabled = true;
      try {
        const name = device.value.normalize("NFC").trim();
        done(await api.signIn({ [kind]: input.value.trim(), ...(name ? { device_name: name } : {}) }));
      } catch (problem) {
        error.textContent = describeProblem(problem);
        input.setAttribute("aria-invalid", "true");
        input.focus();
      } finally {
        submit.disabled = false;
      }
    });
  });
}
