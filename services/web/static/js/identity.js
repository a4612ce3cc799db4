// A name that lasts: the player this browser plays as (POST /v1/players once, the first time the
// person wants a name), kept in localStorage as {id, name, kind, token}. The token is sent only in
// the Player-Token header — on a new game (its "You" seat marked `player: true`), a claimed seat, a
// quick match and a rematch — so those seats are this player's in the game and in its record.
// Playing without a name stays possible: nothing here is ever required.
// Another device signs in as the same player with a code (signin.js): it keeps a session credential
// (`sps_…`) in the same place, sent in the same header; the first device keeps the player token
// (`spt_…`), which never leaves it. A credential the server refuses (a session signed out from
// another device, a player deleted) is forgotten wherever the refusal comes from, and said once.

import { api, onCredentialRefused } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { forgetViews } from "./lastview.js";
import { describeProblem, showMessage } from "./messages.js";
import { tParts } from "./playertext.js";
import { accountUrl, eventsUrl, followLink, friendsUrl, leaderboardsUrl, profileUrl } from "./router.js";
import { askSignIn } from "./signin.js";

const KEY = "spades.player";
export const NAME_MIN = 2; // a display name's length (the server has the last word)
export const NAME_MAX = 24;

/** {id, name, kind, token} of this browser's player, or null. */
export function currentPlayer() {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY));
    return stored && typeof stored.id === "string" && typeof stored.token === "string" ? stored : null;
  } catch {
    return null;
  }
}

export function playerToken() {
  const player = currentPlayer();
  return player ? player.token : null;
}

/** Keep `player` and its credential (a player token, or this device's session) as this browser's. */
export function keepPlayer(player, token) {
  localStorage.setItem(KEY, JSON.stringify({ id: player.id, name: player.name, kind: player.kind, token }));
  document.dispatchEvent(new CustomEvent("spades:player", { detail: currentPlayer() }));
}

/** This device signs out (or its credential was refused): the player goes, and the tables kept for an
 * offline start with it (lastview.js). */
export function forgetPlayer() {
  localStorage.removeItem(KEY);
  forgetViews();
  document.dispatchEvent(new CustomEvent("spades:player", { detail: null }));
}

/** Whether a credential is a device's session (signed in with a code), not the player token itself. */
export function isSession(token) {
  return typeof token === "string" && token.startsWith("sps_");
}

/** A token the server no longer knows (a session signed out, a token rotated elsewhere, the player deleted). */
export function isDeadToken(problem) {
  return Boolean(problem) && ["player_token_invalid", "session_revoked"].includes(problem.code);
}

/** What to say when the server refuses this browser's credential (pure): the catalogue's key. */
export function refusedMessage(code, token) {
  if (code === "session_revoked") return "players.signedOut";
  return isSession(token) ? "players.sessionGone" : "players.forgotten";
}

// Any call that sent this browser's credential and had it refused: forget it and say so, once (the next
// call sends none, so nothing is said twice).
onCredentialRefused(({ playerToken: refused, code }) => {
  if (refused !== playerToken()) return;
  forgetPlayer();
  showMessage(t(refusedMessage(code, refused)), "info");
});

/**
 * `call(playerToken)` with this browser's player token; when the server no longer knows it, the
 * player is forgotten (said once, above) and the call made again without a name, so a game still starts.
 */
export async function withPlayer(call) {
  const token = playerToken();
  try {
    return await call(token);
  } catch (problem) {
    if (!token || !isDeadToken(problem)) throw problem;
    return call(null);
  }
}

/** Read our player again (a rename on another device; a deleted player forgotten). */
export async function refreshPlayer() {
  const held = currentPlayer();
  if (!held) return null;
  try {
    const me = await api.me(held.token);
    if (me.name !== held.name) keepPlayer(me, held.token);
    return currentPlayer();
  } catch {
    return currentPlayer(); // a refused credential is forgotten (and said) as every call's is
  }
}

// Why the server refused a name (its `errors[].message`, in English only) -> the catalogue's words
const NAME_REASONS = [
  [/characters long|too long/, "players.name.length"],
  [/invisible|control/, "players.name.invisible"],
  [/variation selector/, "players.name.selector"],
  [/combining marks/, "players.name.marks"],
  [/repeat a combining mark/, "players.name.hidden"],
  [/different scripts/, "players.name.scripts"],
  [/number systems/, "players.name.digits"],
  [/letter or a digit/, "players.name.letter"],
  [/computer level/, "players.name.level"],
];

/** A name refused by the server, in the page's language, for the box. */
export function nameError(problem) {
  if (problem.code === "name_taken") return t("players.name.taken");
  if (problem.errors && problem.errors.length) {
    const said = String(problem.errors[0].message || "");
    const known = NAME_REASONS.find(([pattern]) => pattern.test(said));
    return t(known ? known[1] : "players.name.refused", { min: NAME_MIN, max: NAME_MAX });
  }
  if (problem.status === 429) return t("players.name.busy");
  return describeProblem(problem);
}

/**
 * The "Your name" dialog: choose a name (a new player) or change it (rename). Resolves to the
 * player, or null when closed without one ("Not now": play on without a name).
 */
