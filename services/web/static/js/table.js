// The table: seats around the felt, the trick in progress, your hand, whose turn it is.
// A pure render of (view, ui state) into elements; game.js owns the state and the calls.

import { renderBidding } from "./bidding.js";
import { cardName, cardShort, rankLabel, sortHand, SUITS, suitOf } from "./cards.js";
import { h } from "./dom.js";
import { positionOf, seatKind, seatName, sideName, sideOf } from "./seating.js";

/** A face-up card; a button when `onPlay` is given. */
export function cardFace(code, { onPlay = null, enabled = false, extraClass = "", label = null } = {}) {
  const suit = SUITS[suitOf(code)];
  const children = [
    h("span.card-rank", { "aria-hidden": "true" }, rankLabel(code)),
    h("span.card-suit", { "aria-hidden": "true" }, suit.symbol),
    h("span.card-pip", { "aria-hidden": "true" }, suit.symbol),
  ];
  const classes = `card suit-${suit.name} ${suit.colour} ${extraClass}`.trim();
  if (onPlay) {
    return h(
      "button",
      {
        type: "button",
        class: classes,
        disabled: !enabled,
        "aria-label": `${cardName(code)}${enabled ? "" : " (can't be played now)"}`,
        dataset: { card: code, focusKey: `card-${code}` },
        onclick: () => onPlay(code),
      },
      children,
    );
  }
  return h("span", { class: classes, role: "img", "aria-label": label || cardName(code), dataset: { card: code } }, children);
}

function cardBacks(count) {
  const shown = Math.min(count, 13);
  return h(
    "span.backs",
    { "aria-hidden": "true" },
    Array.from({ length: shown }, () => h("span.card-back")),
  );
}

function bidText(bid) {
  if (bid === null) return "no bid yet";
  return bid === 0 ? "Nil" : `Bid ${bid}`;
}

function seatPanel(view, seat, turn) {
  const isTurn = turn === seat;
  const position = positionOf(view, seat);
  const mine = seat === view.you;
  const bid = view.bids[seat];
  return h(
    "section",
    {
      class: `seat seat-${position}${isTurn ? " is-turn" : ""}${mine ? " is-you" : ""}`,
      "aria-label": `${seatName(seat)}, ${seatKind(view, seat)}`,
      "aria-current": isTurn ? "true" : null,
      dataset: { seat: String(seat), testid: `seat-${seat}` },
    },
    h(
      "div.seat-head",
      {},
      h("span.seat-name", {}, seatName(seat)),
      view.dealer === seat ? h("span.dealer-chip", { title: "Dealer", "aria-label": "dealer" }, "D") : null,
      isTurn ? h("span.turn-chip", {}, view.phase === "bidding" ? "bidding" : "to play") : null,
    ),
    h("div.seat-kind", {}, seatKind(view, seat)),
    h(
      "div.seat-stats",
      {},
      h("span.seat-bid", { dataset: { testid: `bid-${seat}` } }, bidText(bid)),
      h("span.seat-tricks", {}, `Tricks ${view.tricks_won[seat]}`),
    ),
    mine ? null : cardBacks(view.hand_sizes[seat]),
  );
}

function trickArea(view, shownTrick) {
  const trick = shownTrick || { cards: view.trick, winner: null };
  const bySeat = new Map(trick.cards.map((c) => [c.seat, c.card]));
  const label = trick.winner === null ? "Trick in progress" : `Trick won by ${seatName(trick.winner)}`;
  return h(
    "section.trick",
    { "aria-label": label, dataset: { testid: "trick", count: String(trick.cards.length) } },
    [0, 1, 2, 3].map((seat) => {
      const card = bySeat.get(seat);
      const won = trick.winner === seat;
      return h(
        "div",
        { class: `trick-slot slot-${positionOf(view, seat)}${won ? " won" : ""}` },
        card ? cardFace(card, { label: `${seatName(seat)} played the ${cardName(card)}${won ? ", winning" : ""}` }) : null,
      );
    }),
    trick.winner !== null ? h("div.trick-banner", {}, `${seatName(trick.winner)} wins the trick`) : null,
  );
}

/** "Your team (South & North)": the members in their own span, which a phone hides. */
function scoreName(name) {
  const at = name.indexOf(" (");
  if (at < 0) return h("span.score-name", {}, name);
  return h("span.score-name", {}, name.slice(0, at), h("span.score-members", {}, name.slice(at)));
}

function scoreboard(view) {
  return h(
    "section.scoreboard",
    { "aria-label": "Scores", "data-testid": "scoreboard" },
    view.scores.map((score, side) =>
      h(
        "div",
        { class: `score-side${view.you !== null && sideOf(view, view.you) === side ? " mine" : ""}` },
        scoreName(sideName(view, side)),
        h("span.score-points", {}, String(score)),
        h("span.score-bags", {}, `bags ${view.bags[side]}`),
      ),
    ),
    h("div.score-meta", {}, `Round ${view.round} · playing to ${view.rules.win_score}`),
  );
}

/** The one line that says whose turn it is. */
export function turnText(view, turn) {
  if (view.phase === "waiting") return "Waiting for players to take the open seats…";
  if (view.phase === "game_over") return "Game over";
  if (turn === null || turn === undefined) return "…";
  const doing = view.phase === "bidding" ? "bid" : "play a card";
  if (turn === view.you) return `Your turn: ${doing}`;
  const who = seatName(turn);
  return view.seats[turn].type === "ai" ? `${who} (computer) is choosing…` : `Waiting for ${who} to ${doing}`;
}

