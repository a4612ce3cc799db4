"""Duplicate tournament between two computer levels, on the real engine.

    python -m benchmarks.tournament --a pro --b standard --preset partnership --rounds 2000 --seed 1
    python -m benchmarks.tournament --a hard --b pro --preset partnership --games 100 --seed 1

Two modes, both duplicate: every deal (or game seed) is played twice with the
same cards and the levels' seats swapped,

* partnership: level A holds seats 0 & 2 (team 0) and B seats 1 & 3, then the
  levels swap teams;
* individual: A holds seats 0 & 2 and B seats 1 & 3 (each seat scoring alone),
  then swapped, so across the pair each level sits in every seat position.

**Single rounds** (``--rounds N``, the default mode): N deals, each round 1 of
``new_game(rules, seed)``.  Every deal is a fresh game, so bags do not carry
across rounds (a 10-bag penalty only hits a side that takes 10 bags in one
round) and bags are nearly free.  A level's points for one play: its team's
points (partnership) or the mean of its two seats' points (individual).  Per
deal the paired difference is the mean over the two plays of (A − B); the JSON
gives the mean points per round of each level, that difference with a normal
95% interval over the deals, and rounds won (per play, the level with more
points).  Beside it the **bag-adjusted** figures: each side's points with the
round's realised bag penalties added back and every bag it took charged its
share of the penalty instead (``bag_penalty / bag_limit``, 10 points in the
partnership preset, 0 where the penalty is off), so a level that sheds bags
is not flattered by the fresh round.

**Whole games** (``--games N``): N game seeds, each played twice (a game pair,
sides swapped) from ``new_game(rules, seed)`` to the end the engine declares
(500 / −200 in partnership, bags carrying over); the engine deals every round
from the seed, so both games of a pair see the same deal sequence for as long
as both last.  The JSON gives games, wins of each level, ties (a game stopped
by ``--round-cap`` unfinished; the engine itself never ends on a tie), A's win
share with a Wilson 95% interval, how the pairs split, rounds per game, final
scores and points per round.  The Wilson interval treats the 2N games as
independent; the two games of a pair share their deals and tend to split,
which makes the interval conservative.

**Per level**, from the same runs (counted over the level's seats and sides):
nil bid rate and nil success rate; partner nils covered (nil bids by a seat's
partner – the same level – that were made; partnership only); opponent nils
set (nil bids by the seats a side plays against – the other team, or in the
individual game the three other seats of each of the level's seats – that
failed); contracts set (a side's non-nil bids not made); bags per round per side; 10-bag penalties per 100
rounds per side.
With the house rules (``--preset`` any preset of ``GET /v1/rules``,
``--option name=value`` for any rule option, e.g. ``blind_margin=0`` so that
round 1's seats may bid blind): blind decisions offered (a turn with the hand
hidden), blind nils and blind bids taken and made, and the nil exchanges a
level's seats took part in with how often their side's nil was made.

The figures are computed by ``spades_client.duplicate``, which ``spades-bot match`` shares: a bot's match
through the API against a level reports them the same way (docs/bots.md).

The engine drives everything (``new_game``/``view``/``apply``); each decision
renders its seat's view once, without finished rounds (as the API sends it).
Besides the levels, ``--a``/``--b`` may name the benchmark-only players of
:mod:`benchmarks.limit` (``limit``, ``limit-play``: expert's search on the true
deal), which are given the whole state as well as the view.
Two worker processes share the work; results depend only on ``--seed``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from benchmarks import limit
from services.ai_worker import decide, warm_up
from services.computers import LEVEL_NAMES
from services.engine import (
    PRESETS,
    Bid,
    Deck,
    GameState,
    Look,
    Move,
    Pass,
    Play,
    Rules,
    apply,
    make_rules,
    mask_of,
    new_game,
    turn,
    view,
)
from services.engine.scoring import side_round_points
from services.engine.state import first_seat, replay_tricks
from spades_client.duplicate import (  # the figures, shared with spades-bot match
    Played,
    RoundFacts,
    adjusted_points,
    level_counts,
    mean_ci,
    mean_of_sides,
    per_level,
    play_figures,
    seatings,
    summarise_rounds,
    wilson,
)  # fmt: skip

__all__ = ["RoundFacts", "adjusted_points", "level_counts", "main", "play_pair", "round_facts", "seatings", "wilson"]
DEFAULT_ROUND_CAP = 200  # a game to 500 takes ~10–25 rounds; this only stops a pathological one
SEED_STRIDE = 1_000_003  # deal/game seeds: seed * SEED_STRIDE + i


Decider = Callable[[dict[str, Any], str, int], dict[str, Any]]  # (seat view, player, seed) -> a level's decision
# players that read the whole state besides the seat's view (benchmark-only): (state, seat view, seed) -> decision
SEEING: dict[str, Callable[[GameState, dict[str, Any], int], dict[str, Any]]] = {
    limit.LIMIT: limit.decide,
    limit.LIMIT_PLAY: limit.decide_play,
}
PLAYERS = (*LEVEL_NAMES, *SEEING)  # whom --a and --b may name


def play(rules: Rules, game_seed: int, levels: tuple[str, ...], seed_of_move: Callable[[int], int],
         max_rounds: int, decider: Decider = decide) -> Played:  # fmt: skip
    """Play ``new_game(rules, game_seed)`` with ``levels`` per seat until the
    game ends or ``max_rounds`` rounds are finished (1: a single round).

    Each decision renders the seat's view once, finished rounds left out (the
    AI never reads them; the API does not send them).  ``decider`` answers
    each turn in the levels' decision form (``services.ai_worker.decide`` by
    default; benchmarks.ratings also seats a bot through it), but a player of
    :data:`SEEING` is given the whole state as well."""
    state = new_game(rules, seed=game_seed)
    move_no = 0
    offered = [0, 0, 0, 0]
    while state.phase != "game_over" and len(state.history) < max_rounds:
        seat = turn(state)
        seat_view = view(state, seat, history=False)
        if state.phase == "bidding" and seat_view["hand"] is None:
            offered[seat] += 1
        if levels[seat] in SEEING:
            decision = SEEING[levels[seat]](state, seat_view, seed_of_move(move_no))
        else:
            decision = decider(seat_view, levels[seat], seed_of_move(move_no))
        state = apply(state, seat, move_of(decision, rules.deck))
        move_no += 1
    rounds = tuple(round_facts(rules, i + 1, record) for i, record in enumerate(state.history))
    return Played(rounds, state.scores, state.winner, state.phase != "game_over", tuple(offered))


def move_of(decision: dict[str, Any], deck: Deck) -> Move:
    """A level's decision as the engine's move (its cards read in the game's ``deck``)."""
    if "card" in decision:
        return Play(deck.parse(decision["card"]))
    if "pass" in decision:
        return Pass(mask_of(deck.parse(code) for code in decision["pass"]))
    if decision.get("look"):
        return Look()
    return Bid(decision["bid"], blind=bool(decision.get("blind", False)))


def round_facts(rules: Rules, round_no: int, record: Any) -> RoundFacts:
    """The figures of a finished round from its record; tricks per seat come
    from its 13 tricks, bags per side from the engine's own scoring rule."""
    tricks = [0, 0, 0, 0]
    for _, _, winner in replay_tricks(first_seat(round_no), record.plays):
        tricks[winner] += 1
    bags = tuple(
        side_round_points(rules, rules.seats_of(side), record.bids, tuple(tricks), record.blind)[1]
        for side in range(rules.sides)
    )
    passed = tuple(bool(p) for p in record.passes)
    return RoundFacts(record.bids, tuple(tricks), record.points, bags, record.bag_penalties, record.blind, passed)


def play_pair(args: tuple[str, dict[str, Any], str, str, int, int]) -> dict[str, Any]:
    """Both plays of one duplicate deal (``max_rounds`` 1) or game pair, as plain figures per play."""
    preset, overrides, a, b, game_seed, max_rounds = args
    return duplicate_pair(make_rules(preset, **overrides), a, b, game_seed, max_rounds)


def levels_decide(levels: tuple[str, ...], game_seed: int, swapped: int) -> Decider:
    """The levels' own decisions for every play (a :data:`DeciderOf` that ignores the play)."""
    return decide


DeciderOf = Callable[[tuple[str, ...], int, int], Decider]  # (players per seat, game seed, play 0/1) -> decider


def duplicate_pair(rules: Rules, a: str, b: str, game_seed: int, max_rounds: int,
                   decider_of: DeciderOf = levels_decide, alone: bool = False) -> dict[str, Any]:  # fmt: skip
    """Both plays of one duplicate deal or game pair between players ``a`` and ``b`` (``alone``: the four
    plays of ``a`` on each seat in turn, :func:`seatings`), as plain figures per play; ``decider_of`` gives
    each play its decider (benchmarks.gauntlet seats bots through it)."""
    plays = []
    seated = seatings(a, b, alone)
    for swapped, seating in enumerate(seated):
        decider = decider_of(seating.levels, game_seed, swapped)
        seeds = move_seeds(len(seated), game_seed, swapped, max_rounds)
        played = play(rules, game_seed, seating.levels, seeds, max_rounds, decider)
        plays.append(play_figures(rules, seating, played))
    return {"plays": plays}


def move_seeds(plays: int, game_seed: int, swapped: int, max_rounds: int) -> Callable[[int], int]:
    """The move seeds of play ``swapped`` of the ``plays`` of one duplicate deal or game pair."""
    stride = 1000 if max_rounds == 1 else 1_000_000  # single rounds: earlier runs' seeds, so old rows reproduce
    first = (plays * game_seed + swapped) * stride
    return lambda n: first + n


def summarise_games(pairs: list[dict[str, Any]], round_cap: int) -> dict[str, Any]:
    """Whole-game mode: wins with a Wilson interval, pair splits, rounds, scores."""
    plays = [p for pair in pairs for p in pair["plays"]]
    games = len(plays)
    wins = {r: sum(1 for p in plays if p[r]["won"]) for r in ("a", "b")}
    outcomes = Counter(pair_outcome(pair) for pair in pairs)
    rounds = [p["rounds"] for p in plays]
    total_rounds = sum(rounds)
    return {
        "games": games,
        "wins": wins,
        "ties": games - wins["a"] - wins["b"],
        "a_win_share": round(wins["a"] / games, 4),
        "a_win_share_wilson95": wilson(wins["a"], games),
        "pairs": {k: outcomes[k] for k in PAIR_OUTCOMES},
        "rounds_per_game": {"mean": round(total_rounds / games, 2), "min": min(rounds), "max": max(rounds)},
        "round_cap": round_cap,
        "round_cap_hit": sum(1 for p in plays if p["capped"]),
        "mean_final_score": {r: round(mean_of_sides(p[r]["final_score"] for p in plays), 1) for r in ("a", "b")},
        "final_score_difference_a_minus_b": mean_ci(
            [mean_of_sides(p["a"]["final_score"] - p["b"]["final_score"] for p in pair["plays"]) for pair in pairs]
        ),
        "mean_points_per_round": {r: round(sum(p[r]["points"] for p in plays) / total_rounds, 2) for r in ("a", "b")},
    }


PAIR_OUTCOMES = ("a_won_both", "split", "b_won_both", "with_unfinished")


def pair_outcome(pair: dict[str, Any]) -> str:
    """How a game pair fell: one of :data:`PAIR_OUTCOMES`."""
    if any(not p["a"]["won"] and not p["b"]["won"] for p in pair["plays"]):
        return "with_unfinished"
    return ("b_won_both", "split", "a_won_both")[sum(p["a"]["won"] for p in pair["plays"])]


def run_pairs(jobs: list[tuple[Any, ...]], processes: int, chunksize: int) -> list[dict[str, Any]]:
    """Every job's pair, in job order, over ``processes`` warm worker processes."""
    return run_jobs(play_pair, jobs, processes, chunksize)


def run_jobs(work: Callable[[Any], dict[str, Any]], jobs: list[Any], processes: int,
             chunksize: int) -> list[dict[str, Any]]:  # fmt: skip
    """``work`` of every job, in job order, over ``processes`` warm (forked) worker processes."""
    if processes > 1:
        with multiprocessing.get_context("fork").Pool(processes, initializer=warm_up) as pool:
            return pool.map(work, jobs, chunksize=chunksize)
    warm_up()
    return [work(job) for job in jobs]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", choices=PLAYERS, required=True)
    parser.add_argument("--b", choices=PLAYERS, required=True)
    parser.add_argument("--preset", choices=tuple(PRESETS), default="partnership")
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE",
        help="a rule option over the preset, the value as JSON (e.g. blind_margin=0); repeatable",
    )  # fmt: skip
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--rounds", type=int, help="single-round mode: duplicate deals, each played twice (default 2000)")
    mode.add_argument("--games", type=int, help="whole-game mode: game seeds, each played twice (a game pair)")
    parser.add_argument("--round-cap", type=int, default=DEFAULT_ROUND_CAP, help="whole games: stop a game here")
    parser.add_argument("--win-score", type=int, help="override the preset's winning score (short test games)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)
    if args.games is None and args.rounds is None:
        args.rounds = 2000
    return args


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    started = time.perf_counter()
    overrides = {name: json.loads(value) for name, value in (o.split("=", 1) for o in args.option)}
    if args.win_score is not None:
        overrides["win_score"] = args.win_score
    rules = make_rules(args.preset, **overrides)
    whole_games = args.games is not None
    count = args.games if whole_games else args.rounds
    max_rounds = args.round_cap if whole_games else 1
    jobs = [(args.preset, overrides, args.a, args.b, args.seed * SEED_STRIDE + i, max_rounds) for i in range(count)]
    pairs = run_pairs(jobs, args.processes, chunksize=1 if whole_games else 20)
    plays = [p for pair in pairs for p in pair["plays"]]
    report: dict[str, Any] = {"mode": "games" if whole_games else "rounds", "a": args.a, "b": args.b}
    report["preset"] = args.preset
    if overrides:
        report["options"] = overrides
    if whole_games:
        report |= {
            "game_pairs": count,
            "seed": args.seed,
            "rules": rules.to_dict(),
            **summarise_games(pairs, args.round_cap),
        }
    else:
        report |= {"deals": count, "plays": 2 * count, "seed": args.seed, **summarise_rounds(pairs, rules)}
    report["per_level"] = {r: per_level(plays, r, getattr(args, r), rules.partnership) for r in ("a", "b")}
    report["elapsed_s"] = round(time.perf_counter() - started, 1)
    print(json.dumps(report))
    return report


if __name__ == "__main__":
    main()
