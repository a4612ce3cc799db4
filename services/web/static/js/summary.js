// Between rounds and at the end: the round summary (bids, tricks, points, bags, penalties, nil
// results, the dealt hands), the score history, the winner.

import { sortHand } from "./cards.js";
import { h } from "./dom.js";
import { isPartnership, seatName, sideName, sideOf } from "./seating.js";
import { cardFace } from "./table.js";

function sides(view) {
  return view.scores.map((_, side) => side);
}

function seatsOf(view, side) {
  return isPartnership(view) ? [side, side + 2] : [side];
}

/** "made" / "set" for a side's contract (nil bids excluded), or "—" when it bid only nil. */
function contractResult(view, round, side) {
  const seats = seatsOf(view, side);
  const bid = seats.reduce((sum, s) => sum + round.bids[s], 0);
  if (!bid) return "—";
  const countNil = view.rules.nil_tricks_count_for_team;
  const taken = seats.reduce((sum, s) => sum + (round.bids[s] === 0 && !countNil ? 0 : round.tricks_won[s]), 0);
  return `${taken >= bid ? "made" : "set"}: ${taken} of ${bid}`;
}

function nilResult(round, seat) {
  if (round.bids[seat] !== 0) return "";
  return round.tricks_won[seat] === 0 ? "nil made" : "nil failed";
}

export function renderRoundSummary(view, round) {
  return h(
    "div.summary",
    { "data-testid": "round-summary" },
    h("h2.panel-title", {}, `Round ${round.round} summary`),
    h(
      "table.summary-seats",
      {},
      h("caption", {}, "Bids and tricks"),
      h("thead", {}, h("tr", {}, ["Seat", "Bid", "Tricks", "Nil"].map((t) => h("th", { scope: "col" }, t)))),
      h(
        "tbody",
        {},
        [0, 1, 2, 3].map((seat) =>
          h(
            "tr",
            {},
            h("th", { scope: "row" }, seatName(seat) + (seat === view.you ? " (you)" : "")),
            h("td", {}, round.bids[seat] === 0 ? "Nil" : String(round.bids[seat])),
            h("td", {}, String(round.tricks_won[seat])),
            h("td", {}, nilResult(round, seat)),
          ),
        ),
      ),
    ),
    h(
      "table.summary-sides",
      {},
      h("caption", {}, "Points"),
      h("thead", {}, h("tr", {}, ["", "Contract", "Points", "Bag penalty", "Bags", "Score"].map((t) => h("th", { scope: "col" }, t)))),
      h(
        "tbody",
        {},
        sides(view).map((side) =>
          h(
            "tr",
            {},
            h("th", { scope: "row" }, sideName(view, side)),
            h("td", {}, contractResult(view, round, side)),
            h("td", {}, signed(round.points[side])),
            h("td", {}, round.bag_penalties[side] ? `−${Math.abs(round.bag_penalties[side])}` : "—"),
            h("td", {}, String(round.bags[side])),
            h("td.strong", {}, String(round.scores[side])),
          ),
        ),
      ),
    ),
    h(
      "section.dealt",
      { "aria-label": "The hands dealt this round", "data-history": "true" },
      h("h3.panel-title", {}, "The hands dealt"),
      [0, 1, 2, 3].map((seat) =>
        h(
          "div.dealt-hand",
          {},
          h("span.dealt-seat", {}, seatName(seat)),
          h("span.dealt-cards", {}, sortHand(round.hands[seat]).map((c) => cardFace(c, { extraClass: "mini" }))),
        ),
      ),
    ),
  );
}

function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${Math.abs(n)}` : "0";
}

export function renderScoreHistory(view) {
  if (!view.history.length) return h("p", { "data-testid": "score-history" }, "No round has finished yet.");
  return h(
    "table.history",
    { "data-testid": "score-history" },
    h("caption", {}, "Score after each round (points in the round)"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Round"), sides(view).map((s) => h("th", { scope: "col" }, sideName(view, s))))),
    h(
      "tbody",
      {},
      view.history.map((round) =>
        h(
          "tr",
          {},
          h("th", { scope: "row" }, String(round.round)),
          sides(view).map((s) => h("td", {}, `${round.scores[s]} (${signed(round.points[s])})`)),
        ),
      ),
    ),
  );
}

export function winnerText(view) {
  const winners = view.winner || [];
  if (!winners.length) return "The game is over.";
  if (view.you !== null && winners.includes(view.you)) {
    return isPartnership(view) ? "Your team wins!" : "You win!";
  }
  if (isPartnership(view)) return `${sideName(view, sideOf(view, winners[0]))} win.`;
  return `${winners.map(seatName).join(" and ")} ${winners.length > 1 ? "win" : "wins"}.`;
}

export function renderGameOver(view, { onNewGame }) {
  return h(
    "section.game-over",
    { "aria-labelledby": "game-over-title", "data-testid": "game-over" },
    h("h2.game-over-title", { id: "game-over-title" }, "Game over"),
    h("p.winner", { "data-testid": "winner" }, winnerText(view)),
    renderScoreHistory(view),
    h("button.primary", { type: "button", onclick: onNewGame }, "New game"),
  );
}
