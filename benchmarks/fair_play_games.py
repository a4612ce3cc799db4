"""The card play of ``benchmarks.fair_play``: whole partnership games played once on the real engine by the
players' backers, each kept as the record document the service builds of it.

A simulated game takes its cards from a game of this pool whose teams are backed by the same levels (or the
example bot), so what a player's rating earns is what its backer's play earns.  Each pool game is played
in-process as ``benchmarks.ratings`` plays its games (a level's decision from ``services.ai_worker.decide``,
the bot's from the ``GameView`` the runner would give it), and built into a document by
``services.api.records.content.build`` from a ``GameRecord`` of four unbound person seats made to count (a
quick match under a clock); the simulation binds the seats to its players and sets ``fair_play`` per game.

The ring's games are played the same way with *throwers* on one team (:func:`thrower`): a fast throw bids the
most the team may and plays to fail it (lost in the first round, past the losing score); a slow throw bids
three a seat and sheds its lowest card every trick (lost over several rounds, not fast for the watch).
"""

from __future__ import annotations

import itertools
import multiprocessing
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.ratings import BOT, DEFAULT_BOT, decider
from benchmarks.tournament import move_of
from services.ai_worker import warm_up
from services.api.games.record import FairPlay, GameOptions, GameRecord, Seat
from services.api.records.content import build
from services.engine import GameState, apply, make_rules, new_game, turn, view

CLOCK = "normal"
FAST_THROW, SLOW_THROW = "fast_throw", "slow_throw"
SLOW_BID = 3  # a slow thrower's bid: about 60 points lost a round, so the losing score takes four rounds
Key = tuple[tuple[str, str], tuple[str, str]]  # the backers of each team, each team sorted, the teams sorted


def key_of(seating: Sequence[str]) -> Key:
    """The pool's key of a seating (seats 0 & 2 one team, 1 & 3 the other)."""
    a, b = tuple(sorted((seating[0], seating[2]))), tuple(sorted((seating[1], seating[3])))
    return (a, b) if a <= b else (b, a)  # type: ignore[return-value]


def keys(backers: Sequence[str]) -> list[Key]:
    """Every pair of teams the backers can make (231 for six backers)."""
    teams = list(itertools.combinations_with_replacement(sorted(backers), 2))
    return [(a, b) for a, b in itertools.combinations_with_replacement(teams, 2)]


def thrower(style: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A seat that throws the game (see the module doc)."""

    def decide_turn(seat_view: dict[str, Any]) -> dict[str, Any]:
        legal = seat_view["legal"]
        if seat_view["phase"] == "bidding":
            return {"bid": max(legal) if style == FAST_THROW else min(SLOW_BID, max(legal))}
        bids = seat_view["bids"]
        cards = sorted(legal, key=_rank)
        nil = bids[seat_view["you"]] == 0  # a nil made would score: break it with the highest card
        return {"card": cards[-1] if nil else cards[0]}

    return decide_turn


def _rank(code: str) -> tuple[int, int]:
    order = "23456789TJQKA"
    return (code[1] == "S", order.index(code[0]))


def play_state(job: tuple[tuple[str, ...], int, str | None, int]) -> dict[str, Any]:
    """One pool game: its seating's backers (``throw``: seats 1 & 3 throw in that style), played to the end
    (or ``round_cap`` rounds), built into its record document."""
    seating, game_seed, throw, round_cap = job
    rules = make_rules("partnership")
    levels = decider(tuple(seating), DEFAULT_BOT)  # type: ignore[arg-type]
    throwing = thrower(throw) if throw else None
    state = new_game(rules, seed=game_seed)
    move_no = 0
    while state.phase != "game_over" and len(state.history) < round_cap:
        seat = turn(state)
        assert seat is not None
        seat_view = view(state, seat, history=False)
        if throwing is not None and seat % 2 == 1:
            decision = throwing(seat_view)
        else:
            decision = levels(seat_view, seating[seat], game_seed * 1_000_003 + move_no)
        state = apply(state, seat, move_of(decision, rules.deck))
        move_no += 1
    return {"seating": list(seating), "throw": throw, "document": document_of(state)}


def document_of(state: GameState) -> dict[str, Any]:
    """The record document the service builds of a finished quick-match game made to count (seats unbound)."""
    seats = [Seat("human", None, f"hash-{i}") for i in range(4)]
    options = GameOptions.from_json({"hints": False, "public": False, "matched": True, "clock": CLOCK})
    record = GameRecord("pool", 1, seats, "", options, started=True, fair=FairPlay(clients=("a", "b", "c", "d")))
    record.created_ms, record.changed_ms = 0, 0
    return build(record.with_state(state))


def play_pool(jobs: list[tuple[tuple[str, ...], int, str | None, int]], workers: int) -> list[dict[str, Any]]:
    """Every pool game, in order, over ``workers`` warm processes."""
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers, initializer=warm_up) as pool:
            return list(pool.imap(play_state, jobs, chunksize=4))
    warm_up()
    return [play_state(job) for job in jobs]


def pool_jobs(
    backers: Sequence[str], per_key: int, seed: int, round_cap: int, throws: Sequence[tuple[str, str, str]]
) -> list[tuple[tuple[str, ...], int, str | None, int]]:
    """``per_key`` games of every pair of teams (alternately each team on seats 0 & 2), then each ring's throw
    games: (booster's backer, puppets' backer, style) with the booster and a puppet on seats 0 & 2."""
    jobs: list[tuple[tuple[str, ...], int, str | None, int]] = []
    for a, b in keys(backers):
        for copy in range(per_key):
            first, second = (a, b) if copy % 2 == 0 else (b, a)
            jobs.append(((first[0], second[0], first[1], second[1]), seed * 100_000 + len(jobs), None, round_cap))
    for booster, puppet, style in throws:
        for _ in range(per_key):
            jobs.append(((booster, puppet, puppet, puppet), seed * 100_000 + len(jobs), style, round_cap))
    return jobs


__all__ = ["BOT", "CLOCK", "FAST_THROW", "SLOW_THROW", "Key", "key_of", "keys", "play_pool", "pool_jobs"]
