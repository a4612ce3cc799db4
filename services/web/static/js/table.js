// The table: the scoreboard and the turn line on top, the felt (seats, trick, and the panel of the
// moment drawn over it: bidding, invites, the last trick, the game's end), your hand pinned to the
// bottom. A pure render of (view, ui state) into elements; game.js owns the state and the calls.
// The layout fills the window without scrolling (play.css).

import { renderBidding } from "./bidding.js";
import { faceDownHand, isBlindDecision, renderBlindDecision } from "./blind.js";
import { cardLabel } from "./cards.js";
import { h } from "./dom.js";
import { cardFace, seatPanel, trickArea } from "./felt.js";
import { handArea } from "./hand.js";
import { t } from "./i18n.js";
import { exchangeNote, exchangers, isPassTurn, renderPassing } from "./passing.js";
import { scoreboard } from "./scoreboard.js";
import { friendPicker } from "./friends.js";
import { seatName } from "./seating.js";
import { winnerText } from "./summary.js";

/** The one line that says whose turn it is (shown; game.js announces "your turn" separately). */
export function turnText(view, turn) {
  if (view.phase === "waiting" && view.reserved) return t("table.turn.rematchWait");
  if (view.phase === "waiting") return t("table.turn.waiting");
  if (view.phase === "game_over") return t("table.turn.over", { winner: winnerText(view) });
  if (view.phase === "passing") {
    if (turn === view.you) return t("table.turn.pass", { count: view.pass_count });
    return t("table.turn.exchanging", { seats: exchangers(view) });
  }
  if (turn === null || turn === undefined) return "…";
  const bidding = view.phase === "bidding";
  if (turn === view.you && isBlindDecision(view)) return t("table.turn.blind");
  if (turn === view.you) return t(bidding ? "table.turn.bid" : "table.turn.play");
  const seat = seatName(turn);
  if (view.seats[turn].type === "ai") return t("table.turn.thinking", { seat });
  return t(bidding ? "table.turn.waitBid" : "table.turn.waitPlay", { seat });
}

/** Whether the turn shown is the seat's own move to make (a bid, a blind decision, a pass, a card). */
function yoursToMove(view, turn) {
  return turn === view.you && view.you !== null && ["bidding", "passing", "playing"].includes(view.phase);
}

/** What the turn line shows: "Your turn…" only once the move can be made (with its panel or raised
 * cards), never while the table still shows events replayed ahead of the server's view; that it is
 * reconnecting while the table is the one this device kept (`kept`: no network yet); why your move
 * waits while the connection is down (`blocked`). */
function shownTurnText(view, turn, canMove, kept, blocked) {
  if (kept) return t("offline.table");
  const yours = yoursToMove(view, turn);
  if (yours && blocked) return blocked;
  return yours && !canMove ? "…" : turnText(view, turn);
}

function lastTrickPanel(view) {
  const trick = view.last_trick;
  return h(
    "section.last-trick-panel.overlay-panel",
    { id: "last-trick-panel", "aria-label": t("table.last.label"), "data-testid": "last-trick" },
    trick
      ? [
          h("h2.panel-title", {}, t("table.last.title", { seat: seatName(trick.winner) })),
          h(
            "ol.last-trick-cards",
            {},
            trick.cards.map((c) =>
              h("li", { class: c.seat === trick.winner ? "won" : "" }, h("span.last-seat", {}, seatName(c.seat)), cardFace(c.card, { label: t("table.last.card", { seat: seatName(c.seat), card: cardLabel(c.card) }) })),
            ),
          ),
        ]
      : h("p", {}, t("table.last.none")),
  );
}

/** The open seats' invite links (a seat a computer holds for a player who left is open too). */
export function invitePanel(view, gameId, onCopy) {
  const open = view.seats.filter((s) => s.claimable);
  if (!open.length) return null;
  const base = `${location.origin}/play?game=${encodeURIComponent(gameId)}`;
  return h(
    "section.invites.overlay-panel",
    { "aria-labelledby": "invites-title", "data-testid": "invites", class: view.phase === "waiting" ? "" : "compact" },
    h("h2.panel-title", { id: "invites-title" }, t(view.phase === "waiting" ? "table.invite.title" : "table.invite.claimable")),
    h("p.note", {}, t("table.invite.note")),
    open.map((s) => {
      const link = `${base}&seat=${s.seat}`;
      return h(
        "div.invite",
        {},
        h("label", { for: `invite-${s.seat}` }, s.type === "ai" ? t("table.invite.standIn", { seat: seatName(s.seat) }) : seatName(s.seat)),
        h("input", { id: `invite-${s.seat}`, type: "text", readonly: true, value: link, dataset: { testid: `invite-${s.seat}` } }),
        h("button", { type: "button", onclick: () => onCopy(link), dataset: { focusKey: `copy-${s.seat}` } }, t("table.invite.copy")),
      );
    }),
    friendPicker(gameId),
  );
}

/** Where the hint button would be, in a game made to count: "No hints in rated games" while it counts;
 * once it stopped counting, why (the top bar says it too, where it has room). */
