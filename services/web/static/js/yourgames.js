// The lobby's "Your games": the games this browser holds a seat in (seats.js), live first, then finished
// (from the records once the live game is gone); and, for a signed-in player, "Your games in play" at the top
// of the lobby (on a phone too, before anything else): the player's games in play on any device
// (GET /v1/players/me/live-games), each with "Continue": to the game when this browser holds its seat, else
// the seat taken to this device first (seatfollow.js), the other device then watching.

import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { formatNumber, t } from "./i18n.js";
import { currentPlayer } from "./identity.js";
import { showProblem } from "./messages.js";
import { fetchRecord, recordView } from "./record.js";
import { followLink, gameUrl, navigate, replayUrl } from "./router.js";
import { forgetSeat, heldGames, heldSeat, markFinished } from "./seats.js";
import { seatName, sideOf } from "./seating.js";
import { takeSeatHere } from "./seatfollow.js";

/** The side panel, or null when this browser holds no seat. */
export function yourGamesPanel() {
  const held = heldGames().slice(0, 12);
  if (!held.length) return null;
  const live = h("ul.held", { dataset: { testid: "live-games" } });
  const done = h("ul.held", { dataset: { testid: "finished-games" } });
  const section = h(
    "section.your-games",
    { "aria-labelledby": "your-games-title", dataset: { testid: "your-games" } },
    h("h2", { id: "your-games-title" }, t("lobby.yourGames")),
    h("h3", {}, t("lobby.yourGames.live")),
    live,
    h("h3", {}, t("lobby.yourGames.finished")),
    done,
  );
  for (const g of held) heldItem(g, live, done);
  emptyNotes(live, done);
  return section;
}

/** "Your games in play" for a signed-in player (hidden until the list has a game); the side panel's items of
 * the same games go (this list says more: whose turn, "Continue"). */
export function liveGamesStrip() {
  const list = h("ul.live-games", {});
  const section = h(
    "section.panel.live-strip",
    { hidden: true, "aria-labelledby": "live-strip-title", dataset: { testid: "live-strip" } },
    h("h2", { id: "live-strip-title" }, t("lobby.yourGames.inPlay")),
    list,
  );
  const player = currentPlayer();
  if (!player) return section;
  api.liveGames(player.token).then(
    ({ games }) => {
      for (const g of games) {
        document.querySelector(`[data-held-game="${CSS.escape(g.game_id)}"]`)?.remove();
        list.append(liveItem(g));
      }
      section.hidden = !games.length;
      for (const side of document.querySelectorAll("[data-testid=live-games], [data-testid=finished-games]")) emptyNotes(side);
    },
    () => {}, // no list now (signed out elsewhere, the records down): the seats held here still show
  );
  return section;
}

/** A game of the player's: where it stands, and "Continue". */
export function liveItem(g) {
  const where = t("lobby.yourGames.playing", { seat: seatName(g.seat), round: g.round, scores: g.scores.map((n) => formatNumber(n)).join("–") });
  const note = g.stand_in ? t("lobby.yourGames.computerPlays") : g.phase !== "waiting" && g.turn === g.seat ? t("lobby.yourGames.yourTurn") : null;
  const label = t("lobby.yourGames.continueLabel", { seat: seatName(g.seat), game: g.game_id.slice(0, 6) });
  return h(
    "li.live-game",
    { dataset: { testid: "live-game", game: g.game_id } },
    h("span.live-where", {}, where, note ? h("strong.live-note", {}, ` · ${note}`) : null),
    " ",
    h("button.small.primary", { type: "button", "aria-label": label, dataset: { testid: "continue" }, onclick: (e) => continueGame(e.currentTarget, g) }, t("lobby.yourGames.continue")),
  );
}

async function continueGame(button, g) {
  const held = heldSeat(g.game_id);
  if (held && held.seat === g.seat && !g.stand_in) return navigate(gameUrl(g.game_id));
  button.disabled = true;
  try {
    await takeSeatHere(g.game_id, g.seat);
    navigate(gameUrl(g.game_id));
  } catch (problem) {
    showProblem(problem);
    button.disabled = false;
  }
}

/** A seat this browser holds: live (where it stands) or finished (won or lost, its replay), read now. */
function heldItem(g, live, done) {
  const item = h("li", { dataset: { heldGame: g.gameId } }, h("a", { href: gameUrl(g.gameId), onclick: (e) => follow(e, gameUrl(g.gameId)) }, t("lobby.yourGames.game", { seat: seatName(g.seat), game: g.gameId.slice(0, 6) })));
  (g.finished ? done : live).append(item);
  api.getGame(g.gameId, null).then(
    (view) => {
      if (view.phase === "game_over") {
        markFinished(g.gameId);
        fill(item.firstChild, outcome(view, g.seat));
        if (item.isConnected && item.parentElement !== done) done.append(item);
      } else {
        fill(item.firstChild, t("lobby.yourGames.playing", { seat: seatName(g.seat), round: view.round, scores: view.scores.map((n) => formatNumber(n)).join("–") }));
      }
      emptyNotes(live, done);
    },
    async (problem) => {
      if (problem.status !== 404) return;
      let record; // no longer live: the records keep it, or (null) never recorded it
      try {
        record = await fetchRecord(g.gameId);
      } catch {
        return; // the records can't answer now: the seat is kept and asked about on the next visit
      }
      if (record && record.outcome === "finished") {
        markFinished(g.gameId);
        fill(item.firstChild, outcome(recordView(record, g.seat), g.seat));
        if (record.rounds.length) item.append(" ", h("a.replay-link", { href: replayUrl(g.gameId, g.seat), onclick: followLink, "aria-label": t("lobby.yourGames.replayLabel", { seat: seatName(g.seat), game: g.gameId.slice(0, 6) }) }, t("lobby.yourGames.replay")));
        if (item.parentElement !== done) done.append(item);
      } else {
        forgetSeat(g.gameId); // expired, never recorded
        item.remove();
      }
      emptyNotes(live, done);
    },
  );
  return item;
}

function outcome(view, seat) {
  const won = (view.winner || []).includes(seat);
  const mine = view.scores[sideOf({ ...view, you: seat }, seat)];
  const best = Math.max(...view.scores.filter((_, side) => side !== sideOf({ ...view, you: seat }, seat)));
  return t(won ? "lobby.yourGames.won" : "lobby.yourGames.lost", { seat: seatName(seat), mine, best });
}

function emptyNotes(...lists) {
  for (const list of lists) {
    const items = [...list.children].filter((li) => !li.classList.contains("empty"));
    const note = list.querySelector(".empty");
    if (!items.length && !note) list.append(h("li.empty", {}, t("lobby.yourGames.none")));
    if (items.length && note) note.remove();
  }
}

function follow(event, url) {
  event.preventDefault();
  navigate(url);
}
