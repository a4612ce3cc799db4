"""Record what the computer players decide, so a change can prove it decides the same.

    python -m tests.ai_worker.record_decisions [--out tests/ai_worker/data/decisions.json.gz]
    python -m tests.ai_worker.record_decisions --add LEVEL   # a new level's entries, the rest kept
    python -m tests.ai_worker.record_decisions --answer-again LEVEL   # a level's decisions changed

Whole games are played on the engine by tables of mixed levels under several
rule sets (both scorings, nil on and off, other nil values, bag limits and
penalties, team bid limits, short games so that the game can end in a round).
Along the way positions are picked, more often where a nil is alive, and one
level is asked for its move there, through the functions the Celery tasks call
(``tasks.decide`` for ``ai.decide``, ``tasks.analyse`` for ``ai.hint``), with
the seat's view exactly as the API sends it (finished rounds left out, through
JSON).  Each entry keeps that view, the level, the seed and the answer;
``tests/ai_worker/test_recorded_decisions.py`` replays them all.

The file only changes when this command is run again, which is right only when
a decision is meant to change, or with ``--add`` for a new level: that appends
the level's entries (tables of every level, entries for it alone) and keeps
every other entry as it was, so the replay still proves the others unchanged.
``--answer-again`` keeps every entry's view and asks the level again on its own
entries (its hints too, for the hint level): for a change meant to alter that
level's decisions alone, it says how many of them changed, by scoring, and the
replay still proves every other level's unchanged.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from services.ai_worker import tasks
from services.computers import HINT_LEVEL, LEVEL_NAMES
from services.engine import Bid, Play, apply, make_rules, new_game, parse_card, turn, view

DATA = Path(__file__).resolve().parent / "data" / "decisions.json.gz"
# Decisions wanted per level: hard and expert are the slow ones to replay.
TARGETS = {"easy": 150, "standard": 170, "pro": 200, "basic": 180, "normal": 200, "hard": 160, "expert": 150}
DEFAULT_TARGET = 200  # a level not in TARGETS: as many as the most
# What test_recorded_decisions wants of each level's entries, at least (--add tries seeds until a level has it).
MINIMA = {"bids": 40, "cards": 40, "partnership": 40, "individual": 40, "nil_alive": 30, "later_rounds": 50}
HINTS = 40  # of the hint level's entries, answered through ai.hint's function (move and figures)
ROUND_CAP = 4  # rounds played per game at most
RULE_SETS: list[tuple[str, dict[str, Any]]] = [
    ("partnership", {}),
    ("individual", {}),
    ("partnership", {"nil": False, "spades_must_be_broken": False, "min_team_bid": 2}),
    ("partnership", {"nil_tricks_count_for_team": False, "max_team_bid": 10, "nil_value": 50, "win_score": 200}),
    ("partnership", {"bag_limit": 3, "bag_penalty": 60, "set_penalty": "zero", "lose_score": None, "win_score": 150}),
    ("individual", {"bag_limit": 4, "bag_penalty": 50, "set_penalty": "negative", "nil_value": 75, "win_score": 120}),
    ("individual", {"nil": False, "nil_tricks_count_for_team": True, "spades_must_be_broken": False}),
    ("partnership", {"min_team_bid": 0, "lose_score": -50, "win_score": 250, "bag_limit": 5, "bag_penalty": 100}),
]


def worker_view(state: Any, seat: int) -> dict[str, Any]:
    """The view as a worker receives it: finished rounds left out, through JSON."""
    return json.loads(json.dumps(view(state, seat, history=False)))


def nil_alive(v: dict[str, Any]) -> bool:
    """Some seat bid nil and, while playing, has taken no trick yet."""
    return any(
        b == 0 and (v["phase"] == "bidding" or won == 0) for b, won in zip(v["bids"], v["tricks_won"], strict=True)
    )


def answer(v: dict[str, Any], level: str, seed: int, entry: str) -> dict[str, Any]:
    """What the task's function answers: the move, or for a hint the whole analysis."""
    if entry == "hint":
        return tasks.analyse(v, seed)
    return {"move": tasks.decide(v, level, seed)}


def target(level: str) -> int:
    """The entries wanted of ``level``."""
    return TARGETS.get(level, DEFAULT_TARGET)


def pick_level(counts: dict[str, int], rng: random.Random, seat_level: str) -> str | None:
    """The seat's own level while it still wants entries, else a level still short of its target
    (``counts`` holds the levels being recorded)."""
    if seat_level in counts and counts[seat_level] < target(seat_level) and rng.random() < 0.6:
        return seat_level
    short = [lv for lv in counts if counts[lv] < target(lv)]
    return rng.choice(short) if short else None


