// Hints: the one module that knows the hint contract, so the rest of the client stays unchanged
// when it grows. GET /v1/games/{id}/hint with the seat's token →
// {seat, version, level, move: {bid} | {card}, candidates: [{bid | card, value?, make_chance?, trick_chance?}]};
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

/** The suggested move as {bid} or {card}, and a sentence for it. */
export function describeHint(hint) {
  const move = hint.move || {};
  const best = (hint.candidates || []).find((c) => ("card" in move ? c.card === move.card : c.bid === move.bid));
  const pct = (x) => `${Math.round(x * 100)} %`;
  if ("card" in move) {
    const chance = best && typeof best.trick_chance === "number" ? ` (wins the trick ${pct(best.trick_chance)} of the time)` : "";
    return { move, text: `Suggested: play the ${cardName(move.card)}${chance}.` };
  }
  const chance = best && typeof best.make_chance === "number" ? ` (made ${pct(best.make_chance)} of the time)` : "";
  return { move, text: `Suggested: bid ${move.bid === 0 ? "nil" : move.bid}${chance}.` };
}
