// Reviewing a finished round: what each of your moves cost first — the points it gave away against the
// best move of the hint level (expert), the round's total and its biggest mistakes on top, each step's cost
// on its button — then the round step by step, the bidding then trick by trick, with all four hands shown
// (a finished round's deal is public) and, at each of your moves, every candidate's cost against the best.
// The analysis comes from GET /v1/games/{id}/rounds/{round}/review (computed on the AI workers; only for
// finished rounds); what a move cost is reviewcost.js's.

import { request } from "./api.js";
import { cardShort, sortHand } from "./cards.js";
import { openDialog } from "./dialog.js";
import { fill, h } from "./dom.js";
import { cardFace } from "./felt.js";
import { formatList, formatNumber, t } from "./i18n.js";
import { describeProblem } from "./messages.js";
import { candidateCosts, costOf, roundCost, sameMove, stepCost, stepOf } from "./reviewcost.js";
import { seatName } from "./seating.js";
import { gameEnds, signed } from "./tracking.js";

export async function fetchReview(gameId, round, token) {
  return (await request("GET", `/v1/games/${encodeURIComponent(gameId)}/rounds/${round}/review`, { token })).body;
}

// A move as the review names it: {bid}, {card}; with the house rules {look: true}, {bid, blind: true}, {pass}.
// `moveText` is also the move's code in the page's data attributes (the tests read them): not translated.
const bidCode = (move) => `${move.blind ? "blind " : ""}${move.bid === 0 ? "nil" : String(move.bid)}`;
const moveText = (move) =>
  "card" in move ? cardShort(move.card) : "look" in move ? "look" : "pass" in move ? move.pass.map(cardShort).join(" ") : bidCode(move);
const bidText = (move) =>
  move.blind ? t(move.bid === 0 ? "round.review.blindNil" : "round.review.blindBid", { bid: move.bid }) : move.bid === 0 ? t("round.review.nil") : String(move.bid);
const moveShown = (move) =>
  "card" in move ? cardShort(move.card) : "look" in move ? t("round.review.look") : "pass" in move ? move.pass.map(cardShort).join(" ") : bidText(move);
const passed = (move) => formatList(move.pass.map(cardShort));
const pct = (x) => formatNumber(x, { style: "percent", maximumFractionDigits: 0 });

/** The best move as the verdict names it: "the K♠", "to bid 4", "to look at your cards first", "to pass 2♣ and 3♦". */
function bestPhrase(move) {
  if ("card" in move) return t("round.review.theCard", { card: cardShort(move.card) });
  if ("look" in move) return t("round.review.lookFirst");
  if ("pass" in move) return t("round.review.toPass", { cards: passed(move) });
  return t("round.review.toBid", { bid: bidText(move) });
}

/** Your move in a sentence: "You played the 9♥.", "You bid 3.", "You looked at your cards first.", "You passed …". */
function yourMove(move) {
  if ("card" in move) return t("round.review.youPlayed", { move: t("round.review.theCard", { card: cardShort(move.card) }) });
  if ("look" in move) return t("round.review.youLooked");
  if ("pass" in move) return t("round.review.youPassed", { cards: passed(move) });
  return t("round.review.youBid", { move: bidText(move) });
}

/** The step's name in the summary's list of mistakes: "The bidding", "Trick 5". */
const stepName = (step) => (step === 0 ? t("round.review.bidding") : t("round.review.trickShort", { trick: step }));

/** Each seat's cards before trick `k` (1-based; k = 0 or 1: the whole deal). With a nil exchange
 * (`record.passes`), the bidding shows the hands as dealt and the tricks the hands after it. */
function handsBefore(review, k) {
  const gone = new Set(review.tricks.slice(0, Math.max(0, k - 1)).flatMap((t) => t.cards.map((c) => c.card)));
  const passes = review.record.passes;
  const held = review.record.hands.map((hand, seat) => {
    if (!passes || k === 0) return hand;
    const given = new Set(passes[seat]);
    return [...hand.filter((c) => !given.has(c)), ...passes[(seat + 2) % 4]];
  });
  return held.map((hand) => sortHand(hand.filter((c) => !gone.has(c))));
}

