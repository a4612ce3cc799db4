// The scoreboard: per side its score, its contract and the tricks taken toward it this round
// ("Bid 6 · won 4"), its bags toward the penalty ("bags 7/10") and each nil alive or set.

import { h } from "./dom.js";
import { formatNumber, t } from "./i18n.js";
import { isPartnership, seatName, sideOf } from "./seating.js";
import { bagsToward, contractOf, nilsOf, seatsOfSide } from "./tracking.js";

function contractLine(view, side) {
  if (view.phase === "waiting") return t("round.score.notStarted");
  const c = contractOf(view, side);
  if (!c.complete) {
    const partial = seatsOfSide(view.rules, side).map((s) => view.bids[s]).filter((b) => b !== null && b > 0);
    return partial.length ? t("round.score.bidSoFar", { bid: partial.reduce((a, b) => a + b, 0) }) : t("round.score.bidUnknown");
  }
  if (c.bid === 0) return t("round.score.nilOnly", { won: c.taken });
  const state = c.made ? " ✓" : c.set ? " ✗" : "";
  return `${t("round.score.contract", { bid: c.bid, won: c.taken })}${state}`;
}

function contractState(view, side) {
  const c = contractOf(view, side);
  return c.made ? "made" : c.set ? "set" : "open";
}

function nilLine(view, side) {
  const seats = seatsOfSide(view.rules, side);
  const nils = nilsOf(view).filter((n) => seats.includes(n.seat));
  if (!nils.length || view.phase === "bidding") return null;
  return h(
    "span.score-nils",
    {},
    nils.map((n) => {
      const state = !n.alive ? "Set" : view.phase === "game_over" ? "Made" : "Alive"; // the game's end: a nil kept was made
      const key = `round.score.${view.blind && view.blind[n.seat] ? "blindNil" : "nil"}${state}`;
      return h(`span.nil-chip.${n.alive ? "alive" : "set"}`, {}, t(key, { seat: seatName(n.seat) }));
    }),
  );
}

/**
 * A side's name in the page's words: {name, members} — "Your team" and "South & North" for your
 * side, "Opponents" for the other, the members alone for a spectator, a seat alone with individual
 * scoring (members null).
 */
export function sideLabel(view, side) {
  if (!isPartnership(view)) return { name: seatName(side), members: null };
  const members = t("round.side.members", { first: seatName(side), second: seatName(side + 2) });
  if (view.you === null || view.notYou) return { name: members, members: null };
  return { name: t(side === view.you % 2 ? "round.side.yourTeam" : "round.side.opponents"), members };
}

/** "Your team (South & North)": the members in their own span, which narrow screens hide. */
function scoreName(label) {
  if (!label.members) return h("span.score-name", {}, label.name);
  return h("span.score-name", {}, label.name, h("span.score-members", {}, ` ${t("round.side.membersShown", { members: label.members })}`));
}

export function scoreboard(view) {
  return h(
    "section.scoreboard",
    { "aria-label": t("round.score.label"), "data-testid": "scoreboard", class: view.scores.length > 2 ? "four" : "" },
    view.scores.map((score, side) => {
      const bags = bagsToward(view, side);
      const mine = view.you !== null && sideOf(view, view.you) === side;
      return h(
        "div",
        { class: `score-side${mine ? " mine" : ""}`, dataset: { testid: `score-${side}`, contract: contractState(view, side) } },
        h(
          "div.score-top",
          {},
          scoreName(sideLabel(view, side)),
          h(
            "span",
            { class: `score-bags${bags.close ? " close" : ""}`, dataset: { testid: `bags-${side}` } },
            bags.penalty > 0 ? t("round.score.bagsOf", { bags: bags.bags, limit: bags.limit }) : t("round.score.bags", { bags: bags.bags }),
          ),
          h("span.score-points", { dataset: { testid: `points-${side}` } }, formatNumber(score)),
        ),
        h("div.score-line", {}, h("span.score-contract", { dataset: { testid: `contract-${side}` } }, contractLine(view, side)), nilLine(view, side)),
      );
    }),
  );
}
