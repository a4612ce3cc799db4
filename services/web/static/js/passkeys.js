// Passkeys (WebAuthn): a signed-in browser adds one and lists or deletes them (Settings' "Passkeys"), and
// any browser signs in with one — `signInWithPasskey()`, which the sign-in dialog (signin.js) and Settings'
// "Sign in with a passkey" call. The server's options and the browser's answers travel as WebAuthn's JSON (binary
// values in base64url), converted here: no browser API newer than navigator.credentials is needed.

import { request } from "./api.js";
import { h } from "./dom.js";
import { formatDate, t } from "./i18n.js";
import { currentPlayer, keepPlayer } from "./identity.js";
import { describeProblem, showMessage, showToast } from "./messages.js";

/** Whether this browser can make and use passkeys at all (a secure page: https, or http://localhost). */
export function passkeysSupported() {
  return typeof window.PublicKeyCredential === "function" && Boolean(navigator.credentials) && window.isSecureContext;
}

/** base64url (no padding) -> bytes. */
export function fromBase64url(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** bytes (an ArrayBuffer or a view) -> base64url, no padding. */
export function toBase64url(bytes) {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes instanceof ArrayBuffer ? bytes : bytes.buffer);
  let text = "";
  for (const byte of view) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const descriptors = (list) => (list || []).map((c) => ({ ...c, id: fromBase64url(c.id) }));

/** The server's creation options (JSON) -> navigator.credentials.create's `publicKey`. */
export function creationOptions(json) {
  return { ...json, challenge: fromBase64url(json.challenge), user: { ...json.user, id: fromBase64url(json.user.id) }, excludeCredentials: descriptors(json.excludeCredentials) };
}

/** The server's request options (JSON) -> navigator.credentials.get's `publicKey`. */
export function requestOptions(json) {
  return { ...json, challenge: fromBase64url(json.challenge), allowCredentials: descriptors(json.allowCredentials) };
}

function answerJSON(credential, response) {
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response,
    authenticatorAttachment: credential.authenticatorAttachment || null,
    clientExtensionResults: credential.getClientExtensionResults ? credential.getClientExtensionResults() : {},
  };
}

/** A new credential (navigator.credentials.create's) as the JSON the server reads. */
export function registrationJSON(credential) {
  const r = credential.response;
  const transports = typeof r.getTransports === "function" ? r.getTransports() : [];
  return answerJSON(credential, { clientDataJSON: toBase64url(r.clientDataJSON), attestationObject: toBase64url(r.attestationObject), transports });
}

/** An assertion (navigator.credentials.get's) as the JSON the server reads. */
export function assertionJSON(credential) {
  const r = credential.response;
  return answerJSON(credential, {
    clientDataJSON: toBase64url(r.clientDataJSON),
    authenticatorData: toBase64url(r.authenticatorData),
    signature: toBase64url(r.signature),
    userHandle: r.userHandle ? toBase64url(r.userHandle) : null,
  });
}

/** A name for this device in the lists of sessions and passkeys: "Android", "iPhone", "Windows"… */
export function deviceName(agent = navigator.userAgent) {
  const known = [[/iPhone/, "iPhone"], [/iPad/, "iPad"], [/Android/, "Android"], [/CrOS/, "ChromeOS"], [/Mac OS X|Macintosh/, "Mac"], [/Windows/, "Windows"], [/Linux/, "Linux"]];
  const found = known.find(([pattern]) => pattern.test(agent));
  return found ? found[1] : "Browser";
}

/** The person closed the browser's passkey prompt (or it timed out): not an error to show. */
const cancelled = (error) => error && (error.name === "NotAllowedError" || error.name === "AbortError");

/**
 * Sign this browser in with a passkey: the server's options, the browser's prompt, a new session. Resolves to
 * the sign-in's answer ({session, token, player}: the caller keeps it, as the sign-in dialog keeps a code's),
 * or null when the person cancelled; rejects with the server's ApiProblem or the browser's error.
 */
export async function signInWithPasskey({ deviceName: name = deviceName() } = {}) {
  const { body: made } = await request("POST", "/v1/sessions/passkey-options", { body: {} });
  let credential;
  try {
    credential = await navigator.credentials.get({ publicKey: requestOptions(made.options) });
  } catch (error) {
    if (cancelled(error)) return null;
    throw error;
  }
  if (!credential) return null;
  const { body } = await request("POST", "/v1/sessions", { body: { passkey: assertionJSON(credential), device_name: name } });
  return body;
}

