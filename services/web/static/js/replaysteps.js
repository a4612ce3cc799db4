// A recorded game (GET /v1/games/{id}/record) taken apart into the moves a replay steps through,
// and the table as it stood after any of them (pure: no DOM). Each round is: the deal, the four
// bids from the dealer's left (blind bids marked), with the nil exchange each pass of cards, then
// the 52 cards trick by trick, and the round's score.

import { formatList, t } from "./i18n.js";

export const SEATS = [0, 1, 2, 3];

/** Every step of the game in order: [{round (index into record.rounds), kind: "deal" | "bid" | "pass" |
 * "card" | "scored", seat?, bid?, blind?, cards?, card?, trick? (0-12), at? (0-3 within the trick)}]. */
export function replaySteps(record) {
  const steps = [];
  record.rounds.forEach((round, r) => {
    steps.push({ round: r, kind: "deal", seat: round.dealer });
    for (let i = 1; i <= 4; i += 1) {
      const seat = (round.dealer + i) % 4;
      steps.push({ round: r, kind: "bid", seat, bid: round.bids[seat], blind: Boolean(round.blind && round.blind[seat]) });
    }
    if (round.passes) {
      for (let i = 1; i <= 4; i += 1) {
        const seat = (round.dealer + i) % 4;
        if (round.passes[seat] && round.passes[seat].length) steps.push({ round: r, kind: "pass", seat, cards: round.passes[seat] });
      }
    }
    round.tricks.forEach((trick, t) => {
      trick.cards.forEach((c, at) => steps.push({ round: r, kind: "card", seat: c.seat, card: c.card, trick: t, at }));
    });
    steps.push({ round: r, kind: "scored" });
  });
  return steps;
}

/** The index of each round's first step (its deal). */
export function roundStarts(steps) {
  return steps.map((s, i) => (s.kind === "deal" ? i : -1)).filter((i) => i >= 0);
}

/** The step that starts the trick the step `index` belongs to (the round's first card for the bidding),
 * and the next trick's start: [previous, next] trick boundaries for "Previous trick" / "Next trick". */
export function trickBounds(steps, index) {
  const isStart = (i) => steps[i] && ((steps[i].kind === "card" && steps[i].at === 0) || steps[i].kind === "deal");
  let previous = index - 1;
  while (previous > 0 && !isStart(previous)) previous -= 1;
  let next = index + 1;
  while (next < steps.length - 1 && !isStart(next)) next += 1;
  return [Math.max(0, previous), Math.min(steps.length - 1, next)];
}

function sidesOf(record) {
  return record.rules.scoring === "partnership" ? 2 : 4;
}

/**
 * The table after step `index`: {step, round (the record's round), roundNo, dealer, phase ("dealt",
 * "bidding", "passing", "playing", "scored"), bids, blind, hands (each seat's cards now: the nil
 * exchange's cards arrive once every passing seat has chosen), handSizes,
 * trick ([{seat, card}] of the trick on the table), trickWinner (once it is complete), trickNo,
 * tricksWon, scores and bags (before the round; after it once scored), turn (who moves next, or
 * null), gave (the cards each seat has passed so far)}.
 */
export function tableAt(record, steps, index) {
  const step = steps[index];
  const round = record.rounds[step.round];
  const previous = record.rounds[step.round - 1];
  const sides = sidesOf(record);
  const before = { scores: previous ? previous.scores : Array(sides).fill(0), bags: previous ? previous.bags : Array(sides).fill(0) };
  const mine = steps.slice(0, index + 1).filter((s) => s.round === step.round);
  const bids = [null, null, null, null];
  const blind = [false, false, false, false];
  const gave = [[], [], [], []];
  const played = new Set();
  const tricksWon = [0, 0, 0, 0];
  for (const s of mine) {
    if (s.kind === "bid") {
      bids[s.seat] = s.bid;
      blind[s.seat] = s.blind;
    } else if (s.kind === "pass") gave[s.seat] = s.cards;
    else if (s.kind === "card") {
      played.add(s.card);
      if (s.at === 3) tricksWon[round.tricks[s.trick].winner] += 1;
    }
  }
  // a seat's chosen cards leave its hand at once; its partner gets them only once every passing seat has
  // chosen (as at the table: nobody sees what comes in before choosing what goes out)
  const passers = round.passes ? SEATS.filter((s) => round.passes[s] && round.passes[s].length).length : 0;
  const exchanged = passers > 0 && mine.filter((s) => s.kind === "pass").length === passers;
  const hands = SEATS.map((seat) => {
    const partner = (seat + 2) % 4;
    const given = new Set(gave[seat]);
    return [...round.hands[seat].filter((c) => !given.has(c)), ...(exchanged ? gave[partner] : [])].filter((c) => !played.has(c));
  });
  const last = step.kind === "card" ? step : null;
  const trickNo = last ? last.trick : step.kind === "scored" ? 12 : -1;
  const onTable = last ? round.tricks[last.trick].cards.slice(0, last.at + 1) : step.kind === "scored" ? round.tricks[12].cards : [];
  const complete = onTable.length === 4;
  const scored = step.kind === "scored";
  const next = steps[index + 1];
  const turn = next && next.round === step.round && next.kind !== "scored" ? next.seat : null;
  const phase = scored ? "scored" : step.kind === "deal" ? "dealt" : step.kind === "bid" ? (mine.filter((s) => s.kind === "bid").length < 4 ? "bidding" : round.passes ? "passing" : "playing") : step.kind === "pass" ? "passing" : "playing";
  return {
    step,
    round,
    roundNo: round.round,
    dealer: round.dealer,
    phase,
    bids,
    blind,
    hands,
    handSizes: hands.map((h) => h.length),
    trick: onTable,
    trickWinner: complete ? round.tricks[trickNo].winner : null,
    trickNo,
    tricksWon: scored ? [...round.tricks_won] : tricksWon,
    scores: scored ? round.scores : before.scores,
    bags: scored ? round.bags : before.bags,
    turn,
    gave,
  };
}

/** The move of a step in words, as `viewer` (a seat, or null for every hand) may know it. */
export function stepWords(step, { name, cardName, viewer = null }) {
  switch (step.kind) {
    case "deal":
      return t("players.step.deal", { name: name(step.seat) });
    case "bid": {
      const key = `players.step.${step.blind ? "blind" : "bid"}${step.bid === 0 ? "Nil" : ""}`;
      return t(key, { name: name(step.seat), bid: step.bid });
    }
    case "pass": {
      const partner = (step.seat + 2) % 4;
      const sees = viewer === null || viewer === step.seat || viewer === partner;
      const who = { name: name(step.seat), partner: name(partner) };
      return sees ? t("players.step.pass", { ...who, cards: formatList(step.cards.map(cardName)) }) : t("players.step.passHidden", { ...who, count: step.cards.length });
    }
    case "card":
      return t("players.step.card", { name: name(step.seat), card: cardName(step.card) });
    default:
      return t("players.step.scored");
  }
}
