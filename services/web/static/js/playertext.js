// The players' pages' shared words (names, profiles, leaderboards, replays, ratings), all from the
// catalogues' `players.…` keys: the boards, the kinds of player, the computer levels, how a seat's
// player is named, a provisional rating's "?", and messages with an element inside (a name in bold, a link).

import { h } from "./dom.js";
import { formatNumber, formatSigned, has, t } from "./i18n.js";

/**
 * The provisional rule's count of rated games (services/ratings/provisional.py, PROVISIONAL_GAMES; its other
 * line, sigma 4.0, the words call "sure enough"): what the "?" explains. tests/web/test_players_logic.py
 * holds the two equal.
 */
export const PROVISIONAL_GAMES = 30;

/** A rating as the pages show it: the language's digits, no grouping ("1522", as ratings are written). */
export function formatRating(value) {
  return formatNumber(value, { useGrouping: false });
}

/** A rating's text (pure): "1522", or "1522?" while it is provisional (too few games, or not sure enough yet). */
export function ratingText(value, provisional = false) {
  return provisional ? `${formatRating(value)}?` : formatRating(value);
}

/** Why a rating has its "?", in a sentence (a tooltip's, and the profile's). */
export function provisionalWhy() {
  return t("players.provisional.why", { games: PROVISIONAL_GAMES });
}

/**
 * A rating as an element (`tag`: "strong" where it stands out): a provisional one reads "1522?", its title
 * says why and screen readers hear "provisional" instead of a question mark.
 */
export function ratingMark(value, provisional = false, tag = "span") {
  if (!provisional) return h(tag, {}, formatRating(value));
  return h(
    `${tag}.provisional`,
    { title: provisionalWhy(), dataset: { provisional: "true" } },
    formatRating(value),
    h("span.provisional-mark", { "aria-hidden": "true" }, "?"),
    h("span.visually-hidden", {}, ` (${t("players.provisional")})`),
  );
}

/** A rating's change: "+12", "-8". */
export function formatChange(value) {
  return formatSigned(value);
}

/** The boards' codes, in the order the pages show them. */
export const BOARD_CODES = ["partnership", "individual"];

/** "Partnership", "Individual" (a board's code otherwise). */
export function boardName(board) {
  return has(`players.board.${board}`) ? t(`players.board.${board}`) : String(board);
}

/** "Person", "Bot", "Computer level" (a player's kind). */
export function kindName(kind) {
  return has(`players.kind.${kind}`) ? t(`players.kind.${kind}`) : String(kind);
}

/** A computer level's name in the language ("hard" -> "sulit"); an unknown level as the server names it. */
export function levelName(level) {
  return level && has(`players.level.${level}`) ? t(`players.level.${level}`) : String(level || "");
}

/** "Computer · hard" for a level. */
export function computerName(level) {
  return t("players.computer", { level: levelName(level) });
}

/** A player as a page names it: a computer level as "Computer · level", anyone else by name. */
export function playerName(player) {
  return player.kind === "computer" ? computerName(player.name) : player.name;
}

/**
 * The message `key` as a list of strings and elements: each `{name}` of `elements` is replaced by
 * that element (a name in <strong>, a link), the other placeholders filled from `params`.
 */
export function tParts(key, params = {}, elements = {}) {
  const text = t(key, params);
  const names = Object.keys(elements);
  if (!names.length) return [text];
  const pattern = new RegExp(`\\{(${names.join("|")})\\}`, "g");
  const parts = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push(elements[match[1]]);
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}