function handArea(view, ui) {
  const myTurn = view.turn === view.you && view.phase === "playing" && ui.canMove;
  const legal = new Set(myTurn ? view.legal : []);
  const cards = sortHand(view.hand || []);
  return h(
    "section",
    {
      class: `hand${myTurn ? " my-turn" : ""}`,
      role: "group",
      "aria-label": `Your hand, ${cards.length} cards${myTurn ? "; playable cards are enabled" : ""}`,
      dataset: { testid: "hand" },
      onkeydown: moveFocusWithArrows,
    },
    cards.map((code) =>
      cardFace(code, {
        onPlay: ui.onPlay,
        enabled: legal.has(code),
        extraClass: ui.hint && ui.hint.move && ui.hint.move.card === code ? "hinted" : "",
      }),
    ),
  );
}

/** Left/right arrows move between the hand's playable cards (Enter or Space plays one). */
function moveFocusWithArrows(event) {
  if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
  const buttons = [...event.currentTarget.querySelectorAll("button:not([disabled])")];
  const at = buttons.indexOf(document.activeElement);
  if (!buttons.length) return;
  const step = event.key === "ArrowRight" ? 1 : -1;
  const next = buttons[(at + step + buttons.length) % buttons.length];
  next.focus();
  event.preventDefault();
}

function lastTrickPanel(view) {
  if (!view.last_trick) return h("p.last-trick-panel", { "data-testid": "last-trick" }, "No trick has been played yet this round.");
  const trick = view.last_trick;
  return h(
    "section.last-trick-panel",
    { "aria-label": "Last trick", "data-testid": "last-trick" },
    h("h3.panel-title", {}, `Last trick — won by ${seatName(trick.winner)}`),
    h(
      "ol.last-trick-cards",
      {},
      trick.cards.map((c) =>
        h("li", { class: c.seat === trick.winner ? "won" : "" }, h("span.last-seat", {}, seatName(c.seat)), cardFace(c.card, { label: `${seatName(c.seat)}: ${cardName(c.card)}` })),
      ),
    ),
  );
}

function invitePanel(view, gameId) {
  const open = view.seats.filter((s) => s.claimable);
  if (!open.length) return null;
  const base = `${location.origin}/play?game=${encodeURIComponent(gameId)}`;
  return h(
    "section.invites",
    { "aria-label": "Invite links", "data-testid": "invites" },
    h("h2.panel-title", {}, view.phase === "waiting" ? "Invite players to the open seats" : "Seats anyone can claim"),
    h("p.note", {}, "Send a link to each player. A link holds only the game and the seat; whoever opens it first takes the seat."),
    open.map((s) => {
      const link = `${base}&seat=${s.seat}`;
      return h(
        "div.invite",
        {},
        h("label", { for: `invite-${s.seat}` }, `${seatName(s.seat)}${s.type === "ai" ? " (a computer is standing in)" : ""}`),
        h("input", { id: `invite-${s.seat}`, type: "text", readonly: true, value: link, dataset: { testid: `invite-${s.seat}` } }),
        h("button", { type: "button", onclick: () => copy(link) }, "Copy"),
      );
    }),
  );
}

function copy(text) {
  if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
}

/**
 * The whole table. `ui`: {gameId, turn (displayed), shownTrick, canMove, onPlay, onBid, hint,
 * hintsAllowed, onHint, lastTrickOpen, onToggleLastTrick, onShowScores, onLeave, gameOver}.
 */
export function renderTable(view, ui) {
  const turn = ui.turn;
  const myTurn = turn === view.you && view.you !== null;
  const seats = [0, 1, 2, 3].map((seat) => seatPanel(view, seat, turn));
  const bidding = view.phase === "bidding" && myTurn && ui.canMove && view.legal.length;
  const controls = h(
    "div.controls",
    {},
    h(
      "button",
      { type: "button", "aria-expanded": ui.lastTrickOpen ? "true" : "false", onclick: ui.onToggleLastTrick, dataset: { testid: "last-trick-button" } },
      ui.lastTrickOpen ? "Hide last trick" : "Last trick",
    ),
    h("button", { type: "button", onclick: ui.onShowScores, dataset: { testid: "scores-button" } }, "Score history"),
    ui.hintsAllowed && myTurn && ui.canMove
      ? h("button.hint-button", { type: "button", onclick: ui.onHint, dataset: { testid: "hint-button" } }, "Hint")
      : null,
    view.you !== null && view.phase !== "game_over"
      ? h("button.leave", { type: "button", onclick: ui.onLeave, dataset: { testid: "leave-button" } }, "Leave table")
      : null,
  );
  return h(
    "div",
    {
      class: `table-view phase-${view.phase}${myTurn ? " your-turn" : ""}`,
      dataset: { testid: "table", version: String(view.version), phase: view.phase, round: String(view.round), you: view.you === null ? "spectator" : String(view.you), synced: ui.canMove ? "yes" : "no" },
    },
    scoreboard(view),
    h(
      "div",
      { class: `turn-banner${myTurn ? " mine" : ""}`, role: "status", "aria-live": "polite", dataset: { testid: "turn" } },
      turnText(view, turn),
    ),
    ui.gameOver,
    h("div.felt", {}, seats, trickArea(view, ui.shownTrick)),
    ui.hint ? h("p.hint-text", { role: "status", "data-testid": "hint-text" }, ui.hint.text) : null,
    view.you !== null && view.hand ? handArea(view, ui) : null,
    bidding ? renderBidding(view, { onBid: ui.onBid, hintedBid: ui.hint && ui.hint.move ? ui.hint.move.bid : undefined }) : null,
    view.you === null ? h("p.spectating", { "data-testid": "spectating" }, "You are watching as a spectator: no one's hand is shown.") : null,
    controls,
    ui.lastTrickOpen ? lastTrickPanel(view) : null,
    invitePanel(view, ui.gameId),
  );
}

export { cardShort };
