"""Cards and card sets as 52-bit integer masks.

This is the engine's fast representation and the one module the AI worker's
simulation kernel builds on, so its surface is small and stable:

* a card is an index ``suit * 13 + rank`` (suits C=0, D=1, H=2, S=3;
  rank 0 is the deuce, 12 the ace), so a higher index in the same suit is a
  higher card, and every spade outranks every other card;
* a set of cards is an ``int`` with bit ``index`` set for each card;
* card codes are rank then suit, ``T`` for ten: ``2C`` ... ``TD`` ... ``AS``;
* the house rules extend the indexes past 51 and keep both facts true:
  52 is the 2 of spades ranked above the ace (deuces high; 39 is then out of
  the deck), 53 the Little Joker (``LJ``), 54 the Big Joker (``BJ``), all
  spades.  :class:`Deck` (``Rules.deck``) says which cards a game deals and
  maps codes to indexes; only ``"2S"`` depends on it.

Everything here is a pure function of its arguments.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

SUITS = "CDHS"
RANKS = "23456789TJQKA"
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
CARDS_PER_SUIT = 13
DECK_SIZE = 52

LOW_DEUCE_OF_SPADES = SPADES * CARDS_PER_SUIT  # 39: the 2 of spades in the standard ranking
HIGH_DEUCE_OF_SPADES = 52  # the 2 of spades above the ace (deuces high)
LITTLE_JOKER = 53
BIG_JOKER = 54
INDEX_LIMIT = 55  # every index is below this

SUIT_MASKS: tuple[int, ...] = tuple(((1 << 13) - 1) << (13 * s) for s in range(3)) + (
    ((1 << 16) - 1) << LOW_DEUCE_OF_SPADES,  # 39..54: the extended indexes are all spades
)
SPADE_MASK = SUIT_MASKS[SPADES]
FULL_DECK = (1 << DECK_SIZE) - 1  # the standard 52-card deck

_CODE_TO_INDEX = {r + s: si * 13 + ri for si, s in enumerate(SUITS) for ri, r in enumerate(RANKS)}
_INDEX_TO_CODE = tuple(sorted(_CODE_TO_INDEX, key=_CODE_TO_INDEX.__getitem__)) + ("2S", "LJ", "BJ")
_JOKER_CODES = {"LJ": LITTLE_JOKER, "BJ": BIG_JOKER}
CARD_CODES: tuple[str, ...] = _INDEX_TO_CODE  # CARD_CODES[index] is card_code(index), for hot loops
SUIT_OF: tuple[int, ...] = tuple(min(i // CARDS_PER_SUIT, SPADES) for i in range(INDEX_LIMIT))


def suit_of(card: int) -> int:
    """The suit (0..3) of a card index."""
    return SUIT_OF[card]


@dataclass(frozen=True, slots=True)
class Deck:
    """The cards a game deals, and its code-to-index mapping (the one place that depends on the rules)."""

    jokers: bool
    deuces_high: bool

    @property
    def cards(self) -> int:
        """The deck as a card set: always 52 cards."""
        return _deck_cards(self.jokers, self.deuces_high)

    def parse(self, code: str) -> int:
        """The index of a card code of this deck; raises ``ValueError`` for anything else."""
        index = _JOKER_CODES.get(code) if isinstance(code, str) else None
        if index is None:
            index = parse_card(code)
            if index == LOW_DEUCE_OF_SPADES and self.deuces_high:
                index = HIGH_DEUCE_OF_SPADES
        if not self.cards >> index & 1:
            raise ValueError(f"not a card of this deck: {code!r}")
        return index


@functools.cache
def _deck_cards(jokers: bool, deuces_high: bool) -> int:
    cards = FULL_DECK
    if deuces_high:
        cards = cards & ~(1 << LOW_DEUCE_OF_SPADES) | 1 << HIGH_DEUCE_OF_SPADES
    if jokers:
        cards = cards & ~(1 << 0 | 1 << DIAMONDS * CARDS_PER_SUIT) | 1 << LITTLE_JOKER | 1 << BIG_JOKER
    return cards


STANDARD_DECK = Deck(jokers=False, deuces_high=False)


def card_code(card: int) -> str:
    """``card_code(50) == "KS"``."""
    return _INDEX_TO_CODE[card]


def parse_card(code: str) -> int:
    """The index of one of the 52 standard card codes; raises ``ValueError`` for anything else.

    A game with house rules parses with its ``rules.deck.parse`` (jokers, the high 2 of spades)."""
    try:
        return _CODE_TO_INDEX[code]
    except (KeyError, TypeError):
        raise ValueError(f"not a card code: {code!r}") from None


def is_card_code(code: object) -> bool:
    """True for exactly the 54 card codes: the 52 standard ones and the jokers ``LJ`` and ``BJ``."""
    return isinstance(code, str) and (code in _CODE_TO_INDEX or code in _JOKER_CODES)


def bit(card: int) -> int:
    """The one-card set holding ``card``."""
    return 1 << card


def mask_of(cards: Iterable[int]) -> int:
    """The set holding each card index in ``cards``."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_in(mask: int) -> Iterator[int]:
    """The card indices of a set, lowest index first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def codes(mask: int) -> list[str]:
    """The card codes of a set, clubs first and low to high within a suit."""
    return [_INDEX_TO_CODE[c] for c in cards_in(mask)]


def count(mask: int) -> int:
    """How many cards a set holds."""
    return mask.bit_count()


def lowest(mask: int) -> int:
    """The lowest-index card of a non-empty set."""
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    """The highest-index card of a non-empty set."""
    return mask.bit_length() - 1


def lowest_by_rank(mask: int) -> int:
    """The card of lowest rank in a non-empty set (ties: lowest suit).

    Used by strategies that "play their lowest card" across suits.
    """
    for rank in range(13):
        row = mask & (0x0008004002001 << rank)  # that rank in each suit
        if row:
            return lowest(row)
    if mask >> DECK_SIZE:  # the high 2 of spades and the jokers rank above every ace
        return lowest(mask >> DECK_SIZE) + DECK_SIZE
    raise ValueError("empty card set")


def highest_by_rank(mask: int) -> int:
    """The card of highest rank in a non-empty set (ties: highest suit)."""
    if mask >> DECK_SIZE:
        return highest(mask)
    for rank in range(12, -1, -1):
        row = mask & (0x0008004002001 << rank)
        if row:
            return highest(row)
    raise ValueError("empty card set")


def legal_cards(hand: int, led_suit: int | None, spades_broken: bool, must_break: bool = True) -> int:
    """The cards of ``hand`` that may be played.

    ``led_suit`` is None when leading. Following: cards of the led suit if the
    hand has any (must follow suit), else the whole hand. Leading: anything but
    spades until spades are broken, unless the hand holds only spades.
    """
    if led_suit is not None:
        follow = hand & SUIT_MASKS[led_suit]
        return follow or hand
    if must_break and not spades_broken:
        return (hand & ~SPADE_MASK) or hand
    return hand


def trick_winner_card(trick_cards: int, led_suit: int) -> int:
    """The winning card of a trick given as a set: the highest spade, else the
    highest card of the led suit."""
    spades = trick_cards & SPADE_MASK
    if spades:
        return highest(spades)
    return highest(trick_cards & SUIT_MASKS[led_suit])


def beats(card: int, best: int) -> bool:
    """Whether ``card`` played to a trick beats the trick's current ``best``."""
    card_suit, best_suit = SUIT_OF[card], SUIT_OF[best]
    if card_suit == best_suit:
        return card > best
    return card_suit == SPADES