export function askName({ rename = false } = {}) {
  const held = currentPlayer();
  const input = h("input", {
    id: "player-name", type: "text", autocomplete: "nickname", maxlength: String(NAME_MAX), required: true,
    value: rename && held ? held.name : "", "aria-describedby": "player-name-help player-name-error", dataset: { testid: "player-name" },
  });
  const error = h("small.field-error", { id: "player-name-error", role: "alert", dataset: { testid: "player-name-error" } });
  const save = h("button.primary", { type: "submit", dataset: { testid: "player-name-save" } }, t(rename ? "players.name.change" : "players.name.save"));
  const cancel = h("button", { type: "button", dataset: { testid: "player-name-cancel" } }, t(rename ? "players.name.cancel" : "players.name.notNow"));
  const form = h(
    "form.name-form",
    { novalidate: true },
    h("h2.panel-title", { id: "player-name-title" }, t(rename ? "players.name.changeTitle" : "players.name.title")),
    h(
      "p.help", { id: "player-name-help" },
      t(rename ? "players.name.changeHelp" : "players.name.help"),
    ),
    h("div.field.name-field", {}, h("label", { for: "player-name" }, t("players.name.label")), input, error),
    h("div.modal-buttons", {}, cancel, save),
  );
  const dialog = h("dialog.modal.name-dialog", { "aria-labelledby": "player-name-title", dataset: { testid: "name-dialog" } }, h("div.modal-body", {}, form));
  document.body.append(dialog);
  dialog.showModal();
  input.focus();
  return new Promise((resolve) => {
    let result = null;
    cancel.addEventListener("click", () => dialog.close());
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(result);
    });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const name = input.value.normalize("NFC").trim();
      error.textContent = "";
      input.removeAttribute("aria-invalid");
      if (!name) {
        error.textContent = t("players.name.empty");
        input.setAttribute("aria-invalid", "true");
        return input.focus();
      }
      save.disabled = true;
      try {
        result = rename && held ? await renamed(held, name) : await created(name);
        dialog.close();
      } catch (problem) {
        error.textContent = nameError(problem);
        input.setAttribute("aria-invalid", "true");
        input.focus();
      } finally {
        save.disabled = false;
      }
    });
  });
}

async function created(name) {
  const made = await api.createPlayer(name, "person");
  keepPlayer(made.player, made.token);
  return currentPlayer();
}

async function renamed(held, name) {
  const player = await api.rename(held.token, name); // a refused credential is forgotten (and said) as every call's is
  keepPlayer(player, held.token);
  return currentPlayer();
}

/**
 * The lobby's strip: "Playing as Ada · Your profile · Account · Friends · Leaderboards · Events", or "Playing without a name"
 * with "Choose a name" and "Sign in" (a link code, a recovery code or a passkey: a player made elsewhere).
 * Redrawn when the player changes.
 */
export function identityStrip() {
  const strip = h("section.identity", { "aria-label": t("players.name.title"), dataset: { testid: "identity" } });
  const link = (href, text, testid) => h("a.identity-link", { href, dataset: { testid }, onclick: followLink }, text);
  const draw = () => {
    const player = currentPlayer();
    strip.replaceChildren(
      h("span.identity-avatar", { "aria-hidden": "true" }, player ? initials(player.name) : "?"),
      player
        ? h("span.identity-who", {}, tParts("players.identity.playingAs", {}, { name: h("strong", { dataset: { testid: "identity-name" } }, player.name) }))
        : h("span.identity-who", {}, t("players.identity.noName")),
      h(
        "span.identity-actions",
        {},
        player
          ? [link(profileUrl(player.id), t("players.identity.profile"), "profile-link"), link(accountUrl(), t("players.identity.account"), "account-link")]
          : [
              h("button.small.primary", { type: "button", dataset: { testid: "choose-name" }, onclick: () => askName() }, t("players.name.choose")),
              h("button.small", { type: "button", dataset: { testid: "sign-in" }, onclick: () => askSignIn() }, t("players.identity.signIn")),
            ],
        player ? link(friendsUrl(), t("friends.title"), "friends-link") : null,
        link(leaderboardsUrl(), t("players.leaderboards"), "leaderboards-link"),
        link(eventsUrl(), t("events.title"), "events-link"),
      ),
    );
  };
  draw();
  const onChange = () => (strip.isConnected ? draw() : document.removeEventListener("spades:player", onChange));
  document.addEventListener("spades:player", onChange);
  refreshPlayer(); // a rename elsewhere shows; a dead token is forgotten (both redraw through the event)
  return strip;
}

/** "Ada Lovelace" -> "AL", "ada" -> "A": the avatar's letters. */
export function initials(name) {
  const words = String(name).trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : words;
  return letters.map((w) => Array.from(w)[0].toUpperCase()).join("") || "?";
}

/** Settings' "Your name": the name and "Change name", or "Choose a name"; drawn again after either. */
export function identityFields() {
  const section = h("fieldset.identity-fields", { dataset: { testid: "settings-identity" } });
  const draw = () => {
    const player = currentPlayer();
    section.replaceChildren(
      h("legend", {}, t("players.name.title")),
      player
        ? h("p.identity-current", {}, tParts("players.identity.youPlayAs", {}, { name: h("strong", { dataset: { testid: "settings-name" } }, player.name) }))
        : h("p.identity-current", {}, t("players.identity.settingsNoName")),
      h(
        "button",
        { type: "button", dataset: { testid: player ? "rename" : "settings-choose-name" }, onclick: async () => (await askName({ rename: Boolean(player) })) && draw() },
        t(player ? "players.name.change" : "players.name.choose"),
      ),
    );
  };
  draw();
  return section;
}
