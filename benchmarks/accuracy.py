"""The levels' accuracy, scored by expert's analysis from each seat's view, printed as JSON.

    python -m benchmarks.accuracy [--rounds 8] [--seed 7100] [--opponent normal] [--players easy,...,cheater]

Each player (the catalogue's levels, and ``cheater``: :mod:`testkit.cheater`, expert's search on the true deal,
test-only) plays ``--rounds`` single partnership rounds on seats 0 and 2 against ``--opponent`` on seats 1 and 3,
the same deals for every player (game seeds ``--seed``, ``--seed`` + 1, ...).  Each of its decisions is scored as
the service scores a person's (:mod:`services.ratings.accuracy`): expert's analysis (:func:`services.ai_worker
.analyse`, the ``ai.hint`` task's answer) of the seat's view, with a seed of its own, and the move made.  Per player:
decisions scored, the share accurate and the mean points given away (and split into bids and cards), and per round
the same, from which ``flag`` groups rounds into games and finds how many games the flag rule needs to flag each
player (``games_to_flag``; null: not flagged).  ``seconds_per_analysis``: the mean time of one expert analysis (one
core), for the capacity figures.  A benchmark, not a test: nothing fails.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from typing import Any

from benchmarks.tournament import move_of
from services.ai_worker import analyse, decide, warm_up
from services.computers import LEVEL_NAMES
from services.engine import apply, make_rules, new_game, turn, view
from services.engine.state import first_seat, replay_tricks
from services.ratings import accuracy
from testkit.cheater import cheat

CHEATER = "cheater"
ROUNDS_PER_GAME = 8  # a rated game (to 500) lasts about this many rounds: rounds grouped into games for the flag


def play_round(player: str, opponent: str, game_seed: int, timings: list[float]) -> list[accuracy.Scored | None]:
    """One partnership round of ``player`` (seats 0, 2) against ``opponent``; ``player``'s decisions scored."""
    rules = make_rules("partnership")
    state = new_game(rules, seed=game_seed)
    asked: list[tuple[int | None, int, list[dict[str, Any]], dict[str, Any]]] = []  # trick, seat, candidates, made
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
            timings.append(time.perf_counter() - started)
            trick = (move_no - 4) // 4 if state.phase == "playing" else None
            asked.append((trick, seat, analysis["candidates"], made))
        else:
            made = decide(seat_view, opponent, seed)
        state = apply(state, seat, move_of(made, rules.deck))
        move_no += 1
    winners = [winner for _, _, winner in replay_tricks(first_seat(1), state.history[0].plays)]
    return [
        accuracy.score(candidates, made, None if trick is None else winners[trick] % 2 == seat % 2)
        for trick, seat, candidates, made in asked
    ]


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
    args = parser.parse_args()
    warm_up()
    out: dict[str, Any] = {
        "rounds": args.rounds,
        "seed": args.seed,
        "opponent": args.opponent,
        "margin": accuracy.MARGIN,
        "machine": platform.processor() or platform.machine(),
        "players": {},
    }
    timings: list[float] = []
    for player in args.players.split(","):
        started = time.perf_counter()
        rounds = [accuracy.total(play_round(player, args.opponent, args.seed + r, timings)) for r in range(args.rounds)]
        pooled = sum(rounds, accuracy.Accuracy())
        out["players"][player] = {
            **pooled.figures(),
            "per_round": [[r.decisions, r.accurate, r.given_away, r.cards, r.trick_excess] for r in rounds],
            "games_to_flag": games_to_flag(rounds, ROUNDS_PER_GAME),
            "seconds": round(time.perf_counter() - started, 1),
        }
        print(json.dumps({player: out["players"][player]}), flush=True)
    out["seconds_per_analysis"] = round(sum(timings) / len(timings), 4) if timings else None
    out["analyses"] = len(timings)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
