// Cards as the contract writes them: rank then suit, "QS", "TD"; with the jokers house rule "LJ" and
// "BJ" (Little and Big Joker), which are spades in every respect: the two highest. Suits are told
// apart by symbol and name, never by colour alone.

export const SUITS = {
  S: { symbol: "♠", name: "spades", colour: "black" },
  H: { symbol: "♥", name: "hearts", colour: "red" },
  C: { symbol: "♣", name: "clubs", colour: "black" },
  D: { symbol: "♦", name: "diamonds", colour: "red" },
};
// Hand order: alternating colours, trumps first.
export const SUIT_ORDER = ["S", "H", "C", "D"];
const RANKS = "23456789TJQKA";
const RANK_NAMES = {
  T: "10", J: "jack", Q: "queen", K: "king", A: "ace",
};
const RANK_SHORT = { T: "10" };
export const JOKERS = { LJ: "Little Joker", BJ: "Big Joker" };

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

/** The face shown on a card: "10", "Q", … ("★" for a joker). */
export function rankLabel(code) {
  return isJoker(code) ? "★" : RANK_SHORT[code[0]] || code[0];
}

/** "queen of spades", "Big Joker", for screen readers and messages. */
export function cardName(code) {
  if (isJoker(code)) return JOKERS[code];
  const rank = RANK_NAMES[code[0]] || code[0];
  return `${rank} of ${SUITS[code[1]].name}`;
}

/** "Q♠", "Big Joker" */
export function cardShort(code) {
  return isJoker(code) ? JOKERS[code] : `${rankLabel(code)}${SUITS[code[1]].symbol}`;
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