/** Add a passkey for this browser's player. Resolves to the passkey, or null when the person cancelled. */
export async function addPasskey(token, name = deviceName()) {
  const { body: made } = await request("POST", "/v1/players/me/passkey-options", { playerToken: token, body: {} });
  let credential;
  try {
    credential = await navigator.credentials.create({ publicKey: creationOptions(made.options) });
  } catch (error) {
    if (cancelled(error)) return null;
    if (error.name === "InvalidStateError") throw Object.assign(new Error(t("passkeys.already")), { code: "passkey_registered" });
    throw error;
  }
  if (!credential) return null;
  const { body } = await request("POST", "/v1/players/me/passkeys", { playerToken: token, body: { credential: registrationJSON(credential), name } });
  return body;
}

const explain = (error) => (error && error.code === "passkey_registered" ? t("passkeys.already") : error && error.status !== undefined ? describeProblem(error) : t("passkeys.failed"));

/** The lobby's "Sign in with a passkey" (shown while this browser plays without a name). */
export function passkeySignInButton() {
  if (!passkeysSupported()) return null;
  const button = h("button.small", { type: "button", dataset: { testid: "passkey-sign-in" } }, t("passkeys.signIn"));
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const answer = await signInWithPasskey();
      if (!answer) return;
      keepPlayer(answer.player, answer.token);
      showMessage(t("passkeys.signedIn", { name: answer.player.name }), "info");
    } catch (error) {
      showMessage(explain(error), "error");
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

/** Settings' "Passkeys": this player's passkeys, each with Delete, and "Add a passkey". */
export function passkeyFields() {
  const section = h("fieldset.identity-fields.passkey-fields", { dataset: { testid: "settings-passkeys" } });
  const status = h("p.passkey-status", { role: "status", dataset: { testid: "passkey-status" } });
  const draw = async () => {
    const player = currentPlayer();
    const head = [h("legend", {}, t("passkeys.title")), h("p.help", {}, t("passkeys.help"))];
    if (!passkeysSupported()) return section.replaceChildren(...head, h("p.help", {}, t("passkeys.unsupported")));
    if (!player) return section.replaceChildren(...head, h("p.help", {}, t("passkeys.noName")), passkeySignInButton());
    let listed = [];
    try {
      listed = (await request("GET", "/v1/players/me/passkeys", { playerToken: player.token })).body.passkeys;
    } catch (problem) {
      status.textContent = describeProblem(problem);
    }
    const add = h("button.primary", { type: "button", dataset: { testid: "passkey-add" } }, t("passkeys.add"));
    add.addEventListener("click", async () => {
      add.disabled = true;
      status.textContent = "";
      try {
        const made = await addPasskey(player.token);
        if (made) showToast(t("passkeys.added", { name: made.name }), "top");
        if (made) await draw();
      } catch (error) {
        status.textContent = explain(error);
      } finally {
        add.disabled = false;
      }
    });
    section.replaceChildren(...head, passkeyList(listed, player, draw, status), status, h("div.passkey-actions", {}, add));
    return undefined;
  };
  draw();
  return section;
}

function passkeyList(listed, player, redraw, status) {
  if (!listed.length) return h("p.passkey-none", { dataset: { testid: "passkey-none" } }, t("passkeys.none"));
  return h(
    "ul.passkey-list",
    { dataset: { testid: "passkey-list" } },
    listed.map((passkey) => {
      const remove = h("button.small", { type: "button", "aria-label": t("passkeys.deleteNamed", { name: passkey.name }), dataset: { testid: "passkey-delete" } }, t("passkeys.delete"));
      remove.addEventListener("click", async () => {
        remove.disabled = true;
        try {
          await request("DELETE", `/v1/players/me/passkeys/${encodeURIComponent(passkey.id)}`, { playerToken: player.token });
          showToast(t("passkeys.deleted", { name: passkey.name }), "top");
          await redraw();
        } catch (problem) {
          status.textContent = describeProblem(problem);
          remove.disabled = false;
        }
      });
      const used = passkey.last_used_at ? t("passkeys.lastUsed", { date: formatDate(passkey.last_used_at) }) : t("passkeys.neverUsed");
      return h(
        "li.passkey",
        { dataset: { testid: "passkey" } },
        h("span.passkey-text", {}, h("strong.passkey-name", {}, passkey.name), h("small.passkey-when", {}, `${t("passkeys.addedOn", { date: formatDate(passkey.created_at) })} · ${used}`)),
        remove,
      );
    }),
  );
}
