"""The chaos drill's invariant checker on made-up data: each breach is found, and a clean run passes.

No server: the games are played on the engine, stored the way :func:`testkit.chaos_stores.stored_game` reads
them, then changed to show a lost move, a move applied twice, a stuck game, a missing or doubled record, or a
5xx outside the fault windows.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from services.engine import Bid, EngineError, GameState, apply, card_code, legal_moves, make_rules, new_game, turn
from testkit.chaos_invariants import (
    Ack,
    RecordRow,
    ServerError,
    Stall,
    StoredGame,
    Window,
    applied_twice,
    errors_outside,
    judge,
    lost_moves,
    record_problems,
    stuck_games,
)
from testkit.chaos_stores import history_moves

RULES = make_rules("partnership", win_score=100, lose_score=-100)


def played(moves: int | None, seed: int = 3) -> tuple[GameState, list[tuple[int, dict]]]:
    """A game after ``moves`` random legal moves (None: to its end), and those moves."""
    rng, state, made = random.Random(seed), new_game(RULES, seed=seed), []
    while state.phase != "game_over" and (moves is None or len(made) < moves):
        seat = turn(state)
        options = legal_moves(state, seat)
        bids = [m for m in options if isinstance(m, Bid) and 1 <= m.tricks <= 4]
        move = rng.choice(bids or options)
        state = apply(state, seat, move)
        made.append((seat, {"bid": move.tricks} if isinstance(move, Bid) else {"card": card_code(move.card)}))
    return state, made


def log_of(game_id: str, moves: list[tuple[int, dict]], first: int = 0) -> tuple[dict, ...]:
    """A kept log of the moves from index ``first`` (versions from 2: the game was created at 1)."""
    entries = []
    for index, (seat, move) in enumerate(moves[first:], start=first):
        kind = "bid" if "bid" in move else "card_played"
        entries.append({"seq": len(entries) + 10, "type": kind, "version": index + 2, "data": {"seat": seat, **move}})
    return tuple(entries)


def stored(game_id: str, moves: int | None, seed: int = 3) -> tuple[StoredGame, list[Ack]]:
    state, made = played(moves, seed)
    log = log_of(game_id, made, first=max(0, len(made) - 20))
    game = StoredGame(
        game_id, 1 + len(made), state.phase == "game_over", tuple(history_moves(state)), log, 10, 9 + len(log)
    )
    acks = [Ack(game_id, seat, index + 2, move, key=f"k{index}") for index, (seat, move) in enumerate(made)]
    return game, acks


def test_the_history_replays_into_the_moves_made_in_order():
    for moves in (0, 3, 30, None):
        state, made = played(moves)
        assert history_moves(state) == made
    finished, made = played(None)
    assert finished.phase == "game_over" and len(finished.history) >= 1 and len(made) == 56 * len(finished.history)


def test_a_history_with_a_card_played_twice_does_not_replay():
    state, _ = played(20)  # 16 cards played in round 1: the last one replaced by the first
    twice = dataclasses.replace(state, plays=state.plays[:-1] + state.plays[:1])
    with pytest.raises(EngineError):
        history_moves(twice)
    with pytest.raises(ValueError, match="do not give the stored state"):  # a hand that does not match its moves
        history_moves(dataclasses.replace(state, hands=state.hands[1:] + state.hands[:1]))


def test_a_clean_run_passes_every_invariant():
    game, acks = stored("g1", None)
    other, more = stored("g2", 40, seed=5)
    games = {"g1": game, "g2": other}
    rows = [RecordRow("g1", game.version, "finished")]
    windows = [Window("redis_master", 10.0, 20.0)]
    stalls = [Stall("g2", 11.0, 28.0, 1, computer=True), Stall("g2", 30.0, 90.0, 0, computer=False)]
    errors = [ServerError(12.0, 503, "POST /v1/games/{id}/plays")]
    verdicts = judge(acks + more, games, stalls, rows, errors, windows, bound=15.0)
    assert [(v.name, v.figure, v.passed) for v in verdicts] == [
        ("acknowledged_moves_lost", 0, True),
        ("moves_applied_twice", 0, True),
        ("games_stuck", 0, True),
        ("finished_games_not_recorded_exactly_once", 0, True),
        ("5xx_outside_fault_windows", 0, True),
    ]


def test_a_lost_move_is_found():
    game, acks = stored("g1", 40)
    shorter, _ = stored("g1", 39)  # the store lost the last acknowledged move
    assert lost_moves(acks, {"g1": game}) == []
    (lost,) = lost_moves(acks, {"g1": shorter})
    assert lost.startswith("g1 v41:")
    wrong = dataclasses.replace(acks[5], move={"bid": 13})  # acknowledged one move, another stored
    assert len(lost_moves([wrong], {"g1": game})) == 1
    assert lost_moves(acks[:1], {}) == ["g1 v2: the game is not in the store"]


def test_a_move_applied_twice_is_found():
    game, acks = stored("g1", 40)
    assert applied_twice({"g1": game}, acks) == []
    # one more commit than moves: a move counted twice in the version
    assert len(applied_twice({"g1": dataclasses.replace(game, version=game.version + 1)})) >= 1
    # the log holds a version's move twice
    doubled = game.log + (dict(game.log[-1], seq=game.last_seq + 1),)
    twice = dataclasses.replace(game, log=doubled, last_seq=game.last_seq + 1)
    assert any("2 moves in the log" in problem for problem in applied_twice({"g1": twice}))
    # a history that does not replay (a card played twice is refused by the engine)
    broken = dataclasses.replace(game, replay_error="EngineError: card_not_in_hand")
    assert applied_twice({"g1": broken}) == ["g1: the history does not replay: EngineError: card_not_in_hand"]
    # one Idempotency-Key acknowledged at two versions: one request applied twice
    again = dataclasses.replace(acks[-1], version=acks[-1].version + 4)
    assert any("acknowledged at versions" in problem for problem in applied_twice({"g1": game}, [acks[-1], again]))


def with_a_clock_credit(game: StoredGame, acks: list[Ack], at: int) -> tuple[StoredGame, list[Ack]]:
    """The same game with a commit that only gave a clock back (``clock_credited``, ``turn_clock``) at version
    ``at``: every later move one version later, as the fair clock's commit makes them."""
    later = [dict(e, version=e["version"] + 1) if e["version"] >= at else e for e in game.log]
    credit = [{"type": "clock_credited", "version": at, "data": {"seat": 1}}, {"type": "turn_clock", "version": at}]
    log = sorted(later + credit, key=lambda e: (e["version"], e["type"] != "clock_credited"))
    log = tuple(dict(e, seq=game.first_seq + i) for i, e in enumerate(log))
    moved = [dataclasses.replace(a, version=a.version + 1) if a.version >= at else a for a in acks]
    return dataclasses.replace(game, version=game.version + 1, log=log, last_seq=game.first_seq + len(log) - 1), moved


