// Why a card in your hand can't be played now, in a player's words (pure: no DOM). The server's
// `legal` list decides what may be played; this only explains a refusal, the way the engine's rules
// do (services/engine/play.py): follow the suit led if you can; no spade lead before spades are
// broken unless you hold nothing else.

import { suitOf } from "./cards.js";
import { t } from "./i18n.js";
import { seatName } from "./seating.js";

/** A sentence for clicking `card` when it is not in the view's `legal` list; "" when it is legal. */
export function whyUnplayable(view, card, { myTurn }) {
  if (view.legal.includes(card) && myTurn) return "";
  if (view.phase === "bidding") return t("round.reason.bidding");
  if (view.phase !== "playing") return t("round.reason.notNow");
  if (!myTurn) {
    if (view.turn === null || view.turn === undefined) return t("round.reason.wait");
    return t("round.reason.otherTurn", { seat: seatName(view.turn) });
  }
  const hand = view.hand || [];
  if (view.trick.length) {
    const led = suitOf(view.trick[0].card);
    if (suitOf(card) !== led && hand.some((c) => suitOf(c) === led)) {
      return t(`round.reason.follow${led}`, { count: hand.filter((c) => suitOf(c) === led).length });
    }
  } else if (suitOf(card) === "S" && !view.spades_broken && view.rules.spades_must_be_broken && hand.some((c) => suitOf(c) !== "S")) {
    return t("round.reason.spadesNotBroken");
  }
  return t("round.reason.cannot");
}
