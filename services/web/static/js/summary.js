// Between rounds and at the end: the round summary (bids and tricks; the points of each side taken
// apart line by line: contract, bags, bag penalty, nil, total; the dealt hands), the score history
// and the game's end, each with a way into the round's review.

import { cardShort, sortHand } from "./cards.js";
import { h } from "./dom.js";
import { cardFace } from "./felt.js";
import { formatList, formatNumber, t } from "./i18n.js";
import { sideLabel } from "./scoreboard.js";
import { lobbyUrl } from "./router.js";
import { isPartnership, seatName, sideOf } from "./seating.js";
import { bagsBefore, mercyEnded, roundParts, signed } from "./tracking.js";

function sides(view) {
  return view.scores.map((_, side) => side);
}

/** A side's short name for a narrow column: "Your team", "Opponents", "North & South"… */
function shortSide(view, side) {
  return sideLabel(view, side).name;
}

function cell(main, sub = null) {
  return h("td", {}, h("span.part", {}, main), sub ? h("span.part-sub", {}, sub) : null);
}

function pointsTable(view, round) {
  const parts = roundParts(round, bagsBefore(view.history, round));
  // [the row's code (its data-part), its label, its cells]
  const rows = [
    ["contract", t("round.summary.contract"), (p) => cell(p.contract.bid ? signed(p.contract.points) : "—", p.contract.bid ? contractWords(p.contract) : t("round.summary.nilOnly"))],
    [
      "bags",
      t("round.summary.bags"),
      (p) =>
        cell(
          signed(p.bags.points),
          view.rules.bag_penalty > 0
            ? t("round.summary.bagsAfter", { bags: p.bags.after, limit: view.rules.bag_limit })
            : t("round.summary.bagsThisRound", { count: p.bags.count }),
        ),
    ],
    ["bag penalty", t("round.summary.penalty"), (p) => cell(p.penalty ? signed(p.penalty) : "—")],
    [
      "nil",
      t("round.summary.nil"),
      (p) => cell(p.nils.length ? signed(p.nils.reduce((a, n) => a + n.points, 0)) : "—", p.nils.map((n) => nilWords(n.seat, n.blind, n.made)).join(", ") || null),
    ],
    ["total", t("round.summary.total"), (p) => h("td.strong", { dataset: { testid: `total-${p.side}` } }, signed(p.total))],
    ["score", t("round.summary.score"), (p) => h("td.strong", {}, formatNumber(round.scores[p.side]))],
  ];
  return h(
    "table.summary-sides",
    { "data-testid": "points-table" },
    h("caption", {}, t("round.summary.points")),
    h("thead", {}, h("tr", {}, h("td"), sides(view).map((s) => h("th", { scope: "col" }, shortSide(view, s))))),
    h(
      "tbody",
      {},
      rows.map(([part, label, render]) => h("tr", { dataset: { part } }, h("th", { scope: "row" }, label), parts.map(render))),
    ),
  );
}

/** "bid 7 (4 blind ×2) · won 8", "bid 10 · 10 for 200 · won 11". */
function contractWords(c) {
  if (c.bonus === "ten_for_200") return t("round.summary.contractTen", { bid: c.bid, won: c.taken });
  if (c.blind) return t("round.summary.contractBlind", { bid: c.bid, blind: c.blind, won: c.taken });
  return t("round.summary.contractWords", { bid: c.bid, won: c.taken });
}

/** "South blind nil made", "North nil set". */
function nilWords(seat, blind, made) {
  return t(`round.summary.${blind ? "blindNil" : "nil"}${made ? "Made" : "Set"}`, { seat: seatName(seat) });
}

function nilResult(round, seat) {
  const blind = Boolean(round.blind && round.blind[seat]);
  if (round.bids[seat] !== 0) return blind ? t("round.summary.blindBid") : "";
  return t(`round.summary.result${blind ? "BlindNil" : "Nil"}${round.tricks_won[seat] === 0 ? "Made" : "Set"}`);
}

function bidCell(round, seat) {
  const blind = Boolean(round.blind && round.blind[seat]);
  if (round.bids[seat] === 0) return blind ? t("round.summary.bidBlindNil") : t("round.summary.bidNil");
  return blind ? t("round.summary.bidBlind", { bid: round.bids[seat] }) : formatNumber(round.bids[seat]);
}

/** The nil exchange of a finished round (public in its hand record): who gave which cards. */
function exchangeLine(round) {
  if (!round.passes || !round.passes.some((cards) => cards.length)) return null;
  const gave = [0, 1, 2, 3].filter((seat) => round.passes[seat].length);
  return h(
    "p.dealt-exchange",
    { "data-testid": "summary-exchange" },
    t("round.summary.exchange", {
      gave: gave.map((seat) => t("round.summary.gave", { seat: seatName(seat), cards: round.passes[seat].map(cardShort).join(" ") })).join(" · "),
    }),
  );
}

