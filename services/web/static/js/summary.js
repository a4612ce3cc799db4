// Between rounds and at the end: the round summary (bids and tricks; the points of each side taken
// apart line by line: contract, bags, bag penalty, nil, total; the dealt hands), the score history
// and the game's end, each with a way into the round's review.

import { cardShort, sortHand } from "./cards.js";
import { h } from "./dom.js";
import { cardFace } from "./felt.js";
import { isPartnership, seatName, sideName, sideOf } from "./seating.js";
import { bagsBefore, mercyEnded, roundParts, signed } from "./tracking.js";

function sides(view) {
  return view.scores.map((_, side) => side);
}

/** A side's short name for a narrow column: "Your team", "Opponents", "North & South"… */
function shortSide(view, side) {
  const name = sideName(view, side);
  const at = name.indexOf(" (");
  return at < 0 ? name : name.slice(0, at);
}

function cell(main, sub = null) {
  return h("td", {}, h("span.part", {}, main), sub ? h("span.part-sub", {}, sub) : null);
}

function pointsTable(view, round) {
  const parts = roundParts(view.rules, round, bagsBefore(view.history, round));
  const rows = [
    ["Contract", (p) => cell(p.contract.bid ? signed(p.contract.points) : "—", p.contract.bid ? contractWords(p.contract) : "nil only")],
    ["Bags", (p) => cell(signed(p.bags.points), view.rules.bag_penalty > 0 ? `${p.bags.after}/${view.rules.bag_limit} after` : `${p.bags.count} this round`)],
    ["Bag penalty", (p) => cell(p.penalty ? signed(p.penalty) : "—")],
    ["Nil", (p) => cell(p.nils.length ? signed(p.nils.reduce((a, n) => a + n.points, 0)) : "—", p.nils.map((n) => `${seatName(n.seat)}${n.blind ? " blind" : ""} ${n.made ? "made" : "set"}`).join(", ") || null)],
    ["Total", (p) => h("td.strong", { dataset: { testid: `total-${p.side}` } }, signed(p.total))],
    ["Score", (p) => h("td.strong", {}, String(round.scores[p.side]))],
  ];
  return h(
    "table.summary-sides",
    { "data-testid": "points-table" },
    h("caption", {}, "Points this round"),
    h("thead", {}, h("tr", {}, h("td"), sides(view).map((s) => h("th", { scope: "col" }, shortSide(view, s))))),
    h(
      "tbody",
      {},
      rows.map(([label, render]) => h("tr", { dataset: { part: label.toLowerCase() } }, h("th", { scope: "row" }, label), parts.map(render))),
    ),
  );
}

/** "bid 7 (4 blind ×2) · won 8", "bid 10 · 10 for 200 · won 11". */
function contractWords(c) {
  const extra = c.tenFor200 ? " · 10 for 200" : c.blind ? ` (${c.blind} blind ×2)` : "";
  return `bid ${c.bid}${extra} · won ${c.taken}`;
}

function nilResult(round, seat) {
  const blind = Boolean(round.blind && round.blind[seat]);
  if (round.bids[seat] !== 0) return blind ? "blind bid" : "";
  const kind = blind ? "blind nil" : "nil";
  return round.tricks_won[seat] === 0 ? `${kind} made` : `${kind} set`;
}

function bidCell(round, seat) {
  const blind = Boolean(round.blind && round.blind[seat]);
  if (round.bids[seat] === 0) return blind ? "Blind nil" : "Nil";
  return blind ? `${round.bids[seat]} blind` : String(round.bids[seat]);
}

