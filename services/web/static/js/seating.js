// Who sits where: compass names, the side a seat scores for, where it is drawn around the table.

import { has, t } from "./i18n.js";

const SEAT_KEYS = ["app.seat.south", "app.seat.west", "app.seat.north", "app.seat.east"];
const POSITIONS = ["bottom", "left", "top", "right"];

/** "South", "West", "North", "East" in the page's language. */
export function seatName(seat) {
  return t(SEAT_KEYS[seat]);
}

/** A computer level's name in the page's language ("Hard"); a level the catalogue lacks: its code. */
export function levelName(level) {
  return has(`lobby.level.${level}`) ? t(`lobby.level.${level}`) : String(level);
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
  const names = t("app.seatPair", { a: seatName(side), b: seatName(side + 2) });
  if (view.you === null || view.notYou) return names;
  return t(side === view.you % 2 ? "app.yourTeam" : "app.opponents", { names });
}

/** The player bound to a seat ({id, name, kind}; a computer's is its level), or null. */
export function playerOf(view, seat) {
  const info = view.seats[seat];
  return info && info.player && info.player.name ? info.player : null;
}

/** Who sits at `seat`, as a sentence names them: a person by their name ("Ada"), else the seat ("North"). */
export function personAt(view, seat) {
  const player = view.seats[seat] && view.seats[seat].type === "human" ? playerOf(view, seat) : null;
  return player ? player.name : seatName(seat);
}

/** "You", "Computer · Pro", "Ada" (a person with a name), "Ada · bot", "Player" (no name), "Open seat". */
export function seatKind(view, seat) {
  const info = view.seats[seat];
  if (seat === view.you) return t("app.seatKind.you");
  if (info.type === "ai") return t(info.claimable ? "app.seatKind.standingIn" : "app.seatKind.computer", { level: levelName(info.level) });
  const player = playerOf(view, seat);
  if (info.type === "human") return player ? (player.kind === "bot" ? t("app.seatKind.bot", { name: player.name }) : player.name) : t("app.seatKind.player");
  return t("app.seatKind.open");
}

export function partnerOf(seat) {
  return (seat + 2) % 4;
}
