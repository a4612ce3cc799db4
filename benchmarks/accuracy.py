"""The levels' accuracy, scored by expert's analysis from each seat's view, printed as JSON.

    python -m benchmarks.accuracy [--rounds 8] [--seed 7100] [--opponent normal] [--players easy,...,cheater] [--raw]

Each player (the catalogue's levels, and ``cheater``: :mod:`testkit.cheater`, expert's search on the true deal,
test-only) plays ``--rounds`` single partnership rounds on seats 0 and 2 against ``--opponent`` on seats 1 and 3,
the same deals for every player (game seeds ``--seed``, ``--seed`` + 1, ...).  Each of its decisions is scored as
the service scores a person's (:mod:`services.ratings.accuracy`): expert's analysis (:func:`services.ai_worker
.analyse`, the ``ai.hint`` task's answer) of the seat's view, with a seed of its own, and the move made.  Per player:
decisions scored, the share accurate and the mean points given away (and split into bids and cards), and per round
the same, from which ``flag`` groups rounds into a person's games (:data:`ROUNDS_PER_GAME`) and finds how many games
the flag rule needs to flag each player (``games_to_flag``; null: not flagged).  Once the round is over, each of the player's card decisions with
a choice and at most 8 tricks left is also scored against the true deal, solved exactly
(:func:`services.ai_worker.true_deal.evaluation`, the ``ai.true_deal`` task's answer, asked only of those cards, as
the service asks; :func:`services.ratings.accuracy.true_agrees`): ``true_cards`` scored, ``true_agreement`` the
share agreeing, and split by tricks left (``true_by_tricks_left``: ``{tricks: [cards, agreeing]}``).
``seconds_per_analysis``, ``seconds_per_true_deal``: the mean time of one expert analysis and of one true-deal
evaluation (one core), for the capacity figures.  ``--raw``: each scored card's ``[tricks left, points given away on
the true deal, the legal cards' spread]`` too (to choose the margin).  A benchmark, not a test: nothing fails.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from typing import Any

from benchmarks.tournament import move_of
from services.ai_worker import analyse, decide, warm_up
from services.ai_worker.true_deal import evaluated, evaluation
from services.computers import LEVEL_NAMES
from services.engine import apply, card_code, make_rules, new_game, turn, view
from services.engine.state import first_seat, replay_tricks
from services.ratings import accuracy
from testkit.cheater import cheat

CHEATER = "cheater"
# A person's rated game (to 500) lasts about 8 rounds in one seat; a round here holds two seats' decisions (0 and 2),
# so 4 rounds hold about one person's game of decisions: rounds grouped into games for the flag.
ROUNDS_PER_GAME = 4


class Timings:
    """Seconds per expert analysis (``analyses``) and per true-deal evaluation (``true``)."""

    def __init__(self) -> None:
        self.analyses: list[float] = []
        self.true: list[float] = []


def play_round(
    player: str, opponent: str, game_seed: int, timings: Timings, raw: list[list[float]] | None = None
) -> tuple[list[accuracy.Scored | None], list[bool | None], dict[int, list[int]]]:
    """One partnership round of ``player`` (seats 0, 2) against ``opponent``: ``player``'s decisions scored, its
    cards' true-deal agreement, and the cards scored on the true deal and agreeing, by tricks left."""
    rules = make_rules("partnership")
    state = new_game(rules, seed=game_seed)
    asked: list[tuple[int | None, int, list[dict[str, Any]], dict[str, Any]]] = []  # trick, seat, candidates, made
    views: list[dict[str, Any]] = []
    move_no = 0
    while not state.history:
        seat = turn(state)
        assert seat is not None
        seat_view = view(state, seat, history=False)
        seed = game_seed * 1000 + move_no
        if seat % 2 == 0:
            made = cheat(state, seat_view, seed) if player == CHEATER else decide(seat_view, player, seed)
            started = time.perf_counter()
            analysis = analyse(seat_view, seed + 500)  # a seed of its own, as the service's review seeds
            timings.analyses.append(time.perf_counter() - started)
            trick = (move_no - 4) // 4 if state.phase == "playing" else None
            asked.append((trick, seat, analysis["candidates"], made))
            views.append(seat_view)
        else:
            made = decide(seat_view, opponent, seed)
        state = apply(state, seat, move_of(made, rules.deck))
        move_no += 1
    winners = [winner for _, _, winner in replay_tricks(first_seat(1), state.history[0].plays)]
    plays = [card_code(c) for c in state.history[0].plays]  # the round is over: its deal is public
    scored = [
        accuracy.score(candidates, made, None if trick is None else winners[trick] % 2 == seat % 2)
        for trick, seat, candidates, made in asked
    ]
    trues: list[bool | None] = []
    bands: dict[int, list[int]] = {}
    for (trick, _, _, made), seat_view in zip(asked, views, strict=True):
        if trick is not None and len(seat_view["legal"]) > 1 and evaluated(seat_view):
            started = time.perf_counter()
            true = evaluation(seat_view, plays)
            timings.true.append(time.perf_counter() - started)
            agrees = accuracy.true_agrees(true["candidates"], made)
            if agrees is not None:
                left = len(seat_view["hand"])
                band = bands.setdefault(left, [0, 0])
                band[0], band[1] = band[0] + 1, band[1] + agrees
                if raw is not None:
                    values = {c["card"]: c["value"] for c in true["candidates"]}
                    top, low = max(values.values()), min(values.values())
                    raw.append([left, round(top - values[made["card"]], 2), round(top - low, 2)])
            trues.append(agrees)
    return scored, trues, bands


