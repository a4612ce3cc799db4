// Your seat follows you: signed in as the player a seat was taken with, this device can take the seat
// (POST …/seats/{seat}/take with the Player-Token): a new seat token kept here, and the device that held it
// watches from its next request. Offered on the game's page and on an invite to your own seat (here), and as
// "Continue" in the lobby's "Your games" (yourgames.js: the player's games in play, on any device).

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { currentPlayer } from "./identity.js";
import { keepSeat } from "./seats.js";
import { seatName } from "./seating.js";

/** The seat of `view` held for `player` (a person's seat taken with it) while the game is on, or null (pure). */
export function playersSeat(view, player = currentPlayer()) {
  if (!player || !view || !Array.isArray(view.seats) || view.phase === "game_over") return null;
  const found = view.seats.find((s) => s.type === "human" && s.player && s.player.id === player.id);
  return found ? found.seat : null;
}

/** Whether `event` hands `seat` to another device of its player (a take or a rejoin elsewhere) (pure). */
export function handsOn(event, seat) {
  return seat !== null && event.type === "seat_rejoined" && event.data && event.data.seat === seat;
}

/** Take `seat` of `gameId` to this device with this browser's player: its new token kept here. */
export async function takeSeatHere(gameId, seat) {
  const player = currentPlayer();
  const taken = await api.takeSeat(gameId, seat, player ? player.token : null);
  keepSeat(gameId, taken.seat, taken.token);
  return taken;
}

/** "North is your seat: you play it on another device" and "Take my seat here"; `onTake(button)`. */
export function takeOffer(seat, onTake) {
  return h(
    "div.take-offer",
    { role: "region", "aria-label": t("seat.take.here"), dataset: { testid: "take-offer" } },
    h("p", {}, t("seat.take.yours", { seat: seatName(seat) })),
    h("button.primary", { type: "button", dataset: { testid: "take-seat", focusKey: "take-seat" }, onclick: (e) => onTake(e.currentTarget) }, t("seat.take.here")),
  );
}
