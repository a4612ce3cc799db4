// Rated play at the table (pure): whether the game counts, why not, what leaving now costs, and which seats
// forfeited, all read from the view's `fair_play` ({counts, reason, forfeits}; absent or null in a game not
// made to count). The server's rule (services/api/games/fair_play.py): while a game counts there are no hints
// nor round reviews; a person who leaves before the first card aborts it (nobody is rated), after it forfeits.

import { t } from "./i18n.js";

/** The game is made to count, still counts and is not over: hints and reviews are refused. */
export function ratedInPlay(view) {
  return Boolean(view.fair_play && view.fair_play.counts && view.phase !== "game_over");
}

/** A card of the game has been played (the server's `card_played`: past round 1, or a card in it). */
export function cardPlayed(view) {
  return view.round > 1 || (view.trick || []).length > 0 || (view.tricks || []).length > 0;
}

/** What leaving costs now in a game that counts: "abort" (before the first card), "forfeit", or null. */
export function leaveCost(view) {
  if (!ratedInPlay(view) || view.you === null) return null;
  return cardPlayed(view) ? "forfeit" : "abort";
}

/** The table's mark while the game is in play: {rated, text, title} ("Rated", or "Not rated: <why>"), or null. */
export function ratedMark(view) {
  const fair = view.fair_play;
  if (!fair || view.phase === "game_over") return null;
  if (fair.counts) return { rated: true, text: t("table.rated.mark"), title: t("table.rated.title") };
  const why = fair.reason === "shared_client" ? "table.rated.sharedClient" : "table.rated.aborted";
  return { rated: false, text: t(why), title: t(why) };
}

/** The seat's player left or was away after the first card: their side is placed last. */
export function forfeited(view, seat) {
  return Boolean(view.fair_play && (view.fair_play.forfeits || []).includes(seat));
}