def games_to_flag(rounds: list[accuracy.Accuracy], per_game: int) -> int | None:
    """How many games (``per_game`` rounds each, in order) the flag rule needs before it flags; None: never."""
    games = [sum(rounds[i : i + per_game], accuracy.Accuracy()) for i in range(0, len(rounds), per_game)]
    for n in range(1, len(games) + 1):
        if accuracy.beyond_levels(games[:n], min_games=1):
            return max(n, accuracy.FLAG_MIN_GAMES)
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seed", type=int, default=7100)
    parser.add_argument("--opponent", default="normal")
    parser.add_argument("--players", default=",".join([*LEVEL_NAMES, CHEATER]))
    parser.add_argument("--raw", action="store_true")
    args = parser.parse_args()
    warm_up()
    out: dict[str, Any] = {
        "rounds": args.rounds,
        "seed": args.seed,
        "opponent": args.opponent,
        "margin": accuracy.MARGIN,
        "true_margin": accuracy.TRUE_MARGIN,
        "machine": platform.processor() or platform.machine(),
        "players": {},
    }
    timings = Timings()
    for player in args.players.split(","):
        started = time.perf_counter()
        raw: list[list[float]] | None = [] if args.raw else None
        rounds: list[accuracy.Accuracy] = []
        bands: dict[int, list[int]] = {}
        for r in range(args.rounds):
            scored, trues, by_band = play_round(player, args.opponent, args.seed + r, timings, raw)
            rounds.append(accuracy.total(scored, trues))
            for left, (cards, agreed) in by_band.items():
                bands[left] = [bands.get(left, [0, 0])[0] + cards, bands.get(left, [0, 0])[1] + agreed]
        pooled = sum(rounds, accuracy.Accuracy())
        out["players"][player] = {
            **pooled.figures(),
            "true_by_tricks_left": dict(sorted(bands.items())),
            "per_round": [
                [r.decisions, r.accurate, r.given_away, r.cards, r.trick_excess, r.true_cards, r.true_agreed]
                for r in rounds
            ],
            "games_to_flag": games_to_flag(rounds, ROUNDS_PER_GAME),
            "seconds": round(time.perf_counter() - started, 1),
            **({"raw": raw} if raw is not None else {}),
        }
        print(json.dumps({player: out["players"][player]}), flush=True)
    out["seconds_per_analysis"] = round(sum(timings.analyses) / len(timings.analyses), 4) if timings.analyses else None
    out["analyses"] = len(timings.analyses)
    out["seconds_per_true_deal"] = round(sum(timings.true) / len(timings.true), 4) if timings.true else None
    out["true_deal_evaluations"] = len(timings.true)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