/** The decisions shown at step `k`: at 0 the bidding's (with the house rules the blind decision, the bid
 * after looking and the nil exchange's pass too), the card of trick `k` after. */
const decisionsAt = (review, k) => review.decisions.filter((d) => stepOf(d) === k);

/** The decision a step's panel is named by (its data attributes): the bid at 0 (a blind bid included). */
function mainDecision(decisions) {
  return decisions.filter((d) => "bid" in d.made).pop() || decisions[decisions.length - 1];
}

function candidatesTable(decision) {
  if (!decision.candidates.some((c) => typeof c.value === "number")) return null; // the verdict says it was the only move
  const chance = "card" in decision.made ? t("round.review.trickChance") : t("round.review.makeChance");
  const costs = candidateCosts(decision);
  const sorted = decision.candidates.map((c, i) => ({ c, cost: costs[i] })).sort((a, b) => (a.cost ?? Infinity) - (b.cost ?? Infinity));
  const rows = sorted.filter(({ c }, i) => i < 5 || sameMove(c, decision.made) || sameMove(c, decision.best)); // the top five, yours, expert's
  return h(
    "table.candidates",
    { "data-testid": "review-candidates" },
    h("caption", {}, t("round.review.caption")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("round.review.move")), h("th", { scope: "col" }, t("round.review.against")), h("th", { scope: "col" }, chance))),
    h(
      "tbody",
      {},
      rows.map(({ c, cost }) => {
        const best = sameMove(c, decision.best);
        const yours = sameMove(c, decision.made);
        const tags = [best ? t("round.review.levelsChoice") : "", yours ? t("round.review.yours") : ""].filter(Boolean);
        const figure = c.trick_chance ?? c.make_chance;
        return h(
          "tr",
          { class: [best ? "best" : "", yours ? "yours" : ""].join(" ").trim() || null, dataset: { move: moveText(c) } },
          h("th", { scope: "row" }, moveShown(c), tags.length ? h("span.tag", {}, ` ${tags.join(", ")}`) : null),
          h("td", { dataset: { testid: "review-cost" } }, cost === null ? "—" : signed(-cost)),
          h("td", {}, typeof figure === "number" ? pct(figure) : "—"),
        );
      }),
    ),
  );
}

/** One decision's verdict, what it cost first: "Gave away 12 points — best was the K♠. You played the 9♥." */
function verdict(decision) {
  const cost = costOf(decision);
  const headline = {
    best: () => t("round.review.bestMove"),
    asGood: () => t("round.review.asGood"),
    gave: () => t("round.review.gave", { count: cost.points }),
    only: () => t("round.review.onlyMove"),
    unscored: () => t("round.review.notScored"),
  }[cost.kind]();
  const best = bestPhrase(decision.best);
  const other = !sameMove(decision.made, decision.best);
  const detail = {
    gave: () => t("round.review.bestWas", { move: best }),
    asGood: () => t("round.review.expertChose", { move: best }),
    unscored: () => (other ? t("round.review.expertWould", { move: best }) : null),
  }[cost.kind]?.();
  const tone = cost.kind === "gave" ? `differs${cost.mistake ? " mistake" : ""}` : "agreed";
  return h(
    "p.verdict",
    { class: tone, dataset: { testid: "review-verdict", kind: cost.kind, made: moveText(decision.made), best: moveText(decision.best) } },
    h("strong.verdict-cost", {}, headline),
    detail ? ` — ${detail}. ` : ". ",
    h("span.verdict-move", {}, yourMove(decision.made)),
  );
}

