"""The gauntlet: expert and hard, each against the same panel of opponents on the same duplicate deals.

    python -m benchmarks.gauntlet --preset partnership --deals 2000 --seed 1
    python -m benchmarks.gauntlet --preset individual --deals 100 --opponents normal,nil-happy,head-to-head

A level beats one opponent by a margin that says as much about the opponent as about the level; the
gauntlet asks whether expert's edge over hard holds against everyone.  For every opponent of the panel
and every deal, two duplicate pairs are played on that deal, exactly as ``benchmarks.tournament`` plays a
single-round pair (:func:`benchmarks.tournament.duplicate_pair`: the same deal and move seeds, the sides
swapped): expert against the opponent, then hard against it.  The panel (``--opponents``, default all):

* every other level: ``easy``, ``standard``, ``pro``, ``basic``, ``normal``;
* ``example-bot``: ``examples/bot.py:choose``, the bot of ``clients/python``'s docs, given the view the
  runner would give it (:func:`benchmarks.ratings.api_view`);
* the people of :mod:`testkit.people_bots`: ``nil-happy``, ``cautious``, ``overbidder``, ``bag-dumper``,
  ``trumper``, ``random-legal``;
* ``head-to-head``: expert against hard itself, on the same deals (the row of
  ``benchmarks.tournament --a expert --b hard`` with the same ``--seed`` and ``--deals`` as ``--rounds``).

Per opponent the JSON gives, for expert and for hard, its **margin** (the tournament's paired difference:
its points a round minus the opponent's, with a normal 95 % interval over the deals) plain and
bag-adjusted, the per-level figures of both sides (nil rates, nils set, bags) and the CPU seconds its pairs
took per deal; then **expert_minus_hard**: per deal expert's paired difference minus hard's, averaged,
with its interval.  Because both levels play the same deals, the luck of the cards cancels a second time
and that interval is narrower than the two margins' together.  ``deal_digest`` is a digest of the hands
every seat was dealt, as its own views showed them, over every deal the level played: expert's and hard's
are equal when they met the same cards.  ``head_to_head`` gives expert − hard directly.  ``summary``
counts the opponents expert beats by more than hard does, and those where the interval of the difference
is above 0.  Two worker processes share the work; results depend only on
``--seed`` and ``--deals``.

``--alone`` (for the individual game) seats each level alone against three of the opponent, on each seat in
turn: four plays a deal instead of two, each level's margin its seat's points minus the mean of the three
others'.  In the pairs, two of a level sit at one table as rivals, and a level that sets nils sets its
fellow's too, which lowers its own margin; alone, every rival is the opponent.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from collections.abc import Callable
from typing import Any

from benchmarks.ratings import BOT, DEFAULT_BOT, api_view, bot_of, decision_of
from benchmarks.tournament import SEED_STRIDE, Decider, duplicate_pair, run_jobs
from services.ai_worker import decide
from services.computers import LEVEL_NAMES
from services.engine import make_rules
from spades_client.duplicate import mean_ci, pair_differences, per_level, summarise_rounds
from spades_client.models import GameView
from testkit.people_bots import PEOPLE

LEVELS = ("expert", "hard")  # the two measured against the panel
HEAD_TO_HEAD = "head-to-head"
OTHER_LEVELS: tuple[str, ...] = tuple(level for level in LEVEL_NAMES if level not in LEVELS)
OPPONENTS: tuple[str, ...] = (*OTHER_LEVELS, BOT, *PEOPLE, HEAD_TO_HEAD)
PRESETS = ("partnership", "individual")  # the example bot knows the plain game only


def bot(name: str) -> Callable[[GameView], Any]:
    return bot_of(DEFAULT_BOT) if name == BOT else PEOPLE[name]


def gauntlet_decider(players: tuple[str, ...], game_seed: int, swapped: int) -> Decider:
    """Each turn's decision: a level's from ``services.ai_worker.decide``, a bot's from the
    :class:`GameView` the runner would give it (its game id names the deal and the play, so a seeded bot
    draws afresh on every deal).  Every seat's first hand is kept in :data:`dealt` for the digest."""
    moves = [0]
    seats = tuple(p if p in LEVEL_NAMES else BOT for p in players)  # a bot sits as a bot, not a computer
    game_id = f"gauntlet-{game_seed}-{swapped}"

    def decide_turn(seat_view: dict[str, Any], player: str, seed: int) -> dict[str, Any]:
        moves[0] += 1
        if seat_view["hand"] is not None:
            dealt.setdefault((game_seed, swapped, seat_view["you"]), tuple(seat_view["hand"]))
        if player in LEVEL_NAMES:
            return decide(seat_view, player, seed)
        body = api_view(seat_view, seats, moves[0]) | {"game_id": game_id}
        return decision_of(bot(player)(GameView.from_dict(body)))

    return decide_turn


dealt: dict[tuple[int, int, int], tuple[str, ...]] = {}  # (game seed, play, seat) -> its hand, per process


def play_deal(job: tuple[str, str, int, bool]) -> dict[str, Any]:
    """One deal against one opponent: expert's duplicate pair and hard's (or the head-to-head pair; ``alone``:
    each level alone against three of the opponent, on each seat in turn), each with its CPU seconds and the
    hands its seats were dealt."""
    preset, opponent, game_seed, alone = job
    rules = make_rules(preset)
    matches = {"expert": "hard"} if opponent == HEAD_TO_HEAD else dict.fromkeys(LEVELS, opponent)
    out: dict[str, Any] = {}
    for level, against in matches.items():
        dealt.clear()
        started = time.process_time()
        pair = duplicate_pair(rules, level, against, game_seed, 1, gauntlet_decider, alone)
        pair["cpu_s"] = time.process_time() - started
        pair["hands"] = [list(dealt[key]) for key in sorted(dealt)]
        out[level] = pair
    return out


