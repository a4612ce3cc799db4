// Reviewing a finished round: step through it, the bidding then trick by trick, with all four hands
// shown (a finished round's deal is public) and, at each of your moves, the move the hint level
// (expert) would have made and how much it expected each candidate to be worth. The analysis comes
// from GET /v1/games/{id}/rounds/{round}/review (computed on the AI workers; only for finished rounds).

import { request } from "./api.js";
import { cardName, cardShort, sortHand } from "./cards.js";
import { openDialog } from "./dialog.js";
import { fill, h } from "./dom.js";
import { cardFace } from "./felt.js";
import { formatList, formatNumber, t } from "./i18n.js";
import { describeProblem } from "./messages.js";
import { seatName } from "./seating.js";

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
const moveName = (move) =>
  "card" in move
    ? t("round.review.theCard", { card: cardName(move.card) })
    : "look" in move
      ? t("round.review.lookFirst")
      : "pass" in move
        ? formatList(move.pass.map(cardName))
        : bidText(move);
const same = (a, b) => moveText(a) === moveText(b);
const pct = (x) => formatNumber(x, { style: "percent", maximumFractionDigits: 0 });
const points = (x) => formatNumber(x, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/**
 * Whether the hint level (expert) would have moved differently: only when its move was expected to be worth more than
 * yours as the review shows the figures (to 0.1 of a point). A move whose expected points equal the
 * best's — another of equal cards, as 7♠ 8♠ 3♠ at −18.4 each — is as good as the level's.
 */
export function differs(decision) {
  if (!decision || same(decision.made, decision.best)) return false;
  const value = (move) => {
    const found = decision.candidates.find((c) => same(c, move));
    return found && typeof found.value === "number" ? found.value : null;
  };
  const made = value(decision.made);
  const best = value(decision.best);
  if (made === null || best === null) return true;
  const shown = (x) => Math.round(x * 10); // in tenths, as the table shows them (−0.0 and 0.0 alike)
  return shown(best) > shown(made);
}

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
  if (decision.candidates.every((c) => typeof c.value !== "number")) return h("p.note", {}, t("round.review.onlyMove"));
  const chance = "card" in decision.made ? t("round.review.trickChance") : t("round.review.makeChance");
  const sorted = [...decision.candidates].sort((a, b) => (b.value ?? -Infinity) - (a.value ?? -Infinity));
  const rows = sorted.filter((c, i) => i < 5 || same(c, decision.made) || same(c, decision.best)); // the top five, yours, expert's
  return h(
    "table.candidates",
    { "data-testid": "review-candidates" },
    h("caption", {}, t("round.review.caption")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("round.review.move")), h("th", { scope: "col" }, t("round.review.expected")), h("th", { scope: "col" }, chance))),
    h(
      "tbody",
      {},
      rows.map((c) => {
        const tags = [same(c, decision.best) ? t("round.review.levelsChoice") : "", same(c, decision.made) ? t("round.review.yours") : ""].filter(Boolean);
        const figure = c.trick_chance ?? c.make_chance;
        return h(
          "tr",
          { class: [same(c, decision.best) ? "best" : "", same(c, decision.made) ? "yours" : ""].join(" ").trim() || null },
          h("th", { scope: "row" }, moveShown(c), tags.length ? h("span.tag", {}, ` ${tags.join(", ")}`) : null),
          h("td", {}, typeof c.value === "number" ? points(c.value) : "—"),
          h("td", {}, typeof figure === "number" ? pct(figure) : "—"),
        );
      }),
    ),
  );
}

/** Your move against expert's (the verdict), then the hands (`hands`), then expert's figures. */
function decisionPanel(review, k, hands) {
  const decision = decisionAt(review, k);
  if (!decision) return [h("p.note", { "data-testid": "review-decision" }, t("round.review.noMove")), hands];
  const card = "card" in decision.made;
  const yours = t(card ? "round.review.youPlayed" : "round.review.youBid", { move: moveName(decision.made) });
  let verdict;
  if (same(decision.made, decision.best)) verdict = t("round.review.same");
  else if (!differs(decision)) verdict = t("round.review.asGood", { move: moveName(decision.best) });
  else if ("look" in decision.best) verdict = t("round.review.wouldLook");
  else verdict = t(card ? "round.review.wouldPlay" : "round.review.wouldBid", { move: moveName(decision.best) });
  if (typeof decision.given_away === "number" && decision.given_away > 0) {
    verdict = `${verdict} ${t("round.review.gaveAway", { points: formatNumber(decision.given_away, { maximumFractionDigits: 1 }) })}`;
  }
  return h(
    "section.review-decision",
    { "aria-label": t("round.review.decision"), "data-testid": "review-decision", dataset: { made: moveText(decision.made), best: moveText(decision.best) } },
    h("p.verdict", { class: differs(decision) ? "differs" : "agreed", dataset: { testid: "review-verdict" } }, `${yours} ${verdict}`),
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

/** The round's accuracy: the share of your moves within a few points of expert's best, and the points given
 * away per move (nothing when no move was scored). */
export function accuracyLine(accuracy) {
  if (!accuracy || !accuracy.decisions || accuracy.accurate_share === null) return null;
  const share = formatNumber(accuracy.accurate_share, { style: "percent" });
  const away = formatNumber(Number(accuracy.mean_given_away || 0), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return h("p.review-accuracy", { dataset: { testid: "review-accuracy" } }, t("round.review.accuracy", { share, away, count: accuracy.decisions }));
}

function stepLabel(review, k) {
  if (k === 0) return t("round.review.bidding");
  const trick = review.tricks[k - 1];
  return t("round.review.trick", { trick: k, leader: seatName(trick.leader), winner: seatName(trick.winner) });
}

function renderStep(root, review, k, go) {
  const differsAt = (i) => differs(decisionAt(review, i));
  fill(
    root,
    h("h2.panel-title", { id: "review-title" }, t("round.review.title", { round: review.round })),
    h(
      "div.review-steps",
      { role: "group", "aria-label": t("round.review.steps") },
      Array.from({ length: 14 }, (_, i) =>
        h(
          "button.step",
          {
            type: "button",
            class: `${i === k ? "current" : ""}${differsAt(i) ? " differs" : ""}`,
            "aria-current": i === k ? "step" : null,
            dataset: { testid: `review-step-${i}` },
            onclick: () => go(i),
          },
          i === 0 ? t("round.review.bids") : formatNumber(i),
          differsAt(i) ? h("span.visually-hidden", {}, t("round.review.stepDiffers")) : null,
        ),
      ),
    ),
    accuracyLine(review.accuracy),
    h("p.note", {}, t("round.review.legend")),
    h(
      "div.review-nav",
      {},
      h("button", { type: "button", disabled: k === 0, onclick: () => go(k - 1), dataset: { testid: "review-previous" } }, t("round.review.previous")),
      h("h3.step-title", { "data-testid": "review-step-title", "aria-live": "polite" }, stepLabel(review, k)),
      h("button", { type: "button", disabled: k === 13, onclick: () => go(k + 1), dataset: { testid: "review-next" } }, t("round.review.next")),
    ),
    decisionPanel(review, k, handsPanel(review, k)),
  );
}

/** Open the review of finished round `round` in a dialog (loading it first). */
export async function openReview(gameId, round, token) {
  const body = h("div.review", { "data-testid": "review", "aria-busy": "true" }, h("p.loading-note", { role: "status" }, t("round.review.loading")));
  const buttons = [{ label: t("round.review.close"), value: "close", primary: true }];
  const closed = openDialog(body, { testid: "review-dialog", label: t("round.review.title", { round }), wide: true, buttons });
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