function ratedNote(mark) {
  return mark.rated
    ? h("span.rated-note", { title: mark.title, dataset: { testid: "rated-note", rated: "yes" } }, t("table.hint.rated"))
    : h("span.rated-note.unrated.narrow-only", { dataset: { testid: "rated-note", rated: "no" } }, mark.text);
}

/**
 * ui: {gameId, turn (displayed), shownTrick, canMove, onPlay, onBid, onRefused, hint, hintsAllowed,
 * onHint, hintPending, ratedNote (fairplay.js ratedMark for a seated player, or null), lastTrickOpen,
 * focusKey, onCopy, gameOver (an element or null), people (the seats' persons: seatextras.js), statusExtras (buttons beside the turn line: tablebar.js),
 * kept (the view is the one this device kept, shown while the network is gone: lastview.js), blocked (null, or
 * why no move can be sent now, the connection being down: the move controls are shown disabled, with it)}.
 */
export function renderTable(view, ui) {
  const turn = ui.turn;
  const myTurn = turn === view.you && view.you !== null;
  const blocked = ui.blocked || null;
  const offered = ui.canMove || Boolean(blocked); // the seat's own view: its move controls drawn (disabled when blocked)
  const bidding = view.phase === "bidding" && myTurn && offered && view.legal.length;
  const hintMove = ui.hint ? ui.hint.move : null;
  const hintButton =
    ui.hintsAllowed && myTurn && ui.canMove && ["bidding", "passing", "playing"].includes(view.phase) // bids, blind decisions, passes, cards
      ? h("button.hint-button", { type: "button", onclick: ui.onHint, disabled: ui.hintPending, dataset: { testid: "hint-button", focusKey: "hint" } }, t(ui.hintPending ? "table.hint.thinking" : "table.hint.button"))
      : ui.ratedNote
      ? ratedNote(ui.ratedNote)
      : null;
  const focusKey = ui.focusKey || "";
  let overlay = null;
  const passingPanel = view.phase === "passing" && view.you !== null && (view.passing_seats || []).includes(view.you)
    ? renderPassing(view, { selected: ui.passSelected, onPass: ui.onPass, canMove: offered, disabled: Boolean(blocked) })
    : null;
  if (ui.gameOver) overlay = ui.gameOver;
  else if (bidding && isBlindDecision(view)) overlay = renderBlindDecision(view, { onBlind: ui.onBlind, onLook: ui.onLook, disabled: Boolean(blocked) });
  else if (passingPanel) overlay = passingPanel;
  else if (bidding) {
    overlay = renderBidding(view, {
      onBid: ui.onBid,
      hintedBid: hintMove ? hintMove.bid : undefined,
      focusBid: focusKey.startsWith("bid-") ? Number(focusKey.slice(4)) : undefined,
      disabled: Boolean(blocked),
    });
  } else if (ui.lastTrickOpen) overlay = lastTrickPanel(view);
  else if (view.phase === "waiting") overlay = invitePanel(view, ui.gameId, ui.onCopy);
  return h(
    "div",
    {
      class: `table-view phase-${view.phase}${myTurn ? " your-turn" : ""}${view.you === null ? " spectator" : ""}`,
      dataset: {
        testid: "table", version: String(view.version), phase: view.phase, round: String(view.round),
        you: view.you === null ? "spectator" : String(view.you), synced: ui.canMove ? "yes" : "no", kept: ui.kept ? "yes" : "no",
        offline: blocked ? "yes" : "no",
      },
    },
    h("h1.visually-hidden", {}, t(view.you === null ? "table.heading.watching" : "table.heading.yours")),
    scoreboard(view),
    h(
      "div.status-row",
      {},
      h("div", { class: `turn-banner${myTurn && ui.canMove && view.phase !== "game_over" ? " mine" : ""}${ui.kept ? " kept" : ""}${blocked && yoursToMove(view, turn) ? " offline" : ""}`, dataset: { testid: "turn" } }, shownTurnText(view, turn, ui.canMove, ui.kept, blocked)),
      hintButton,
      ui.statusExtras,
    ),
    ui.hint ? h("p.hint-text", { "data-testid": "hint-text" }, ui.hint.text) : view.you !== null ? exchangeNote(view) : null,
    h(
      "div.felt",
      { dataset: { testid: "felt" } },
      [0, 1, 2, 3].map((seat) => seatPanel(view, seat, turn, ui.people)),
      trickArea(view, ui.shownTrick),
      overlay,
    ),
    view.you !== null && view.hand_hidden
      ? faceDownHand(view.hand_sizes[view.you])
      : view.you !== null && view.hand
      ? handArea(view, {
          passing: isPassTurn(view) && offered ? { selected: ui.passSelected, onToggle: ui.onTogglePass, count: view.pass_count, hinted: hintMove && hintMove.pass ? hintMove.pass : [] } : null,
          received: view.phase === "playing" && view.passes && view.tricks.length === 0 ? view.passes.received : [],
          canMove: ui.canMove,
          blocked,
          myTurn,
          hintCard: hintMove ? hintMove.card : undefined,
          focusCard: focusKey.startsWith("card-") ? focusKey.slice(5) : undefined,
          onPlay: ui.onPlay,
          onRefused: ui.onRefused,
        })
      : ui.takeOffer || h("p.spectating", { "data-testid": "spectating" }, t("table.spectating")),
  );
}