/** Your moves at the step, each with what it cost, then the hands (`hands`), then each move's candidates. */
function decisionPanel(review, k, hands) {
  const decisions = decisionsAt(review, k);
  if (!decisions.length) return [h("p.note", { "data-testid": "review-decision" }, t("round.review.noMove")), hands];
  const main = mainDecision(decisions);
  return h(
    "section.review-decision",
    { "aria-label": t("round.review.decision"), "data-testid": "review-decision", dataset: { made: moveText(main.made), best: moveText(main.best) } },
    decisions.map(verdict),
    hands,
    decisions.map(candidatesTable),
  );
}

function handsPanel(review, k) {
  const hands = handsBefore(review, k);
  const trick = k > 0 ? review.tricks[k - 1] : null;
  const playedBy = new Map(trick ? trick.cards.map((c) => [c.seat, c.card]) : []);
  const order = trick ? trick.cards.map((c) => c.seat) : [0, 1, 2, 3].map((i) => (review.record.dealer + 1 + i) % 4);
  return h(
    "div.review-hands",
    { "data-testid": "review-hands" },
    order.map((seat) => {
      const played = playedBy.get(seat);
      const won = trick && trick.winner === seat;
      const bid = review.record.bids[seat];
      return h(
        "div",
        { class: `review-hand${seat === review.seat ? " mine" : ""}${won ? " won" : ""}`, dataset: { testid: `review-hand-${seat}` } },
        h(
          "div.review-seat",
          {},
          h("strong", {}, seat === review.seat ? t("round.review.seatYou", { seat: seatName(seat) }) : seatName(seat)),
          h(
            "span",
            {},
            k === 0
              ? ` ${t("round.review.seatBid", { bid: bid === 0 ? t("round.review.nil") : bid })}`
              : played
                ? ` ${t(won ? "round.review.playedWon" : "round.review.played", { card: cardShort(played) })}`
                : "",
          ),
        ),
        h("div.review-cards", {}, hands[seat].map((c) => cardFace(c, { extraClass: `mini${c === played ? " played" : ""}` }))),
      );
    }),
  );
}

/** The round at a glance: what your moves gave away in all, the accuracy, and the biggest mistakes, each a
 * button to its step. A round that ended the game says why its moves may have cost more than it scored
 * (`rules`: the game's, when known). */
function roundSummary(review, rules, go) {
  const cost = roundCost(review.decisions);
  const total = !cost.scored
    ? t("round.review.totalUnscored")
    : cost.points > 0
      ? t("round.review.total", { count: cost.points })
      : t("round.review.totalNone");
  const share = review.accuracy && typeof review.accuracy.accurate_share === "number" ? review.accuracy.accurate_share : null;
  return h(
    "section.review-summary",
    { "aria-label": t("round.review.summary"), dataset: { testid: "review-summary" } },
    h("p.review-total", { dataset: { testid: "review-total", points: cost.points } }, total),
    cost.scored && share !== null
      ? h("p.review-accuracy", { dataset: { testid: "review-accuracy" } }, t("round.review.accuracy", { share: pct(share), close: cost.close, count: cost.scored }))
      : null,
    cost.mistakes.length
      ? h(
          "div.review-mistakes",
          {},
          h("span.review-mistakes-title", { id: "review-mistakes-title" }, t("round.review.mistakes", { count: cost.mistakes.length })),
          h(
            "ul",
            { "aria-labelledby": "review-mistakes-title" },
            cost.mistakes.map(({ decision, cost: each, step }, i) =>
              h(
                "li",
                {},
                h(
                  "button.mistake",
                  { type: "button", dataset: { testid: `review-mistake-${i}`, step }, onclick: () => go(step) },
                  t("round.review.mistake", { step: stepName(step), count: each.points, best: bestPhrase(decision.best) }),
                ),
              ),
            ),
          ),
        )
      : null,
    rules && gameEnds(rules, review.record.scores) ? h("p.review-decided", { dataset: { testid: "review-decided" } }, t("round.review.gameDecided")) : null,
  );
}

