// Cards as the contract writes them: rank then suit, "QS", "TD"; with the jokers house rule "LJ" and
// "BJ" (Little and Big Joker), which are spades in every respect: the two highest. Suits are told
// apart by symbol and name, never by colour alone. Names come from the catalogue (table.rank.*,
// table.suit.*); a card's accessible name starts with what it shows ("Q♠, queen of spades").

import { t } from "./i18n.js";

export const SUITS = {
  S: { symbol: "♠", name: "spades", colour: "black" },
  H: { symbol: "♥", name: "hearts", colour: "red" },
  C: { symbol: "♣", name: "clubs", colour: "black" },
  D: { symbol: "♦", name: "diamonds", colour: "red" },
};
// Hand order: alternating colours, trumps first.
export const SUIT_ORDER = ["S", "H", "C", "D"];
const RANKS = "23456789TJQKA";
const NAMED_RANKS = "JQKA"; // table.rank.J …: the others are named by their number
const RANK_SHORT = { T: "10" };
export const JOKERS = { LJ: "table.joker.little", BJ: "table.joker.big" }; // catalogue keys

/** "spades", "sekop": a suit's name in the page's language. */
export function suitName(suit) {
  return t(`table.suit.${suit}`);
}

export function isJoker(code) {
  return code in JOKERS;
}

export function rankOf(code) {
  return isJoker(code) ? code : code[0];
}

/** A joker's suit is spades. */
export function suitOf(code) {
  return isJoker(code) ? "S" : code[1];
}

/** The face shown on a card: "10", "Q", … (a star for a joker: the Big one's filled). */
export function rankLabel(code) {
  if (isJoker(code)) return code === "BJ" ? "★" : "☆";
  return RANK_SHORT[code[0]] || code[0];
}

/** "queen of spades", "Big Joker", for messages. */
export function cardName(code) {
  if (isJoker(code)) return t(JOKERS[code]);
  const rank = NAMED_RANKS.includes(code[0]) ? t(`table.rank.${code[0]}`) : rankLabel(code);
  return t("table.card.name", { rank, suit: suitName(code[1]) });
}

/** "Q♠", "Big Joker" */
export function cardShort(code) {
  return isJoker(code) ? t(JOKERS[code]) : `${rankLabel(code)}${SUITS[code[1]].symbol}`;
}

/** A card's accessible name: what it shows, then its name ("Q♠, queen of spades"; "★ JOKER, Big
 * Joker"; a 2♠ above the ace "2♠ HIGH, 2 of spades"), so a name spoken to voice control matches the
 * face (WCAG 2.5.3, label in name). */
export function cardLabel(code, { highDeuce = false } = {}) {
  let short = cardShort(code);
  if (isJoker(code)) short = `${rankLabel(code)} ${t("table.joker.word")}`;
  else if (highDeuce && code === "2S") short = `${short} ${t("table.card.high")}`;
  return t("table.card.label", { short, name: cardName(code) });
}

/** A card's place within its suit, low to high: with deuces high the 2♠ above the A♠, the jokers above all. */
function rankOrder(code, rules) {
  if (code === "LJ") return 20;
  if (code === "BJ") return 21;
  if (code === "2S" && rules && rules.deuces_high) return 15;
  return RANKS.indexOf(code[0]);
}

/** The hand sorted by suit (♠ ♥ ♣ ♦), low to high within a suit (`rules`: the game's, for the
 * jokers and a high 2♠, the highest spades). */
export function sortHand(cards, rules = null) {
  return [...cards].sort(
    (a, b) => SUIT_ORDER.indexOf(suitOf(a)) - SUIT_ORDER.indexOf(suitOf(b)) || rankOrder(a, rules) - rankOrder(b, rules),
  );
}
