// Reviewing a finished round: step through it, the bidding then trick by trick, with all four hands
// shown (a finished round's deal is public) and, at each of your moves, the move the hint level
// (hard) would have made and how much it expected each candidate to be worth. The analysis comes
// from GET /v1/games/{id}/rounds/{round}/review (computed on the AI workers; only for finished rounds).

import { request } from "./api.js";
import { cardName, cardShort, sortHand } from "./cards.js";
import { openDialog } from "./dialog.js";
import { fill, h } from "./dom.js";
import { cardFace } from "./felt.js";
import { describeProblem } from "./messages.js";
import { seatName } from "./seating.js";

export async function fetchReview(gameId, round, token) {
  return (await request("GET", `/v1/games/${encodeURIComponent(gameId)}/rounds/${round}/review`, { token })).body;
}

// A move as the review names it: {bid}, {card}; with the house rules {look: true}, {bid, blind: true}, {pass}.
const bidText = (move) => `${move.blind ? "blind " : ""}${move.bid === 0 ? "nil" : String(move.bid)}`;
const moveText = (move) =>
  "card" in move ? cardShort(move.card) : "look" in move ? "look" : "pass" in move ? move.pass.map(cardShort).join(" ") : bidText(move);
const moveName = (move) =>
  "card" in move ? `the ${cardName(move.card)}` : "look" in move ? "to look first" : "pass" in move ? move.pass.map(cardName).join(" and ") : bidText(move);
const same = (a, b) => moveText(a) === moveText(b);
const pct = (x) => `${Math.round(x * 100)} %`;

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

/** The decision shown at step `k`: the bid at 0 (a blind bid included; the review's house-rules
 * decisions to look and to pass are not stepped through here), the card of trick `k` after. */
function decisionAt(review, k) {
  return review.decisions.find((d) => (k === 0 ? !("trick" in d) && "bid" in d.made : d.trick === k)) || null;
}

function candidatesTable(decision) {
  if (decision.candidates.every((c) => typeof c.value !== "number")) return h("p.note", {}, "Only one move was possible here.");
  const chance = "card" in decision.made ? "Wins the trick" : "Contract made";
  const sorted = [...decision.candidates].sort((a, b) => (b.value ?? -Infinity) - (a.value ?? -Infinity));
  const rows = sorted.filter((c, i) => i < 5 || same(c, decision.made) || same(c, decision.best)); // the top five, yours, hard's
  return h(
    "table.candidates",
    { "data-testid": "review-candidates" },
    h("caption", {}, "What hard expected each move to be worth (points for your side, less the other side's)"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Move"), h("th", { scope: "col" }, "Expected points"), h("th", { scope: "col" }, chance))),
    h(
      "tbody",
      {},
      rows.map((c) => {
        const tags = [same(c, decision.best) ? "hard's choice" : "", same(c, decision.made) ? "yours" : ""].filter(Boolean);
        const figure = c.trick_chance ?? c.make_chance;
        return h(
          "tr",
          { class: [same(c, decision.best) ? "best" : "", same(c, decision.made) ? "yours" : ""].join(" ").trim() || null },
          h("th", { scope: "row" }, moveText(c), tags.length ? h("span.tag", {}, ` ${tags.join(", ")}`) : null),
          h("td", {}, typeof c.value === "number" ? c.value.toFixed(1) : "—"),
          h("td", {}, typeof figure === "number" ? pct(figure) : "—"),
        );
      }),
    ),
  );
}

/** Your move against hard's (the verdict), then the hands (`hands`), then hard's figures. */
function decisionPanel(review, k, hands) {
  const decision = decisionAt(review, k);
  if (!decision) return [h("p.note", { "data-testid": "review-decision" }, "You had no move here."), hands];
  const verb = "card" in decision.made ? ["played", "play"] : ["bid", "bid"];
  const agreed = same(decision.made, decision.best);
  return h(
    "section.review-decision",
    { "aria-label": "Your move and hard's", "data-testid": "review-decision", dataset: { made: moveText(decision.made), best: moveText(decision.best) } },
    h(
      "p.verdict",
      { class: agreed ? "agreed" : "differs" },
      `You ${verb[0]} ${moveName(decision.made)}. `,
      agreed ? "Hard would have done the same." : "look" in decision.best ? "Hard would have looked at its cards first." : `Hard would ${verb[1]} ${moveName(decision.best)}.`,
    ),
    hands,
    candidatesTable(decision),
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
          h("strong", {}, seatName(seat), seat === review.seat ? " (you)" : ""),
          h("span", {}, k === 0 ? ` bid ${bid === 0 ? "nil" : bid}` : played ? ` played ${cardShort(played)}${won ? " and won" : ""}` : ""),
        ),
        h("div.review-cards", {}, hands[seat].map((c) => cardFace(c, { extraClass: `mini${c === played ? " played" : ""}` }))),
      );
    }),
  );
}

function stepLabel(review, k) {
  if (k === 0) return "The bidding";
  const trick = review.tricks[k - 1];
  return `Trick ${k} of 13 — ${seatName(trick.leader)} led, ${seatName(trick.winner)} won`;
}

function renderStep(root, review, k, go) {
  const differs = (i) => {
    const d = decisionAt(review, i);
    return d && !same(d.made, d.best);
  };
  fill(
    root,
    h("h2.panel-title", { id: "review-title" }, `Round ${review.round} review`),
    h(
      "div.review-steps",
      { role: "group", "aria-label": "Steps" },
      Array.from({ length: 14 }, (_, i) =>
        h(
          "button.step",
          {
            type: "button",
            class: `${i === k ? "current" : ""}${differs(i) ? " differs" : ""}`,
            "aria-current": i === k ? "step" : null,
            dataset: { testid: `review-step-${i}` },
            onclick: () => go(i),
          },
          i === 0 ? "Bids" : String(i),
          differs(i) ? h("span.visually-hidden", {}, ", hard differs") : null,
        ),
      ),
    ),
    h("p.note", {}, "Steps underlined in orange are where hard would have moved differently."),
    h(
      "div.review-nav",
      {},
      h("button", { type: "button", disabled: k === 0, onclick: () => go(k - 1), dataset: { testid: "review-previous" } }, "Previous"),
      h("h3.step-title", { "data-testid": "review-step-title", "aria-live": "polite" }, stepLabel(review, k)),
      h("button", { type: "button", disabled: k === 13, onclick: () => go(k + 1), dataset: { testid: "review-next" } }, "Next"),
    ),
    decisionPanel(review, k, handsPanel(review, k)),
  );
}

/** Open the review of finished round `round` in a dialog (loading it first). */
export async function openReview(gameId, round, token) {
  const body = h("div.review", { "data-testid": "review", "aria-busy": "true" }, h("p.loading-note", { role: "status" }, "The computer is going over your moves…"));
  const closed = openDialog(body, { testid: "review-dialog", label: `Round ${round} review`, wide: true });
  try {
    const review = await fetchReview(gameId, round, token);
    let step = 0;
    const go = (k) => {
      const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.testid : null;
      step = Math.max(0, Math.min(13, k));
      renderStep(body, review, step, go);
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
