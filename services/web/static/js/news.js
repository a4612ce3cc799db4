// What the table is told in words (pure): the quick messages' texts, and the short note (a toast)
// when a person sits down, leaves, goes away, comes back or runs out of time.

import { seatName } from "./seating.js";

/** The fixed quick messages (openapi.yaml's `MessageCode`): code -> what the bubble says. */
export const QUICK_MESSAGES = {
  hello: "Hello!",
  good_game: "Good game",
  well_played: "Well played",
  nice_bid: "Nice bid",
  oops: "Oops",
  thanks: "Thanks",
  hurry: "Hurry up, please",
  wow: "Wow!",
};

/** The codes the picker offers: the spec's `MessageCode`, in this order. */
export function messageCodes() {
  return Object.keys(QUICK_MESSAGES);
}

/** A code's words (an unknown code: its words with spaces). */
export function messageText(code) {
  return QUICK_MESSAGES[code] || String(code).replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());
}

/** The toast an event brings for `view` (the seat's view before it), or null. */
export function seatNews(view, event) {
  const data = event.data || {};
  const seat = data.seat;
  const mine = seat === view.you && view.you !== null;
  const name = Number.isInteger(seat) ? seatName(seat) : "";
  switch (event.type) {
    case "seat_claimed":
      return mine || view.phase === "game_over" ? null : `A player sat down at ${name}.`;
    case "seat_left":
      if (mine) return null;
      return view.options && view.options.ai_takeover ? `${name} left the table: a computer plays the seat.` : `${name} left the table.`;
    case "seat_away":
      return mine ? "You're away: the computer plays for you until you're back." : `${name} is away: the computer plays for them.`;
    case "seat_back":
    case "seat_rejoined":
      return mine ? null : `${name} is back.`;
    case "turn_timed_out":
      return mine ? "Your time ran out: the computer moved for you." : `${name} ran out of time: the computer moved for them.`;
    case "rematch_offered":
      return Number.isInteger(seat) && !mine ? `${name} offered a rematch.` : null;
    case "reservation_ended":
      return "The rematch's seats still kept went to computers: anyone may take them.";
    default:
      return null;
  }
}
