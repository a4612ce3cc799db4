// Cards as the contract writes them: rank then suit, "QS", "TD". Suits are told apart by symbol
// and name, never by colour alone.

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

export function rankOf(code) {
  return code[0];
}

export function suitOf(code) {
  return code[1];
}

/** The face shown on a card: "10", "Q", … */
export function rankLabel(code) {
  return RANK_SHORT[code[0]] || code[0];
}

/** "queen of spades", for screen readers and messages. */
export function cardName(code) {
  const rank = RANK_NAMES[code[0]] || code[0];
  return `${rank} of ${SUITS[code[1]].name}`;
}

/** "Q♠" */
export function cardShort(code) {
  return `${rankLabel(code)}${SUITS[code[1]].symbol}`;
}

/** The hand sorted by suit (♠ ♥ ♣ ♦), low to high within a suit. */
export function sortHand(cards) {
  return [...cards].sort(
    (a, b) => SUIT_ORDER.indexOf(a[1]) - SUIT_ORDER.indexOf(b[1]) || RANKS.indexOf(a[0]) - RANKS.indexOf(b[0]),
  );
}
