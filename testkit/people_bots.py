"""Opponents that play like the people at Spades tables, for ``benchmarks.gauntlet`` (test-only players).

Each is a bot in the runner's form (``spades-bot play --bot testkit.people_bots:nil_happy``): a seat's
:class:`GameView` in, a move out, so it decides from exactly what a level or a person in that seat may know
(its own hand, the bids, the trick, the scores) and never from the other hands.  All of them but
``random_legal`` share one plain way of playing, :func:`table_card`, which people recognise: count aces,
kings and long spades to bid, win a trick cheaply when the partner is not already winning it, duck
otherwise, keep a partner's nil safe, and as the nil bidder play the highest card that still loses.
Each person then has one habit that sets it apart (its function's docstring defines it):

* ``nil_happy``: bids nil on any hand without a sure trick in spades and at most two tricks in all;
* ``cautious``: never bids nil and bids what it is sure of, one under its count;
* ``overbidder``: bids two over its count and never nil;
* ``bag_dumper``: bids one under its count, and once its side has made its bid ducks every trick it can,
  so the opponents take the rest as bags;
* ``trumper``: ruffs every trick it is void in with its lowest spade that wins, even over its partner;
* ``random_legal``: the floor, a uniformly random legal move (seeded by the view, so a run reproduces).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any

from spades_client import GameView, moves
from spades_client.models import PlayedCard

Bot = Callable[[GameView], Any]
RANKS = "23456789TJQKA"
TRUMP = "S"


def suit(card: str) -> str:
    """The card's suit for play: the jokers are spades (trumps)."""
    return TRUMP if card in ("LJ", "BJ") else card[1]


def power(card: str, view: GameView) -> int:
    """The card's rank within its suit: 2 lowest; the deuce of spades above the ace when the rules say so,
    the jokers above it (little, then big)."""
    if card == "BJ":
        return 16
    if card == "LJ":
        return 15
    if card == "2S" and view.rules.deuces_high:
        return 14
    return RANKS.index(card[0])


def beats(card: str, best: str, view: GameView) -> bool:
    """Whether ``card`` wins over ``best``, the trick's winning card so far."""
    if suit(card) == suit(best):
        return power(card, view) > power(best, view)
    return suit(card) == TRUMP


def winning(trick: list[PlayedCard], view: GameView) -> PlayedCard | None:
    best = None
    for played in trick:
        if best is None or beats(played.card, best.card, view):
            best = played
    return best


def low_first(cards: list[str], view: GameView) -> list[str]:
    """Cheapest first: side-suit cards before spades, then by rank."""
    return sorted(cards, key=lambda c: (suit(c) == TRUMP, power(c, view), c))


def partner_of(view: GameView) -> int | None:
    return (view.you + 2) % 4 if view.rules.partnership and view.you is not None else None


def count_tricks(view: GameView) -> float:
    """The table count of the hand's tricks: each ace; a king with another card of its suit; a queen with two
    more; in spades the king and queen on the same terms and every spade beyond the third."""
    hand = view.hand or []
    by_suit: dict[str, list[str]] = {}
    for card in hand:
        by_suit.setdefault(suit(card), []).append(card)
    count = 0.0
    for s, cards in by_suit.items():
        length = len(cards)
        for card in cards:
            rank = power(card, view)
            if rank >= RANKS.index("A") or (rank == RANKS.index("K") and length >= 2):
                count += 1
            elif rank == RANKS.index("Q") and length >= 3:
                count += 1 if s == TRUMP else 0.5
        if s == TRUMP:
            count += max(0, length - 3)
    return count


def nearest_bid(view: GameView, wanted: float, nil: bool = False) -> int:
    """The legal bid nearest ``wanted`` (ties to the lower), nil only when ``nil``."""
    bids = [b for b in view.legal if isinstance(b, int) and not isinstance(b, bool)]
    choices = [b for b in bids if (b == 0) == nil] or [b for b in bids if b != 0] or bids
    return min(choices, key=lambda b: (abs(b - wanted), b))


def nil_alive(view: GameView, seat: int | None) -> bool:
    return seat is not None and view.bids[seat] == 0 and view.tricks_won[seat] == 0


def side_made_bid(view: GameView) -> bool:
    """Whether this seat's side has taken the tricks its non-nil bids asked for."""
    seats = [s for s in range(4) if view.rules.side_of(s) == view.rules.side_of(view.you)]
    contract = sum(view.bids[s] or 0 for s in seats)
    return contract > 0 and sum(view.tricks_won[s] for s in seats) >= contract


def ducking_card(view: GameView) -> str:
    """The highest card that loses the trick; if every card wins, the highest (it wins now, not later)."""
    legal = low_first(list(view.legal), view)
    best = winning(view.trick, view)
    if best is None:
        return legal[0]
    losers = [c for c in legal if not beats(c, best.card, view)]
    return max(losers or legal, key=lambda c: (suit(c) == TRUMP, power(c, view)))


def table_card(view: GameView) -> str:
    """The shared way of playing (see the module's docstring)."""
    if nil_alive(view, view.you):
        return ducking_card(view)
    legal = low_first(list(view.legal), view)
    best = winning(view.trick, view)
    partner = partner_of(view)
    if best is None:
        return leading_card(view, legal)
    if best.seat == partner and not nil_alive(view, partner):
        return legal[0]  # the partner is winning: don't overtake
    winners = [c for c in legal if beats(c, best.card, view)]
    return winners[0] if winners else legal[0]


