// Why a card in your hand can't be played now, in a player's words (pure: no DOM). The server's
// `legal` list decides what may be played; this only explains a refusal, the way the engine's rules
// do (services/engine/play.py): follow the suit led if you can; no spade lead before spades are
// broken unless you hold nothing else.

import { SUITS, suitOf } from "./cards.js";
import { seatName } from "./seating.js";

/** A sentence for clicking `card` when it is not in the view's `legal` list; "" when it is legal. */
export function whyUnplayable(view, card, { myTurn }) {
  if (view.legal.includes(card) && myTurn) return "";
  if (view.phase === "bidding") return "Cards are played once everyone has bid.";
  if (view.phase !== "playing") return "No card can be played now.";
  if (!myTurn) {
    if (view.turn === null || view.turn === undefined) return "Wait for the trick to be cleared.";
    return `It's ${seatName(view.turn)}'s turn to play, not yours yet.`;
  }
  const hand = view.hand || [];
  if (view.trick.length) {
    const led = suitOf(view.trick[0].card);
    if (suitOf(card) !== led && hand.some((c) => suitOf(c) === led)) {
      return `You must follow ${SUITS[led].name}: you still hold ${hand.filter((c) => suitOf(c) === led).length === 1 ? "one" : "some"}.`;
    }
  } else if (suitOf(card) === "S" && !view.spades_broken && view.rules.spades_must_be_broken && hand.some((c) => suitOf(c) !== "S")) {
    return "Spades aren't broken yet: lead another suit.";
  }
  return "That card can't be played now.";
}