def test_a_commit_that_only_gives_a_clock_back_is_no_move_lost_or_applied_twice():
    game, acks = stored("g1", 40)
    credited, moved = with_a_clock_credit(game, acks, at=35)
    assert credited.credit_commits == (35,) and credited.move_at(35) is None
    assert credited.move_at(36) == game.move_at(35)
    assert lost_moves(moved, {"g1": credited}) == [] and applied_twice({"g1": credited}, moved) == []
    # a move acknowledged at the credit's version is not in the history there
    (lost,) = lost_moves([dataclasses.replace(moved[-1], version=35)], {"g1": credited})
    assert lost.startswith("g1 v35:")
    # one commit more than moves and credits still counts as applied twice
    assert applied_twice({"g1": dataclasses.replace(credited, version=credited.version + 1)})


def test_a_log_that_skips_a_seq_or_disagrees_with_the_history_is_found():
    game, _ = stored("g1", 40)
    gap = dataclasses.replace(game, log=game.log[:3] + game.log[4:])
    assert any("log seqs" in problem for problem in applied_twice({"g1": gap}))
    seat, move = game.moves[-1]
    other = dict(game.log[-1], data={"seat": (seat + 1) % 4, **move})
    assert any(
        "history" in problem
        for problem in applied_twice({"g1": dataclasses.replace(game, log=game.log[:-1] + (other,))})
    )


def test_a_stuck_game_is_found():
    windows = [Window("ai_worker", 100.0, 110.0)]
    # a computer's turn waiting 16 s with no fault about: stuck past a 15 s bound
    assert len(stuck_games([Stall("g", 10.0, 26.0, 1, computer=True)], windows, 15.0)) == 1
    # the same wait begun during a fault counts from the fault's window end: 14 s
    assert stuck_games([Stall("g", 95.0, 124.0, 1, computer=True)], windows, 15.0) == []
    assert len(stuck_games([Stall("g", 95.0, 126.0, 1, computer=True)], windows, 15.0)) == 1
    # a person's turn: not stuck while the person plays, stuck once the player has quit
    assert stuck_games([Stall("g", 0.0, 60.0, 0, computer=False, player_active=True)], windows, 15.0) == []
    assert len(stuck_games([Stall("g", 0.0, 60.0, 0, computer=False, player_active=False)], windows, 15.0)) == 1


def test_a_missing_or_doubled_or_wrong_record_is_found():
    game, _ = stored("g1", None)
    playing, _ = stored("g2", 30)
    games = {"g1": game, "g2": playing}
    good = RecordRow("g1", game.version, "finished")
    assert record_problems(games, [good]) == []
    assert record_problems(games, []) == [f"g1: finished at v{game.version}, 0 records"]
    assert record_problems(games, [good, good]) == [f"g1: finished at v{game.version}, 2 records"]
    older = RecordRow("g1", game.version - 1, "finished")
    assert record_problems(games, [older]) == [
        f"g1: finished at v{game.version}, recorded v{game.version - 1} finished"
    ]
    assert len(record_problems(games, [good, RecordRow("g2", playing.version, "finished")])) == 1
    assert record_problems(games, [good, RecordRow("elsewhere", 3, "finished")]) == [
        "elsewhere: recorded, but not a game the store holds"
    ]


def test_a_5xx_outside_every_window_is_found():
    windows = [Window("records_db", 10.0, 45.0), Window("broker_node", 40.0, 60.0)]
    inside, edge, outside = ServerError(44.0, 503, "GET"), ServerError(60.0, 500, "GET"), ServerError(60.5, 502, "GET")
    assert errors_outside([inside, edge, outside], windows) == [outside]
    verdicts = judge([], {}, [], [], [inside, outside], windows, 15.0)
    assert (verdicts[-1].figure, verdicts[-1].passed) == (1, False)