export function renderRoundSummary(view, round) {
  return h(
    "div.summary",
    { "data-testid": "round-summary" },
    h("h2.panel-title", {}, t("round.summary.title", { round: round.round })),
    h(
      "table.summary-seats",
      {},
      h("caption", {}, t("round.summary.bidsAndTricks")),
      h(
        "thead",
        {},
        h("tr", {}, [t("round.summary.seat"), t("round.summary.bid"), t("round.summary.won"), ""].map((text) => (text ? h("th", { scope: "col" }, text) : h("td")))),
      ),
      h(
        "tbody",
        {},
        [0, 1, 2, 3].map((seat) =>
          h(
            "tr",
            {},
            h("th", { scope: "row" }, seat === view.you ? t("round.summary.seatYou", { seat: seatName(seat) }) : seatName(seat)),
            h("td", {}, bidCell(round, seat)),
            h("td", {}, formatNumber(round.tricks_won[seat])),
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
      h("h3.panel-title", { id: `dealt-${round.round}` }, t("round.summary.dealt")),
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
  if (!view.history.length) return h("p", { "data-testid": "score-history" }, t("round.history.none"));
  return h(
    "table.history",
    { "data-testid": "score-history" },
    h("caption", {}, t("round.history.caption")),
    h(
      "thead",
      {},
      h("tr", {}, h("th", { scope: "col" }, t("round.history.round")), sides(view).map((s) => h("th", { scope: "col" }, shortSide(view, s))), onReview ? h("td") : null),
    ),
    h(
      "tbody",
      {},
      view.history.map((round) =>
        h(
          "tr",
          {},
          h("th", { scope: "row" }, formatNumber(round.round)),
          sides(view).map((s) => h("td", {}, t("round.history.cell", { score: round.scores[s], points: signed(round.points[s]) }))),
          onReview
            ? h("td", {}, h("button.small", { type: "button", onclick: () => onReview(round.round), dataset: { testid: `review-${round.round}`, focusKey: `review-${round.round}` }, "aria-label": t("round.history.reviewRound", { round: round.round }) }, t("round.history.review")))
            : null,
        ),
      ),
    ),
  );
}

/** The game's result as a sentence: "Your team wins 520 to 310!", "North & South win 510 to 480.". */
export function winnerText(view) {
  const winners = view.winner || [];
  if (!winners.length) return t("round.over.over");
  const scores = [...view.scores].sort((a, b) => b - a);
  const two = scores.length === 2;
  const margin = { high: scores[0], low: scores[1] };
  const say = (key, params = {}) => t(`${key}${two ? "By" : ""}`, { ...params, ...margin });
  if (view.you !== null && winners.includes(view.you)) return isPartnership(view) ? say("round.over.yourTeamWins") : say("round.over.youWin");
  if (isPartnership(view)) {
    const side = sideOf(view, winners[0]);
    if (view.you !== null) return say("round.over.opponentsWin");
    return say("round.over.sideWins", { side: shortSide(view, side) });
  }
  return say(winners.length > 1 ? "round.over.seatsWin" : "round.over.seatWins", { seats: formatList(winners.map(seatName)) });
}

/** "Mercy rule: the game ends with the sides 320 points apart (margin 300)." */
export function mercyText(rules, scores) {
  const gap = Math.max(...scores) - Math.min(...scores);
  return t("round.over.mercy", { gap, margin: rules.mercy_margin });
}

/** The end of the game, drawn over the felt: what a person looks for first, the result and what to do next
 * (`extra`, the rematch; a new game with the same rules; the lobby), always in sight; then the details, which
 * scroll on their own: `ratings` (each player's change) and the score history (each round reviewable). */
export function renderGameOver(view, { onNewGame, onReview, extra = null, ratings = null }) {
  return h(
    "section.game-over.overlay-panel",
    { "aria-labelledby": "game-over-title", "data-testid": "game-over" },
    h("h2.game-over-title", { id: "game-over-title", "data-testid": "winner" }, winnerText(view)),
    mercyEnded(view.rules, view.scores) ? h("p.mercy-note", { "data-testid": "mercy-note" }, mercyText(view.rules, view.scores)) : null,
    h(
      "div.end-actions",
      {},
      extra,
      h(extra ? "button" : "button.primary", { type: "button", onclick: onNewGame, dataset: { focusKey: "new-game", testid: "new-game" } }, t("round.over.newGame")),
      h("a.button", { href: lobbyUrl(), dataset: { testid: "to-lobby" } }, t("players.lobby")),
    ),
    h("div.game-over-details", { tabindex: "0", "aria-label": t("round.over.details") }, ratings, renderScoreHistory(view, { onReview })),
  );
}
