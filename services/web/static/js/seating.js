// Who sits where: compass names, the side a seat scores for, where it is drawn around the table.

export const SEAT_NAMES = ["South", "West", "North", "East"];
const POSITIONS = ["bottom", "left", "top", "right"];

export function seatName(seat) {
  return SEAT_NAMES[seat];
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
  const names = `${seatName(side)} & ${seatName(side + 2)}`;
  if (view.you === null || view.notYou) return names;
  return side === view.you % 2 ? `Your team (${names})` : `Opponents (${names})`;
}

/** The player bound to a seat ({id, name, kind}; a computer's is its level), or null. */
export function playerOf(view, seat) {
  const info = view.seats[seat];
  return info && info.player && info.player.name ? info.player : null;
}

/** "You", "Computer · pro", "Ada" (a person with a name), "Ada · bot", "Player" (no name), "Open seat". */
export function seatKind(view, seat) {
  const info = view.seats[seat];
  if (seat === view.you) return "You";
  if (info.type === "ai") return `Computer · ${info.level}${info.claimable ? " (standing in)" : ""}`;
  const player = playerOf(view, seat);
  if (info.type === "human") return player ? `${player.name}${player.kind === "bot" ? " · bot" : ""}` : "Player";
  return "Open seat";
}

export function partnerOf(seat) {
  return (seat + 2) % 4;
}