/** The nil exchange of a finished round (public in its hand record): who gave which cards. */
function exchangeLine(round) {
  if (!round.passes || !round.passes.some((cards) => cards.length)) return null;
  const gave = [0, 1, 2, 3].filter((seat) => round.passes[seat].length);
  return h(
    "p.dealt-exchange",
    { "data-testid": "summary-exchange" },
    "Nil exchange: ",
    gave.map((seat) => `${seatName(seat)} gave ${round.passes[seat].map(cardShort).join(" ")}`).join(" · "),
  );
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
      h("thead", {}, h("tr", {}, ["Seat", "Bid", "Won", ""].map((t) => (t ? h("th", { scope: "col" }, t) : h("td"))))),
      h(
        "tbody",
        {},
        [0, 1, 2, 3].map((seat) =>
          h(
            "tr",
            {},
            h("th", { scope: "row" }, seatName(seat) + (seat === view.you ? " (you)" : "")),
            h("td", {}, bidCell(round, seat)),
            h("td", {}, String(round.tricks_won[seat])),
            h("td", {}, nilResult(round, seat)),
          ),
        ),
      ),
    ),
    pointsTable(view, round),
    mercyEnded(view.rules, round.scores)
      ? h("p.mercy-note", { "data-testid": "mercy-note" }, mercyText(view.rules, round.scores))
      : null,
    h(
      "section.dealt",
      { "aria-labelledby": `dealt-${round.round}`, "data-history": "true" },
      h("h3.panel-title", { id: `dealt-${round.round}` }, "The hands dealt"),
      [0, 1, 2, 3].map((seat) =>
        h(
          "div.dealt-hand",
          {},
          h("span.dealt-seat", {}, seatName(seat)),
          h("span.dealt-cards", {}, sortHand(round.hands[seat], view.rules).map((c) => cardFace(c, { extraClass: "mini" }))),
        ),
      ),
      exchangeLine(round),
    ),
  );
}

/** The score after each round; with `onReview`, a "Review" button per round. */
export function renderScoreHistory(view, { onReview = null } = {}) {
  if (!view.history.length) return h("p", { "data-testid": "score-history" }, "No round has finished yet.");
  return h(
    "table.history",
    { "data-testid": "score-history" },
    h("caption", {}, "Score after each round (points in the round)"),
    h(
      "thead",
      {},
      h("tr", {}, h("th", { scope: "col" }, "Round"), sides(view).map((s) => h("th", { scope: "col" }, shortSide(view, s))), onReview ? h("td") : null),
    ),
    h(
      "tbody",
      {},
      view.history.map((round) =>
        h(
          "tr",
          {},
          h("th", { scope: "row" }, String(round.round)),
          sides(view).map((s) => h("td", {}, `${round.scores[s]} (${signed(round.points[s])})`)),
          onReview
            ? h("td", {}, h("button.small", { type: "button", onclick: () => onReview(round.round), dataset: { testid: `review-${round.round}`, focusKey: `review-${round.round}` }, "aria-label": `Review round ${round.round}` }, "Review"))
            : null,
        ),
      ),
    ),
  );
}

export function winnerText(view) {
  const winners = view.winner || [];
  if (!winners.length) return "the game is over.";
  const scores = [...view.scores].sort((a, b) => b - a);
  const margin = scores.length === 2 ? ` ${scores[0]} to ${scores[1]}` : "";
  if (view.you !== null && winners.includes(view.you)) return isPartnership(view) ? `your team wins${margin}!` : `you win${margin}!`;
  if (isPartnership(view)) {
    const name = shortSide(view, sideOf(view, winners[0]));
    return `${view.you === null ? name : name.toLowerCase()} win${margin}.`;
  }
  return `${winners.map(seatName).join(" and ")} ${winners.length > 1 ? "win" : "wins"}${margin}.`;
}

/** "Mercy rule: the game ends 320 points apart (margin 300)." */
export function mercyText(rules, scores) {
  const gap = Math.max(...scores) - Math.min(...scores);
  return `Mercy rule: the game ends with the sides ${gap} points apart (margin ${rules.mercy_margin}).`;
}

/** The end of the game, drawn over the table: the score history (each round reviewable) and a new game. */
/** The final scores; `ratings` (each player's change) under the winner, `extra` (the rematch) above
 * the "New game" button. */
export function renderGameOver(view, { onNewGame, onReview, extra = null, ratings = null }) {
  return h(
    "section.game-over.overlay-panel",
    { "aria-labelledby": "game-over-title", "data-testid": "game-over" },
    h("h2.game-over-title", { id: "game-over-title", "data-testid": "winner" }, winnerText(view).replace(/^./, (c) => c.toUpperCase())),
    mercyEnded(view.rules, view.scores) ? h("p.mercy-note", { "data-testid": "mercy-note" }, mercyText(view.rules, view.scores)) : null,
    ratings,
    renderScoreHistory(view, { onReview }),
    h(
      "div.end-actions",
      {},
      extra,
      h(extra ? "button" : "button.primary", { type: "button", onclick: onNewGame, dataset: { focusKey: "new-game", testid: "new-game" } }, "New game"),
    ),
  );
}
