// /play: the lobby, an invite, or a game, by the page's address
// (?game=<id> to play or watch, ?game=<id>&seat=<n> for an invite; never a token).

import { h } from "./dom.js";
import { Game } from "./game.js";
import { renderInvite, renderLobby } from "./lobby.js";
import { lobbyUrl, navigate, onRoute } from "./router.js";
import { heldSeat } from "./seats.js";
import { openDialog } from "./dialog.js";
import { clearMessage } from "./messages.js";
import { applySettings, BACKGROUNDS, CARD_BACKS, loadSettings, PACES, saveSettings } from "./settings.js";

function settingsForm(settings) {
  const select = (id, label, choices, value) =>
    h(
      "div.field",
      {},
      h("label", { for: id }, label),
      h("select", { id, dataset: { testid: id } }, Object.entries(choices).map(([k, v]) => h("option", { value: k, selected: k === value }, typeof v === "number" ? `${k[0].toUpperCase()}${k.slice(1)} (${v / 1000} s between moves)` : v))),
    );
  return h(
    "form.settings",
    {},
    h("h2.panel-title", {}, "Settings"),
    select("background", "Table background", BACKGROUNDS, settings.background),
    select("cardBack", "Card back colour", CARD_BACKS, settings.cardBack),
    select("pace", "Computer speed", PACES, settings.pace),
    h("p.help", {}, "Kept in this browser."),
  );
}

async function openSettings() {
  const form = settingsForm(loadSettings());
  form.addEventListener("change", () => {
    saveSettings({
      background: form.querySelector("#background").value,
      cardBack: form.querySelector("#cardBack").value,
      pace: form.querySelector("#pace").value,
    });
  });
  await openDialog(form, { testid: "settings", label: "Settings" });
}

let current = null; // the Game on the page, if any

function route() {
  if (current) current.stop();
  current = null;
  const root = document.getElementById("app");
  const params = new URLSearchParams(location.search);
  const gameId = params.get("game");
  const seat = params.get("seat");
  document.getElementById("connection").replaceChildren();
  clearMessage(); // a message belongs to the page it was shown on
  if (!gameId) return renderLobby(root);
  if (seat !== null && /^[0-3]$/.test(seat) && !heldSeat(gameId)) return renderInvite(root, gameId, Number(seat));
  current = new Game(root, gameId);
  return current.start();
}

function main() {
  applySettings(loadSettings());
  document.getElementById("settings-button").addEventListener("click", openSettings);
  document.querySelector(".brand").addEventListener("click", (event) => {
    event.preventDefault();
    navigate(lobbyUrl());
  });
  onRoute(route);
  route();
}

main();
