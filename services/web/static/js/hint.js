// Hints: the one module that knows the hint contract, so the rest of the client stays unchanged
// when it grows. GET /v1/games/{id}/hint with the seat's token →
// {seat, version, level, move: {bid} | {card} | {look: true} | {bid, blind: true} | {pass: [cards]},
//  candidates: [{<a move>, value?, make_chance?, trick_chance?}]} (look, blind bids and passes: house rules);
// 403 hints_disabled, 409 off turn, 503 (Retry-After) when no worker answers. A game allows hints
// when its view's options.hints is true (the create option `options.hints`, default true).

import { request } from "./api.js";
import { cardName } from "./cards.js";

/** Whether this game offers hints to this viewer (a seated player, the game allowing them). */
export function hintsAllowed(view) {
  return view.you !== null && Boolean(view.options && view.options.hints === true);
}

export async function fetchHint(gameId, token) {
  return (await request("GET", `/v1/games/${encodeURIComponent(gameId)}/hint`, { token })).body;
}

/** The suggested move and a sentence for it; `focus` is the focus key of the control that makes it. */
export function describeHint(hint) {
  const move = hint.move || {};
  const same = (c) =>
    "card" in move ? c.card === move.card : "look" in move ? c.look === true : "pass" in move ? false : c.bid === move.bid && Boolean(c.blind) === Boolean(move.blind);
  const best = (hint.candidates || []).find(same);
  const pct = (x) => `${Math.round(x * 100)} %`;
  const made = best && typeof best.make_chance === "number" ? ` (made ${pct(best.make_chance)} of the time)` : "";
  if ("card" in move) {
    const chance = best && typeof best.trick_chance === "number" ? ` (wins the trick ${pct(best.trick_chance)} of the time)` : "";
    return { move, focus: `card-${move.card}`, text: `Suggested: play the ${cardName(move.card)}${chance}.` };
  }
  if ("look" in move) return { move, focus: "look", text: "Suggested: look at your cards before you bid." };
  if ("pass" in move) {
    return { move, focus: `card-${move.pass[0]}`, text: `Suggested: pass the ${move.pass.map(cardName).join(" and the ")}.` };
  }
  if (move.blind) {
    const what = move.bid === 0 ? "blind nil" : `blind ${move.bid}`;
    return { move, focus: move.bid === 0 ? "blind-nil" : `blind-${move.bid}`, text: `Suggested: bid ${what} without looking${made}.` };
  }
  return { move, focus: `bid-${move.bid}`, text: `Suggested: bid ${move.bid === 0 ? "nil" : move.bid}${made}.` };
}
