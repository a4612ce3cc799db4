"""A finished round replayed with the engine: the view one seat had at each of its decisions.

A round review (``GET /v1/games/{id}/rounds/{round}/review``) asks the hint level what it would
have done at each of a seat's moves of a finished round.  The game keeps a finished round as its
hand record (the bids and the 52 cards in play order); replaying that record from the deal with
:func:`services.engine.apply` gives the exact position before each move, and
:func:`services.engine.view` the seat's view there: what that seat could see then, nothing more
(finished rounds left out, as for ``ai.decide`` and hints).

Only finished rounds are replayed: their deal is public (every view's ``history`` shows it), so
the review reveals nothing a player can't already read.  The round in play is refused
(``409 round_not_finished``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from services.api.problems import ApiError
from services.engine import (
    Bid,
    Deck,
    GameState,
    Look,
    Pass,
    Play,
    RoundRecord,
    apply,
    hand_hidden,
    new_game,
    rules_from_dict,
    turn,
    view,
)

SEATS = 4


@dataclass(frozen=True, slots=True)
class Decision:
    """One move of the reviewed seat: ``trick`` is None for its blind decision, bid and pass, 1 to 13
    for its card of that trick; ``step`` names which (``blind``, ``bid``, ``pass``, ``card``)."""

    trick: int | None
    made: dict[str, Any]  # {"bid": n}, {"card": "QS"}, {"look": True}, {"bid": n, "blind": True}, {"pass": [...]}
    view: dict[str, Any]  # the seat's view just before it moved
    step: str = "bid"


@dataclass(frozen=True, slots=True)
class ReplayedRound:
    decisions: list[Decision]
    tricks: list[dict[str, Any]]  # the 13 tricks as views show them: {leader, cards, winner}


def check_finished(state: GameState, round_no: int) -> None:
    """404 for a round the game never reached; 409 ``round_not_finished`` for the round in play."""
    if not 1 <= round_no <= state.round:
        raise ApiError(404, "not_found", f"This game has no round {round_no} (it is in round {state.round}).")
    if round_no > len(state.history):
        raise ApiError(
            409,
            "round_not_finished",
            f"Round {round_no} is still being played; a round can be reviewed once it is over.",
        )


def _mask(cards: list[str], deck: Deck) -> int:
    mask = 0
    for code in cards:
        mask |= 1 << deck.parse(code)  # a card set is the int with each card's index bit set (engine.cards)
    return mask


def round_start(state: GameState, round_no: int, hands: list[list[str]], dealer: int) -> GameState:
    """The position at the start of finished round ``round_no``'s bidding, dealt ``hands``.

    The seed is not needed (the deal is given) and is left out: nothing replayed carries it."""
    before = state.history[: round_no - 1]
    return GameState(
        rules=state.rules,
        seed=0,
        round=round_no,
        phase="bidding",
        hands=tuple(_mask(hand, state.rules.deck) for hand in hands),
        bids=(None,) * SEATS,
        plays=(),
        leader=(dealer + 1) % SEATS,
        tricks_won=(0,) * SEATS,
        scores=before[-1].scores if before else (0,) * state.rules.sides,
        bags=before[-1].bags if before else (0,) * state.rules.sides,
        history=before,
    )


def replay_round(state: GameState, round_no: int, record: dict[str, Any], seat: int) -> ReplayedRound:
    """Replay finished round ``round_no`` (``record``: the round as views show it in ``history``)
    and collect ``seat``'s decisions with its view before each, and the round's tricks.

    Its decisions, in order: its blind decision when its hand was hidden (looking or a blind bid; a
    blind bid is also its bid, so it is not repeated), its bid after looking, the cards it gave in
    the nil exchange, and its card of each trick."""
    check_finished(state, round_no)
    position = round_start(state, round_no, record["hands"], record["dealer"])
    deck = state.rules.deck
    blind = record.get("blind") or [False] * SEATS
    decisions: list[Decision] = []
    for _ in range(SEATS):
        mover = turn(position)
        assert mover is not None
        bid = record["bids"][mover]
        if hand_hidden(position, mover):  # a blind decision (house rules): look, or bid blind
            made: dict[str, Any] = {"bid": bid, "blind": True} if blind[mover] else {"look": True}
            if mover == seat:
                decisions.append(Decision(None, made, view(position, seat, history=False), "blind"))
            if not blind[mover]:
                position = apply(position, mover, Look())
        if mover == seat and not blind[mover]:
            decisions.append(Decision(None, {"bid": bid}, view(position, seat, history=False)))
        position = apply(position, mover, Bid(bid, blind=blind[mover]))
    while position.phase == "passing":  # the nil exchange (house rules)
        mover = turn(position)
        assert mover is not None
        cards = record["passes"][mover]
        if mover == seat:
            decisions.append(Decision(None, {"pass": list(cards)}, view(position, seat, history=False), "pass"))
        position = apply(position, mover, Pass(_mask(cards, deck)))
    tricks: list[dict[str, Any]] = []
    for index, code in enumerate(record["plays"]):
        mover = turn(position)
        assert mover is not None
        if mover == seat:
            decisions.append(Decision(index // SEATS + 1, {"card": code}, view(position, seat, history=False), "card"))
        position = apply(position, mover, Play(deck.parse(code)))
        if index % SEATS == SEATS - 1:  # a trick is complete: the newest one any view shows as last_trick
            tricks.append(view(position, None, history=False, tricks=False)["last_trick"])
    return ReplayedRound(decisions, tricks)


def record_state(document: Mapping[str, Any]) -> GameState:
    """A finished game's position after its last round, rebuilt from its record document (its rules and finished
    rounds: what :func:`replay_round` reads; no seed, no deal of a round in play)."""
    rules = rules_from_dict(document["rules"])
    deck = rules.deck
    history = tuple(
        RoundRecord(
            tuple(shown["bids"]),
            tuple(deck.parse(code) for code in shown["plays"]),
            tuple(shown["points"]),
            tuple(shown["bag_penalties"]),
            tuple(shown["scores"]),
            tuple(shown["bags"]),
            tuple(shown.get("blind") or ()),
            tuple(_mask(cards, deck) for cards in shown.get("passes") or ()),
        )
        for shown in document["rounds"]
    )
    return replace(new_game(rules, 0), round=max(len(history), 1), history=history)


def record_decisions(document: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    """Every decision of ``seat`` in a game's finished rounds, from its record document, in play order: ``round``,
    ``trick`` and ``step`` (as :class:`Decision`), the seat's ``view`` before it, the move ``made``, and for a card
    whether the seat's side took its trick (``took``; None for the other steps)."""
    state = record_state(document)
    found = []
    for round_no, shown in enumerate(document["rounds"], start=1):
        replayed = replay_round(state, round_no, shown, seat)
        for decision in replayed.decisions:
            took = None
            if decision.trick is not None:
                winner = replayed.tricks[decision.trick - 1]["winner"]
                took = winner == seat or (state.rules.partnership and winner == (seat + 2) % SEATS)
            found.append(
                {
                    "round": round_no,
                    "trick": decision.trick,
                    "step": decision.step,
                    "view": decision.view,
                    "made": decision.made,
                    "took": took,
                }
            )
    return found
