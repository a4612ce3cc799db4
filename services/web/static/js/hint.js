// Hints: the one module that knows the hint contract, so the rest of the client stays unchanged
// when it grows. GET /v1/games/{id}/hint with the seat's token →
// {seat, version, level, move: {bid} | {card} | {look: true} | {bid, blind: true} | {pass: [cards]},
//  candidates: [{<a move>, value?, make_chance?, trick_chance?}]} (look, blind bids and passes: house rules);
// 403 hints_disabled, 409 off turn, 503 (Retry-After) when no worker answers. A game allows hints
// when its view's options.hints is true (the create option `options.hints`, default true).

import { request } from "./api.js";
import { cardName } from "./cards.js";
import { ratedInPlay } from "./fairplay.js";
import { formatList, formatNumber, t } from "./i18n.js";

/** Whether this game offers hints to this viewer (a seated player, the game allowing them, and not a rated
 * game in play: the server refuses those with 409 rated_game). */
export function hintsAllowed(view) {
  return view.you !== null && Boolean(view.options && view.options.hints === true) && !ratedInPlay(view);
}

export async function fetchHint(gameId, token) {
  return (await request("GET", `/v1/games/${encodeURIComponent(gameId)}/hint`, { token })).body;
}

/**
 * The suggested move and a sentence for it; `focus` is the focus key of the control that makes it,
 * `cards` the cards of the hand to mark (the card to play, the cards to pass). The figures are the
 * hint payload's: `trick_chance` is your side's chance of taking the trick (your partner's card may
 * take it), `make_chance` your side's chance of making its contract (for a nil: of taking no trick).
 */
export function describeHint(hint) {
  const move = hint.move || {};
  const same = (c) =>
    "card" in move ? c.card === move.card : "look" in move ? c.look === true : "pass" in move ? false : c.bid === move.bid && Boolean(c.blind) === Boolean(move.blind);
  const best = (hint.candidates || []).find(same);
  const pct = (x) => formatNumber(x, { style: "percent", maximumFractionDigits: 0 });
  const made = best && typeof best.make_chance === "number" ? t(move.bid === 0 ? "round.hint.nilChance" : "round.hint.makeChance", { chance: pct(best.make_chance) }) : "";
  if ("card" in move) {
    const chance = best && typeof best.trick_chance === "number" ? t("round.hint.trickChance", { chance: pct(best.trick_chance) }) : "";
    return { move, focus: `card-${move.card}`, cards: [move.card], text: t("round.hint.play", { card: cardName(move.card), chance }) };
  }
  if ("look" in move) return { move, focus: "look", cards: [], text: t("round.hint.look") };
  if ("pass" in move) {
    return { move, focus: `card-${move.pass[0]}`, cards: [...move.pass], text: t("round.hint.pass", { cards: formatList(move.pass.map(cardName)) }) };
  }
  if (move.blind) {
    const text = move.bid === 0 ? t("round.hint.blindNil", { chance: made }) : t("round.hint.blindBid", { bid: move.bid, chance: made });
    return { move, focus: move.bid === 0 ? "blind-nil" : `blind-${move.bid}`, cards: [], text };
  }
  const text = move.bid === 0 ? t("round.hint.nil", { chance: made }) : t("round.hint.bid", { bid: move.bid, chance: made });
  return { move, focus: `bid-${move.bid}`, cards: [], text };
}
