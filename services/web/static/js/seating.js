// Who sits where: compass names, the side a seat scores for, where it is drawn around the table.

import { has, t } from "./i18n.js";

/** The seats' names in English (the words of the API's docs); shown, a seat's name is seatName(). */
export const SEAT_NAMES = ["South", "West", "North", "East"];
const POSITIONS = ["bottom", "left", "top", "right"];

/** "South", "Selatan": a seat's compass name in the page's language. */
export function seatName(seat) {
  return t(`table.seat.name.${seat}`);
}

/** The seat drawn at the bottom: yours, or South for a spectator. */
export function bottomSeat(view) {
  return view.you === null ? 0 : view.you;
}

export function positionOf(view, seat) {
  return POSITIONS[(seat - bottomSeat(view) + 4) % 4];
}

export function isPartnership(view) {
  return view.rules.scoring === "partnership";
}

/** The index into `scores`/`bags` that a seat's points go to. */
export function sideOf(view, seat) {
  return isPartnership(view) ? seat % 2 : seat;
}

export function sideName(view, side) {
  if (!isPartnership(view)) return seatName(side);
  const names = t("table.side.names", { a: seatName(side), b: seatName(side + 2) });
  if (view.you === null || view.notYou) return names;
  return t(side === view.you % 2 ? "table.side.yours" : "table.side.theirs", { names });
}

/** The player bound to a seat ({id, name, kind}; a computer's is its level), or null. */
export function playerOf(view, seat) {
  const info = view.seats[seat];
  return info && info.player && info.player.name ? info.player : null;
}

/** "You", "Computer · pro", "Ada" (a person with a name), "Ada · bot", "Player" (no name), "Open seat". */
export function seatKind(view, seat) {
  const info = view.seats[seat];
  if (seat === view.you) return t("table.kind.you");
  if (info.type === "ai") return t(info.claimable ? "table.kind.standingIn" : "table.kind.computer", { level: levelName(info.level) });
  const player = playerOf(view, seat);
  if (info.type === "human") return player ? (player.kind === "bot" ? t("table.kind.bot", { name: player.name }) : player.name) : t("table.kind.player");
  return t("table.kind.open");
}

/** A computer level's name in the page's language (`level.<name>` of the lobby's section), else its code. */
function levelName(level) {
  return has(`lobby.level.${level}`) ? t(`lobby.level.${level}`) : level;
}

export function partnerOf(seat) {
  return (seat + 2) % 4;
}
