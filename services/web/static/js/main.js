// /play: the lobby, an invite, or a game, by the page's address
// (?game=<id> to play or watch, ?game=<id>&seat=<n> for an invite, #rejoin=<game>.<code> to take
// your seat from another device; never a token), or a page of players in the fragment
// (#/players/<id>, #/replay/<game>, #/leaderboards, #/account, #/friends, #/events[/<id>[/boards/<n>]]); #link=<code> signs this device in.

import { attentionChanged, attentionFields } from "./attention.js";
import { fill, h } from "./dom.js";
import { Game } from "./game.js";
import { renderAccount } from "./account.js";
import { renderFriends } from "./friends.js";
import { renderEvents } from "./eventlist.js";
import { renderEvent } from "./eventpage.js";
import { renderScoresheet } from "./scoresheet.js";
import { renderInvite } from "./invite.js";
import { renderLobby } from "./lobby.js";
import { renderLeaderboards } from "./leaderboards.js";
import { renderProfile } from "./profile.js";
import { renderReplay } from "./replay.js";
import { fragmentPage, lobbyUrl, navigate, onRoute } from "./router.js";
import { LANGUAGES, language, pageLanguage, rememberLanguage, t, translatePage, useLanguage } from "./i18n.js";
import { identityFields } from "./identity.js";
import { passkeyFields } from "./passkeys.js";
import "./install.js"; // the service worker and the reconnecting state (install.js, network.js)
import { justUpdated, watchForUpdates } from "./release.js";
import { heldSeat } from "./seats.js";
import { openDialog } from "./dialog.js";
import { clearMessage, describeProblem, showMessage, showToast } from "./messages.js";
import { parseRejoin, redeemRejoin } from "./rejoin.js";
import { askSignIn, linkCodeIn } from "./signin.js";
import { applySettings, BACKGROUNDS, CARD_BACKS, loadSettings, PACE_NAMES, PACES, saveSettings } from "./settings.js";

/** {choice: its name} from {choice: catalogue key}. */
const named = (keys) => Object.fromEntries(Object.entries(keys).map(([k, key]) => [k, t(key)]));

function settingsForm(settings) {
  const select = (id, label, choices, value) =>
    h(
      "div.field",
      {},
      h("label", { for: id }, label),
      h("select", { id, dataset: { testid: id } }, Object.entries(choices).map(([k, name]) => h("option", { value: k, selected: k === value }, name))),
    );
  return h(
    "form.settings",
    {},
    h("h2.panel-title", {}, t("app.settings")),
    identityFields(),
    passkeyFields(),
    h(
      "div.field",
      {},
      h("label", { for: "language" }, t("app.language")),
      h("select", { id: "language", dataset: { testid: "language" } },
        Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, lang: code, selected: code === language() }, name))),
    ),
    select("background", t("app.background"), named(BACKGROUNDS), settings.background),
    select("cardBack", t("app.cardBack"), named(CARD_BACKS), settings.cardBack),
    select("pace", t("app.pace"), Object.fromEntries(Object.entries(PACE_NAMES).map(([k, key]) => [k, t(key, { seconds: PACES[k] / 1000 })])), settings.pace),
    attentionFields(settings),
    h("p.help", {}, t("app.settingsKept")),
  );
}

async function openSettings() {
  const form = settingsForm(loadSettings());
  form.addEventListener("change", (event) => {
    if (["sound", "notify"].includes(event.target.id)) return attentionChanged(form, event);
    if (event.target.id === "language") {
      rememberLanguage(event.target.value);
      const address = new URL(location.href);
      address.searchParams.delete("lang"); // the choice made here is the one kept
      location.replace(address); // every text again, in the chosen language
      return undefined;
    }
    saveSettings({
      ...loadSettings(),
      background: form.querySelector("#background").value,
      cardBack: form.querySelector("#cardBack").value,
      pace: form.querySelector("#pace").value,
    });
  });
  await openDialog(form, { testid: "settings", label: t("app.settings"), buttons: [{ label: t("app.close"), value: "close", primary: true }] });
}

let current = null; // the Game or the lobby on the page, if any: {stop()}

function route() {
  if (current) current.stop();
  current = null;
  const root = document.getElementById("app");
  const params = new URLSearchParams(location.search);
  const gameId = params.get("game");
  const seat = params.get("seat");
  document.getElementById("connection").replaceChildren();
  clearMessage(); // a message belongs to the page it was shown on
  const rejoin = parseRejoin(location.hash);
  if (rejoin) return rejoinSeat(root, rejoin);
  const link = linkCodeIn(location.hash);
  if (link) return signInByLink(root, link);
  const page = fragmentPage(location.hash);
  document.body.dataset.page = page ? page.page : gameId ? "game" : "lobby";
  if (page) {
    window.scrollTo(0, 0);
    if (page.page === "player") current = renderProfile(root, page.id);
    else if (page.page === "replay") current = renderReplay(root, page.gameId, page.seat);
    else if (page.page === "account") current = renderAccount(root);
    else if (page.page === "friends") current = renderFriends(root);
    else if (page.page === "events") current = renderEvents(root);
    else if (page.page === "event") current = renderEvent(root, page.id);
    else if (page.page === "board") current = renderScoresheet(root, page.id, page.board);
    else current = renderLeaderboards(root, page.board, page.kind);
    return current;
  }
  if (!gameId) {
    current = renderLobby(root); // {stop()}: the open tables' stream and a quick match's wait
    return current;
  }
  if (seat !== null && /^[0-3]$/.test(seat) && !heldSeat(gameId)) return renderInvite(root, gameId, Number(seat));
  current = new Game(root, gameId);
  return current.start();
}

/** A rejoin link (/play#rejoin=<game>.<code>): the seat's new token, then its game; the fragment goes. */
async function rejoinSeat(root, rejoin) {
  history.replaceState(null, "", lobbyUrl());
  fill(root, h("p.loading", {}, t("app.takingSeat")));
  try {
    navigate(await redeemRejoin(rejoin));
  } catch (problem) {
    current = renderLobby(root);
    showMessage(t("app.rejoinFailed", { why: describeProblem(problem) }));
  }
}

/** A link to sign this device in (/play#link=<code>): the lobby, and the sign-in asked to confirm; the
 * code leaves the address (and the history) at once. */
function signInByLink(root, code) {
  history.replaceState(null, "", lobbyUrl());
  document.body.dataset.page = "lobby";
  current = renderLobby(root);
  askSignIn({ code, fromLink: true });
  return current;
}

async function main() {
  await useLanguage(pageLanguage());
  translatePage();
  applySettings(loadSettings());
  document.getElementById("settings-button").addEventListener("click", openSettings);
  document.querySelector(".brand").addEventListener("click", (event) => {
    event.preventDefault();
    navigate(lobbyUrl());
  });
  onRoute(route);
  route();
  if (justUpdated()) showToast(t("update.taken"), "top");
  watchForUpdates();
}

main();
