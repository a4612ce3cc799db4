// What the table is told in words (pure): the quick messages' texts, and the short note (a toast)
// when a person sits down, leaves, goes away, comes back, runs out of time or gets time back for the
// service's outage.

import { has, t } from "./i18n.js";
import { seatName } from "./seating.js";

/** The fixed quick messages (openapi.yaml's `MessageCode`), in the picker's order; each one's words
 * are the catalogue's `round.quick.<code>`. */
export const QUICK_MESSAGES = ["hello", "good_game", "well_played", "nice_bid", "oops", "thanks", "hurry", "wow"];

/** The codes the picker offers: the spec's `MessageCode`, in this order. */
export function messageCodes() {
  return [...QUICK_MESSAGES];
}

/** A code's words (an unknown code: its words with spaces). */
export function messageText(code) {
  const key = `round.quick.${code}`;
  return QUICK_MESSAGES.includes(code) && has(key) ? t(key) : String(code).replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());
}

/** The toast an event brings for `view` (the seat's view before it), or null. */
export function seatNews(view, event) {
  const data = event.data || {};
  const seat = data.seat;
  const mine = seat === view.you && view.you !== null;
  const name = Number.isInteger(seat) ? seatName(seat) : "";
  switch (event.type) {
    case "seat_claimed":
      return mine || view.phase === "game_over" ? null : t("round.news.satDown", { seat: name });
    case "seat_left":
      if (mine) return null;
      return t(view.options && view.options.ai_takeover ? "round.news.leftComputer" : "round.news.left", { seat: name });
    case "seat_away":
      return mine ? t("round.news.youAway") : t("round.news.away", { seat: name });
    case "seat_back":
    case "seat_rejoined":
      return mine ? null : t("round.news.back", { seat: name });
    case "turn_timed_out":
      return mine ? t("round.news.youTimedOut") : t("round.news.timedOut", { seat: name });
    case "clock_credited": {
      const count = Math.round((data.given_ms || 0) / 1000);
      return mine ? t("round.news.youCredited", { count }) : t("round.news.credited", { seat: name, count });
    }
    case "rematch_offered":
      return Number.isInteger(seat) && !mine ? t("round.news.rematch", { seat: name }) : null;
    case "reservation_ended":
      return t("round.news.reservationEnded");
    default:
      return null;
  }
}
