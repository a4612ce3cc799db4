"""The bundles the numba kernel passes around, so no kernel function needs a long argument list.

* ``POSITION``: one seat's view as a numpy record, in a one-element structured array made by
  :func:`services.ai_worker.position.position_of`.  It crosses from Python into compiled code as a
  single array, the cheapest argument numba unboxes, and every entry point of the kernel takes it.
* ``TABLE``: the four seats during a simulated round (cards in hand, tricks won, bids, suits shown
  void in) and the trick's cards, which playouts update in place; :func:`new_table` makes one.
  A function takes the one-element array and opens its record itself (``t = table[0]``): the array
  argument keeps the memory alive while the record is in use, and a record's fields, unlike arrays
  held in a tuple, cost no reference counting in the hot loops.  A ``POSITION`` can stand where a
  ``TABLE`` is read (it has ``won``, ``bids``, ``voids`` and ``trick`` too), for live decisions.
* Named tuples of scalars, free to build and pass: :class:`Rules` (the rule options play reads),
  :class:`House` (the house rules' options of bidding and scoring) and :class:`Trick` (the trick
  in progress, beside its cards).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

_I = np.int64
POSITION = np.dtype(
    [
        ("seat", _I),
        ("hand", _I),  # own cards, a mask (0 while the seat may still bid blind: its hand is hidden)
        ("hidden", np.bool_),  # the own hand is hidden from the seat: sampling deals it too
        ("out", _I),  # every card of the deck neither played nor in the own hand, a mask
        ("unseen", _I, 52),  # those cards as indices, the first n_unseen of them
        ("n_unseen", _I),
        ("sizes", _I, 4),  # cards left in each hand
        ("voids", _I, 4),  # per seat, a 4-bit set of suits it has shown void in
        ("bids", _I, 4),  # -1 for a seat yet to bid (every bid is in while playing)
        ("won", _I, 4),  # tricks won this round
        ("played_by", _I, 4),  # per seat, the cards it has played this round (a mask)
        ("bags", _I, 4),  # per side, before this round
        ("scores", _I, 4),  # per side, before this round
        ("leader", _I),  # the seat leading the current trick (the first seat while bidding)
        ("trick", _I, 4),  # the current trick's cards in play order, the first trick_n of them
        ("trick_n", _I),
        ("broken", np.bool_),
        ("history", _I, 52),  # this round's cards in play order, the first history_n of them
        ("history_n", _I),
        ("first_leader", _I),  # who led the round's first trick
        ("blind", _I),  # the seats that bid blind this round, a 4-bit set
        ("gave", _I),  # the cards this seat gave its partner in the nil exchange (still theirs unless played)
        ("received", _I),  # the cards it received from its partner (in the partner's hand at the deal)
        # the rules, as Rules below
        ("partnership", np.bool_),
        ("must_break", np.bool_),
        ("nil_counts", np.bool_),
        ("nil_allowed", np.bool_),
        ("nil_value", _I),
        ("set_negative", np.bool_),
        ("bag_limit", _I),
        ("bag_penalty", _I),
        ("win_score", _I),
        ("has_lose_score", np.bool_),
        ("lose_score", _I),
        ("deck", _I),
        ("blind_nil_value", _I),
        ("suicide", np.bool_),
        ("suicide_minimum", _I),
        ("ten_for_200", np.bool_),
        ("ten_for_200_value", _I),
        ("mercy_margin", _I),
        ("boston", np.bool_),
        ("pass_cards", _I),
        ("pass_blind_only", np.bool_),
    ]
)


TABLE = np.dtype([("hands", _I, 4), ("won", _I, 4), ("bids", _I, 4), ("voids", _I, 4), ("trick", _I, 4)])


class Rules(NamedTuple):
    """The rule options the kernel reads (``services.engine.rules.Rules``, as numbers)."""

    partnership: bool
    must_break: bool  # spades_must_be_broken
    nil_counts: bool  # nil_tricks_count_for_team
    nil_allowed: bool
    nil_value: int
    set_negative: bool  # set_penalty == "negative"
    bag_limit: int
    bag_penalty: int
    win_score: int
    has_lose_score: bool
    lose_score: int
    deck: int  # the 52 card indexes the game deals (Rules.deck.cards)


class House(NamedTuple):
    """The house rules' options that bidding and scoring read (the playouts need only :class:`Rules`:
    apart, so the play's hot calls carry no more arguments than the standard game needs)."""

    blind_nil_value: int
    suicide: bool
    suicide_minimum: int  # the non-nil partner's smallest bid under suicide
    ten_for_200: bool
    ten_for_200_value: int
    mercy_margin: int  # 0: no mercy rule
    boston: bool  # a contract of all 13 tricks is worth BOSTON_VALUE
    pass_cards: int  # nil_pass_cards: 0 for no exchange
    pass_blind_only: bool  # nil_pass_blind_only


class Trick(NamedTuple):
    """The trick in progress (its cards are the table's ``trick``): how many
    cards are down, who led, whether spades were broken before it."""

    n: int
    leader: int
    broken: bool


@njit(cache=True)
def new_table() -> np.ndarray:
    """A ``TABLE`` (one-element array), all zero."""
    return np.zeros(1, dtype=TABLE)


@njit(cache=True)
def rules_of(p: np.record) -> Rules:
    """The rules of a ``POSITION`` record."""
    return Rules(
        p.partnership, p.must_break, p.nil_counts, p.nil_allowed, p.nil_value, p.set_negative,
        p.bag_limit, p.bag_penalty, p.win_score, p.has_lose_score, p.lose_score, p.deck,
    )  # fmt: skip


@njit(cache=True)
def house_of(p: np.record) -> House:
    """The house rules of a ``POSITION`` record."""
    return House(
        p.blind_nil_value, p.suicide, p.suicide_minimum, p.ten_for_200, p.ten_for_200_value, p.mercy_margin,
        p.boston, p.pass_cards, p.pass_blind_only,
    )  # fmt: skip


@njit(cache=True)
def trick_of(p: np.record) -> Trick:
    """The trick in progress of a ``POSITION`` record."""
    return Trick(p.trick_n, p.leader, p.broken)
