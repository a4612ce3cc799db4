"""Per-seat views: exactly what one seat (or a spectator) may know.

Like boardgame.io's ``playerView``, this is the only way game state leaves
the engine for a player.  A seat sees its own hand, never another's; the
current round's deal stays secret from everyone; a finished round's deal is
public (the hand record) because every card of it has been shown.  The seed
is never shown: it would reveal every future deal.  With the house rules a
seat that may still bid blind does not see its own hand (``"hand": null``),
and the cards of the nil exchange are shown only to the two seats that
exchanged them (``passes``) until the round's hand record shows them all.
"""

from __future__ import annotations

import functools
from typing import Any

from .cards import CARD_CODES, card_code, codes, count
from .game import Bid, Look, Pass, Play, legal_moves
from .rules import Rules
from .scoring import round_parts
from .state import (
    GameState,
    RoundRecord,
    completed_plays,
    current_trick,
    dealer_of,
    dealt_hands,
    first_seat,
    hand_hidden,
    last_completed_trick,
    partner_seat,
    passing_seats,
    replay_tricks,
    spades_broken,
    turn,
)

_PLAY_ORDER = tuple(tuple((leader + i) % 4 for i in range(4)) for leader in range(4))  # seats from each leader


def trick_view(leader: int, cards: tuple[int, ...], winner: int | None) -> dict[str, Any]:
    """One trick as views show it, from :func:`replay_tricks`'s ``(leader, cards, winner)``."""
    played = [
        {"seat": seat, "card": CARD_CODES[card]} for seat, card in zip(_PLAY_ORDER[leader], cards, strict=False)
    ]  # a trick may be unfinished
    return {"leader": leader, "cards": played, "winner": winner}


def round_view(round_no: int, record: RoundRecord, rules: Rules) -> dict[str, Any]:
    """A finished round, with its hand record and its points part by part (``parts``: the engine's scoring
    rule says what each side's points are made of; a client shows them, never works them out)."""
    leader = first_seat(round_no)
    tricks = replay_tricks(leader, record.plays)
    won = [0, 0, 0, 0]
    for _, _, winner in tricks:
        won[winner] += 1
    return {
        "round": round_no,
        "dealer": dealer_of(round_no),
        "bids": list(record.bids),
        "tricks_won": won,
        "points": list(record.points),
        "parts": round_parts(rules, record.bids, tuple(won), record.blind, record.bag_penalties),
        "bag_penalties": list(record.bag_penalties),
        "scores": list(record.scores),
        "bags": list(record.bags),
        "hands": [codes(h) for h in dealt_hands(leader, record.plays, record.passes)],
        "plays": [card_code(c) for c in record.plays],
        **({"blind": list(record.blind)} if record.blind else {}),
        **({"passes": [codes(p) for p in record.passes]} if record.passes else {}),
    }


def last_trick(state: GameState) -> dict[str, Any] | None:
    """The most recently completed trick, from the previous round if this
    one has none yet, so a client can always show how the last trick fell."""
    trick = last_completed_trick(state)
    if trick is None and state.history:
        trick = _final_trick(state.round - 1, state.history[-1])
    return trick_view(*trick) if trick is not None else None


@functools.lru_cache(maxsize=1024)
def _final_trick(round_no: int, record: RoundRecord) -> tuple[int, tuple[int, ...], int | None]:
    """A finished round's last trick (every view shows it until the next
    round's first trick is complete: cached rather than replayed each time)."""
    return replay_tricks(first_seat(round_no), record.plays)[-1]


def completed_tricks(state: GameState) -> list[dict[str, Any]]:
    """This round's completed tricks as views show them (a view's ``tricks``)."""
    return [trick_view(*t) for t in replay_tricks(first_seat(state.round), completed_plays(state))]


def view(state: GameState, seat: int | None, history: bool = True, tricks: bool = True) -> dict[str, Any]:
    """What ``seat`` may know, as plain JSON data; ``None`` is a spectator.

    ``history=False`` leaves out the finished rounds (``"history": []``) for a
    caller that renders them once with :func:`round_view` and keeps them;
    ``tricks=False`` likewise this round's completed tricks (:func:`completed_tricks`,
    or one at a time: :func:`last_trick`)."""
    trick = current_trick(state)
    rules = state.rules
    legal: list[Any] = []
    legal_blind: list[int] = []
    hidden = seat is not None and hand_hidden(state, seat)
    if seat is not None:
        for move in legal_moves(state, seat):
            if isinstance(move, Play):
                legal.append(CARD_CODES[move.card])
            elif isinstance(move, Bid):
                (legal_blind if move.blind else legal).append(move.tricks)
            elif isinstance(move, Look):
                legal.append("look")
            elif isinstance(move, Pass):  # any nil_pass_cards of the hand: list the hand's cards once
                legal = codes(state.hands[seat])
                break
    extra: dict[str, Any] = {}
    if rules.blind_decisions:
        extra["hand_hidden"] = hidden
        extra["legal_blind"] = legal_blind
        extra["blind"] = list(state.blind)
    if rules.nil_pass_cards:
        extra["pass_count"] = rules.nil_pass_cards
        extra["passing_seats"] = list(passing_seats(rules, state.bids, state.blind, first_seat(state.round)))
        extra["passes"] = _own_passes(state, seat)
    return {
        "phase": state.phase,
        "round": state.round,
        "dealer": dealer_of(state.round),
        "turn": turn(state),
        "you": seat,
        "hand": codes(state.hands[seat]) if seat is not None and not hidden else None,
        "hand_sizes": [count(h) for h in state.hands],
        "legal": legal,
        "bids": list(state.bids),
        "tricks_won": list(state.tricks_won),
        "leader": state.leader if state.phase == "playing" else None,
        "trick": trick_view(state.leader, trick, None)["cards"],
        "tricks": completed_tricks(state) if tricks else [],
        "last_trick": last_trick(state),
        "spades_broken": spades_broken(state),
        "scores": list(state.scores),
        "bags": list(state.bags),
        "rules": state.rules.to_dict(),
        "history": [round_view(i + 1, r, state.rules) for i, r in enumerate(state.history)] if history else [],
        "winner": list(state.winner) if state.winner is not None else None,
        **extra,
    }


def _own_passes(state: GameState, seat: int | None) -> dict[str, list[str]] | None:
    """The nil exchange as ``seat`` may know it: what it gave, and what it received once delivered."""
    if seat is None:
        return None
    delivered = state.phase != "passing"
    return {"gave": codes(state.passes[seat]), "received": codes(state.passes[partner_seat(seat)]) if delivered else []}
