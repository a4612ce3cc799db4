// Your seat follows you: signed in as the player a seat was taken with, this device can take the seat
// (POST …/seats/{seat}/take with the Player-Token): a new seat token kept here, and the device that held it
// watches from its next request. Offered on the game's page and on an invite to your own seat (here), and as
// "Continue" in the lobby's "Your games" (yourgames.js: the player's games in play, on any device). A seat is
// also released when the credential that took it dies (`seat_released`: a device signed out, the player token
// rotated): no device holds it then, and its player takes it back the same way.

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { currentPlayer, refreshPlayer } from "./identity.js";
import { keepSeat } from "./seats.js";
import { seatName } from "./seating.js";

/** The seat of `view` held for `player` (a person's seat taken with it) while the game is on, or null (pure). */
export function playersSeat(view, player = currentPlayer()) {
  if (!player || !view || !Array.isArray(view.seats) || view.phase === "game_over") return null;
  const found = view.seats.find((s) => s.type === "human" && s.player && s.player.id === player.id);
  return found ? found.seat : null;
}

/** How `event` hands `seat` on (pure): "rejoined" (to another device of its player: a take or a rejoin
 * elsewhere), "released" (the credential that took it died: no device holds it), or null. */
export function handOff(event, seat) {
  if (seat === null || !event.data || event.data.seat !== seat) return null;
  return { seat_rejoined: "rejoined", seat_released: "released" }[event.type] || null;
}

/**
 * Why this device no longer holds a seat that is still its player's (its token refused), as the catalogue's
 * key: this device's credential is asked about first (a refused one is forgotten and said: identity.js), so a
 * device signed out is told so, not that it plays elsewhere. `handedOff`: how the seat was last seen handed on.
 */
export async function seatLostKey(handedOff) {
  if (!(await refreshPlayer())) return "seat.take.signedOut";
  return handedOff === "released" ? "seat.take.released" : "seat.take.continuedElsewhere";
}

/** The invite page's line under "South is your seat" (pure): another device of the player's at the table (the
 * seat's `connected`), or none: the page closed, or the seat released when the sign-in that took it ended. */
export function inviteLeadKey(info) {
  return info && info.connected ? "seat.take.inviteLead" : "seat.take.inviteAway";
}

/** Take `seat` of `gameId` to this device with this browser's player: its new token kept here. */
export async function takeSeatHere(gameId, seat) {
  const player = currentPlayer();
  const taken = await api.takeSeat(gameId, seat, player ? player.token : null);
  keepSeat(gameId, taken.seat, taken.token);
  return taken;
}

/** "North is your seat: you play it on another device" (`free`: no device holds it) and "Take my seat
 * here"; `onTake(button)`. */
export function takeOffer(seat, onTake, free = false) {
  return h(
    "div.take-offer",
    { role: "region", "aria-label": t("seat.take.here"), dataset: { testid: "take-offer" } },
    h("p", {}, t(free ? "seat.take.free" : "seat.take.yours", { seat: seatName(seat) })),
    h("button.primary", { type: "button", dataset: { testid: "take-seat", focusKey: "take-seat" }, onclick: (e) => onTake(e.currentTarget) }, t("seat.take.here")),
  );
}