def record(seed: int, levels: tuple[str, ...] = LEVEL_NAMES) -> list[dict[str, Any]]:
    """Entries for ``levels`` (all by default), from games of tables of every level."""
    rng = random.Random(seed)
    counts = dict.fromkeys(levels, 0)
    hints = 0
    entries: list[dict[str, Any]] = []
    game = 0
    while any(counts[lv] < target(lv) for lv in levels):
        preset, options = RULE_SETS[game % len(RULE_SETS)]
        rules = make_rules(preset, **options)
        table = [rng.choice(LEVEL_NAMES) for _ in range(4)]
        state = new_game(rules, seed=rng.randrange(10**9))
        game += 1
        n = 0
        while state.phase != "game_over" and state.round <= ROUND_CAP:
            seat = turn(state)
            v = worker_view(state, seat)
            share = 0.9 if v["phase"] == "bidding" else 0.3 if nil_alive(v) else 0.08
            level = pick_level(counts, rng, table[seat]) if rng.random() < share else None
            if level is not None:
                decision_seed = rng.randrange(2**64) if rng.random() < 0.7 else rng.randrange(1000)
                entry = "hint" if level == HINT_LEVEL and hints < HINTS and rng.random() < 0.3 else "decide"
                hints += entry == "hint"
                entries.append(
                    {"entry": entry, "level": level, "seed": decision_seed, "view": v}
                    | answer(v, level, decision_seed, entry)
                )
                counts[level] += 1
            move = tasks.decide(v, table[seat], n)
            state = apply(state, seat, Bid(move["bid"]) if "bid" in move else Play(parse_card(move["card"])))
            n += 1
    return entries


def summary(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """What the set covers: per level, bids and cards, scorings, rule sets, nil situations."""
    out: dict[str, Any] = {"entries": len(entries), "levels": {}}
    for level in LEVEL_NAMES:
        mine = [e for e in entries if e["level"] == level]
        out["levels"][level] = {
            "bids": sum(e["view"]["phase"] == "bidding" for e in mine),
            "cards": sum(e["view"]["phase"] == "playing" for e in mine),
            "partnership": sum(e["view"]["rules"]["scoring"] == "partnership" for e in mine),
            "individual": sum(e["view"]["rules"]["scoring"] == "individual" for e in mine),
            "nil_alive": sum(nil_alive(e["view"]) for e in mine),
            "later_rounds": sum(e["view"]["round"] > 1 for e in mine),
            "hints": sum(e["entry"] == "hint" for e in mine),
        }
    out["rule_sets"] = len({json.dumps(e["view"]["rules"], sort_keys=True) for e in entries})
    return out


def covers(entries: list[dict[str, Any]], level: str) -> bool:
    """``level``'s entries meet :data:`MINIMA`."""
    figures = summary(entries)["levels"][level]
    return all(figures[key] >= least for key, least in MINIMA.items())


def read_document(path: Path = DATA) -> dict[str, Any]:
    """The record file's document: its seed(s) and its entries."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def load(path: Path = DATA) -> list[dict[str, Any]]:
    return read_document(path)["entries"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="record the computer players' decisions (JSON, gzip)")
    parser.add_argument("--out", type=Path, default=DATA)
    # the first seed from 2027 whose record meets test_recorded_decisions' coverage with today's levels
    parser.add_argument("--seed", type=int, default=2034)
    parser.add_argument("--add", metavar="LEVEL", choices=LEVEL_NAMES, help="record this level only, keep the rest")
    parser.add_argument(
        "--answer-again", metavar="LEVEL", choices=LEVEL_NAMES, help="answer this level's entries again, keep the rest"
    )
    args = parser.parse_args(argv)
    changed: Counter[str] = Counter()
    if args.answer_again:
        document = read_document(args.out)
        for entry in document["entries"]:
            if entry["level"] != args.answer_again:
                continue
            fresh = answer(entry["view"], entry["level"], entry["seed"], entry["entry"])
            if any(entry.get(key) != value for key, value in fresh.items()):
                changed[f"{entry['entry']} {entry['view']['rules']['scoring']}"] += 1
                entry.update(fresh)
    elif args.add:
        document = read_document(args.out)
        kept = [e for e in document["entries"] if e["level"] != args.add]
        seed = args.seed
        while not covers(added := record(seed, (args.add,)), args.add):  # the first seed from --seed that covers it
            seed += 1
        document = document | {"entries": kept + added}
        document["added"] = document.get("added", {}) | {args.add: seed}
    else:
        document = {"seed": args.seed, "entries": record(args.seed)}
    entries = document["entries"]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(document, separators=(",", ":"), sort_keys=True)
    with open(args.out, "wb") as raw, gzip.GzipFile("", "wb", 9, raw, mtime=0) as f:  # no name, no time: same bytes
        f.write(text.encode())
    report = {"out": str(args.out), "bytes": args.out.stat().st_size, **summary(entries)}
    if args.answer_again:
        report["answered_again"] = {"level": args.answer_again, "changed": dict(sorted(changed.items()))}
    print(json.dumps(report))


if __name__ == "__main__":
    main()