def leading_card(view: GameView, legal: list[str]) -> str:
    """Lead a side-suit ace or king to cash it; else the lowest card of the longest side suit."""
    side = [c for c in legal if suit(c) != TRUMP]
    top = [c for c in side if power(c, view) >= RANKS.index("K")]
    if top:
        return max(top, key=lambda c: power(c, view))
    if not side:
        return legal[0]
    longest = max({suit(c) for c in side}, key=lambda s: (sum(suit(c) == s for c in view.hand or []), s))
    return min((c for c in side if suit(c) == longest), key=lambda c: power(c, view))


def passing_cards(view: GameView) -> list[str]:
    """In the nil exchange the nil bidder gives its highest cards and its partner its lowest."""
    ordered = low_first(list(view.legal), view)
    count = view.pass_count or 0
    return ordered[-count:] if view.bids[view.you] == 0 else ordered[:count]


def person(bid: Callable[[GameView], int], card: Callable[[GameView], str] = table_card,
           blind: Callable[[GameView], Any] | None = None) -> Bot:  # fmt: skip
    """A bot from its bid and card habits; a blind decision looks unless ``blind`` says otherwise."""

    def choose(view: GameView) -> Any:
        if view.blind_decision:
            return blind(view) if blind is not None else moves.look()
        if view.passing:
            return passing_cards(view)
        return bid(view) if view.phase == "bidding" else card(view)

    return choose


def nil_happy_bid(view: GameView) -> int:
    """Nil whenever the hand has no sure spade trick (no ace or king of spades, at most three spades) and the
    count is at most two, even with high cards elsewhere."""
    hand = view.hand or []
    spades = [c for c in hand if suit(c) == TRUMP]
    sure_spade = any(power(c, view) >= RANKS.index("K") for c in spades)
    if not sure_spade and len(spades) <= 3 and count_tricks(view) <= 2:
        return nearest_bid(view, 0, nil=True)
    return nearest_bid(view, round(count_tricks(view)))


def nil_happy_blind(view: GameView) -> Any:
    """Blind nil whenever it is offered and its side is not ahead."""
    mine = view.scores[view.rules.side_of(view.you)]
    if 0 in (view.legal_blind or []) and mine <= max(view.scores):
        return moves.blind_bid(0)
    return moves.look()


def cautious_bid(view: GameView) -> int:
    """Never nil; one under the count, rounded down, at least one."""
    return nearest_bid(view, max(1, int(count_tricks(view)) - 1))


def overbidder_bid(view: GameView) -> int:
    """Never nil; two over the count."""
    return nearest_bid(view, round(count_tricks(view)) + 2)


def plain_bid(view: GameView) -> int:
    """Never nil; the count, rounded, at least one."""
    return nearest_bid(view, max(1, round(count_tricks(view))))


def bag_dumper_card(view: GameView) -> str:
    """Once its side has made its bid (and no nil of its side is at stake), duck every trick."""
    partner = partner_of(view)
    if side_made_bid(view) and not nil_alive(view, partner):
        return ducking_card(view)
    return table_card(view)


def bag_dumper_bid(view: GameView) -> int:
    """Never nil; one under the count, at least one: a bid it makes early, leaving tricks to dump."""
    return nearest_bid(view, max(1, round(count_tricks(view)) - 1))


def trumper_card(view: GameView) -> str:
    """Void in the led suit with a spade in hand: the lowest spade that wins the trick (the lowest spade when
    none wins), whoever is winning it, the partner too."""
    best = winning(view.trick, view)
    if best is not None and not nil_alive(view, view.you):
        led = suit(view.trick[0].card)
        spades = low_first([c for c in view.legal if suit(c) == TRUMP], view)
        if led != TRUMP and spades and all(suit(c) != led for c in view.legal):
            winners = [c for c in spades if beats(c, best.card, view)]
            return (winners or spades)[0]
    return table_card(view)


def random_legal(view: GameView) -> Any:
    """A uniformly random legal move, seeded by the game, the version and the seat: a bid or card from
    ``legal``, blind or look at a blind decision, ``pass_count`` random cards in the nil exchange."""
    digest = hashlib.sha256(f"{view.game_id}:{view.version}:{view.you}".encode()).digest()
    rng = random.Random(int.from_bytes(digest[:8], "big"))
    if view.blind_decision:
        options: list[Any] = [moves.look(), *(moves.blind_bid(b) for b in view.legal_blind or [])]
        return rng.choice(options)
    if view.passing:
        return rng.sample(list(view.legal), view.pass_count or 0)
    return rng.choice(list(view.legal))


nil_happy = person(nil_happy_bid, blind=nil_happy_blind)
cautious = person(cautious_bid)
overbidder = person(overbidder_bid)
bag_dumper = person(bag_dumper_bid, bag_dumper_card)
trumper = person(plain_bid, trumper_card)

PEOPLE: dict[str, Bot] = {
    "nil-happy": nil_happy,
    "cautious": cautious,
    "overbidder": overbidder,
    "bag-dumper": bag_dumper,
    "trumper": trumper,
    "random-legal": random_legal,
}