def digest(pairs: list[dict[str, Any]]) -> str:
    """The hands of every seat in every play of ``pairs``, in order, as a short hex digest."""
    return hashlib.sha256(json.dumps([p["hands"] for p in pairs]).encode()).hexdigest()[:16]


def side_figures(pairs: list[dict[str, Any]], level: str, opponent: str, rules: Any) -> dict[str, Any]:
    """One level's figures against one opponent over its pairs."""
    rounds = summarise_rounds(pairs, rules)
    points = rounds["mean_points_per_round"]
    plays = [p for pair in pairs for p in pair["plays"]]
    return {
        "margin": rounds["difference_a_minus_b"],
        "bag_adjusted_margin": rounds["bag_adjusted"]["difference_a_minus_b"],
        "mean_points_per_round": {"level": points["a"], "opponent": points["b"]},
        "rounds_won": rounds["rounds_won"],
        "per_level": {
            "level": per_level(plays, "a", level, rules.partnership),
            "opponent": per_level(plays, "b", opponent, rules.partnership),
        },
        "deal_digest": digest(pairs),
        "cpu_s_per_deal": round(sum(p["cpu_s"] for p in pairs) / len(pairs), 3),
    }


def paired(expert: list[dict[str, Any]], hard: list[dict[str, Any]], figure: str) -> dict[str, Any]:
    """Per deal expert's paired difference minus hard's, with its interval over the deals."""
    differences = zip(pair_differences(expert, figure), pair_differences(hard, figure), strict=True)
    return mean_ci([e - h for e, h in differences])


def summarise(opponent: str, deals: list[dict[str, Any]], rules: Any) -> dict[str, Any]:
    """The row of one opponent (or the head-to-head block)."""
    if opponent == HEAD_TO_HEAD:
        pairs = [d["expert"] for d in deals]
        figures = side_figures(pairs, "expert", "hard", rules)
        return {
            "deals": len(deals),
            "expert_minus_hard": figures["margin"],
            "bag_adjusted": figures["bag_adjusted_margin"],
            **{k: v for k, v in figures.items() if k not in ("margin", "bag_adjusted_margin")},
        }
    sides = {level: [d[level] for d in deals] for level in LEVELS}
    return {
        "deals": len(deals),
        **{level: side_figures(sides[level], level, opponent, rules) for level in LEVELS},
        "expert_minus_hard": paired(sides["expert"], sides["hard"], "points"),
        "expert_minus_hard_bag_adjusted": paired(sides["expert"], sides["hard"], "adjusted"),
    }


def summary(rows: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Against how many opponents expert's margin beats hard's, and with the interval above 0."""
    return {
        "opponents": len(rows),
        "expert_ahead": sorted(o for o, r in rows.items() if r["expert_minus_hard"]["mean"] > 0),
        "interval_above_zero": sorted(o for o, r in rows.items() if r["expert_minus_hard"]["ci95"][0] > 0),
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", choices=PRESETS, default="partnership")
    parser.add_argument("--deals", type=int, default=2000, help="duplicate deals per opponent")
    parser.add_argument("--opponents", default=",".join(OPPONENTS), help="comma-separated, of: " + ", ".join(OPPONENTS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument(
        "--alone", action="store_true", help="individual game: each level alone against three of the opponent"
    )
    args = parser.parse_args(argv)
    args.opponents = opponents_arg(parser, args.opponents, OPPONENTS)
    return args


def opponents_arg(parser: argparse.ArgumentParser, text: str, allowed: tuple[str, ...]) -> list[str]:
    """The comma-separated opponents of ``text``, each one of ``allowed`` (else the parser's error)."""
    opponents = [o for o in text.split(",") if o]
    unknown = sorted(set(opponents) - set(allowed))
    if unknown:
        parser.error(f"unknown opponents {unknown}; choose from {list(allowed)}")
    return opponents


def deal_seeds(seed: int, deals: int) -> list[int]:
    """The tournament's deal seeds of ``--seed`` and ``--deals``."""
    return [seed * SEED_STRIDE + i for i in range(deals)]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    started = time.perf_counter()
    rules = make_rules(args.preset)
    seeds = deal_seeds(args.seed, args.deals)
    jobs = [(args.preset, opponent, seed, args.alone) for opponent in args.opponents for seed in seeds]
    results = run_jobs(play_deal, jobs, args.processes, chunksize=5)
    by_opponent = {o: results[i * args.deals : (i + 1) * args.deals] for i, o in enumerate(args.opponents)}
    rows = {o: summarise(o, deals, rules) for o, deals in by_opponent.items() if o != HEAD_TO_HEAD}
    report: dict[str, Any] = {"preset": args.preset, "deals": args.deals, "seed": args.seed, "levels": list(LEVELS)}
    report["seating"] = "alone" if args.alone else "pairs"
    report["opponents"] = rows
    if HEAD_TO_HEAD in by_opponent:
        report["head_to_head"] = summarise(HEAD_TO_HEAD, by_opponent[HEAD_TO_HEAD], rules)
    report["summary"] = summary(rows)
    report["elapsed_s"] = round(time.perf_counter() - started, 1)
    print(json.dumps(report))
    return report


if __name__ == "__main__":
    main()