/** A step's button: its number, and under it what your moves there gave away ("−24"), marked when it was a mistake. */
function stepButton(review, i, k, go) {
  const cost = stepCost(decisionsAt(review, i));
  const lost = cost.scored && cost.points > 0;
  return h(
    "button.step",
    {
      type: "button",
      class: [i === k ? "current" : "", lost ? "differs" : "", cost.mistake ? "mistake" : ""].filter(Boolean).join(" ") || null,
      "aria-current": i === k ? "step" : null,
      dataset: cost.scored ? { testid: `review-step-${i}`, points: cost.points } : { testid: `review-step-${i}` },
      onclick: () => go(i),
    },
    h("span.step-label", {}, i === 0 ? t("round.review.bids") : formatNumber(i)),
    lost ? h("span.step-cost", { "aria-hidden": "true" }, signed(-cost.points)) : null,
    lost ? h("span.visually-hidden", {}, t("round.review.stepGave", { count: cost.points })) : null,
  );
}

function stepLabel(review, k) {
  if (k === 0) return t("round.review.bidding");
  const trick = review.tricks[k - 1];
  return t("round.review.trick", { trick: k, leader: seatName(trick.leader), winner: seatName(trick.winner) });
}

function renderStep(root, review, rules, k, go) {
  const about = root.querySelector(".review-about"); // kept open from step to step once opened
  fill(
    root,
    h("h2.panel-title", { id: "review-title" }, t("round.review.title", { round: review.round })),
    roundSummary(review, rules, go),
    h(
      "div.review-steps",
      { role: "group", "aria-label": t("round.review.steps") },
      Array.from({ length: 14 }, (_, i) => stepButton(review, i, k, go)),
    ),
    h(
      "div.review-nav",
      {},
      h("button", { type: "button", disabled: k === 0, onclick: () => go(k - 1), dataset: { testid: "review-previous" } }, t("round.review.previous")),
      h("h3.step-title", { "data-testid": "review-step-title", "aria-live": "polite" }, stepLabel(review, k)),
      h("button", { type: "button", disabled: k === 13, onclick: () => go(k + 1), dataset: { testid: "review-next" } }, t("round.review.next")),
    ),
    decisionPanel(review, k, handsPanel(review, k)),
    h(
      "details.review-about",
      { open: Boolean(about && about.open), dataset: { testid: "review-about" } },
      h("summary", {}, t("round.review.aboutTitle")),
      h("p", {}, t("round.review.about")),
    ),
  );
}

/** Open the review of finished round `round` in a dialog (loading it first); `rules`: the game's. */
export async function openReview(gameId, round, token, rules = null) {
  const body = h("div.review", { "data-testid": "review", "aria-busy": "true" }, h("p.loading-note", { role: "status" }, t("round.review.loading")));
  const buttons = [{ label: t("round.review.close"), value: "close", primary: true }];
  const closed = openDialog(body, { testid: "review-dialog", label: t("round.review.title", { round }), wide: true, buttons });
  try {
    const review = await fetchReview(gameId, round, token);
    let step = 0;
    const go = (k) => {
      const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.testid : null;
      step = Math.max(0, Math.min(13, k));
      renderStep(body, review, rules, step, go);
      const again = focused && body.querySelector(`[data-testid="${focused}"]:not([disabled])`);
      (again || body.querySelector(`[data-testid="review-step-${step}"]`)).focus();
    };
    body.removeAttribute("aria-busy");
    body.addEventListener("keydown", (event) => {
      if (event.target.closest("table")) return;
      if (event.key === "ArrowRight") go(step + 1);
      else if (event.key === "ArrowLeft") go(step - 1);
      else return;
      event.preventDefault();
    });
    go(0);
  } catch (problem) {
    body.removeAttribute("aria-busy");
    fill(body, h("p.error-note", { role: "alert", "data-testid": "review-error" }, describeProblem(problem)));
  }
  return closed;
}
