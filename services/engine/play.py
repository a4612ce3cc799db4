"""Trick-play rules: following suit and breaking spades."""

from __future__ import annotations

from . import errors as E
from .cards import SPADE_MASK, SPADES, SUIT_MASKS, bit, legal_cards, suit_of
from .state import GameState, current_trick, spades_broken


def led_suit(state: GameState) -> int | None:
    """The suit led to the current trick, None when the next card leads."""
    trick = current_trick(state)
    return suit_of(trick[0]) if trick else None


def legal_plays(state: GameState, seat: int) -> int:
    """The set of cards ``seat`` may play now (the mask of legal moves)."""
    return legal_cards(state.hands[seat], led_suit(state), spades_broken(state), state.rules.spades_must_be_broken)


def must_follow_suit(hand: int, suit: int | None, card: int) -> bool:
    """Playing ``card`` would break the duty to follow the led ``suit``."""
    return suit is not None and suit_of(card) != suit and bool(hand & SUIT_MASKS[suit])


def leads_unbroken_spade(state: GameState, hand: int, card: int) -> bool:
    """Leading ``card`` would lead spades before they are broken while the
    hand still holds another suit."""
    return (
        state.rules.spades_must_be_broken
        and led_suit(state) is None
        and suit_of(card) == SPADES
        and bool(hand & ~SPADE_MASK)
        and not spades_broken(state)
    )


def play_error(state: GameState, seat: int, card: int) -> str | None:
    """The reason ``seat`` may not play ``card`` now, or None."""
    hand = state.hands[seat]
    if not hand & bit(card):
        return E.CARD_NOT_IN_HAND
    if must_follow_suit(hand, led_suit(state), card):
        return E.MUST_FOLLOW_SUIT
    if leads_unbroken_spade(state, hand, card):
        return E.SPADES_NOT_BROKEN
    return None
