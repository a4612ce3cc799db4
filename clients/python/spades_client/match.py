"""``spades-bot match``: a duplicate match of a bot against a computer level, through a real server.

Each deal is played twice with the sides swapped — the bot on seats 0 & 2 against the level on 1 & 3, then
the reverse — so the paired difference per deal cancels the luck of the cards.  A deal is round 1 of a
game created with a ``seed`` (the server's match mode: ``ALLOW_SEEDED_GAMES`` on; a view never shows the
seed, only ``seeded: true``) under rules where any score ends the game after that round (``win_score`` 1,
``lose_score`` 0; a tied round plays on and is not counted), so, as in ``benchmarks.tournament``'s
single-round mode, bags do not carry over.  The deal seeds are ``seed * 1_000_003 + i``, the tournament's,
so ``--seed S`` deals the tournament's deals.  The figures are :mod:`spades_client.duplicate`'s, the ones
the tournament prints: the paired difference per round with a 95 % interval, bag-adjusted too, and per
side the nil, contract-set and bag figures.

The bot plays its seats through the runner, one view at a time: it never sees the seed, another seat's
hand, or the other game of the pair.
"""

from __future__ import annotations

import json
import time
from typing import Any

from spades_client.client import SpadesClient
from spades_client.duplicate import (
    Played,
    RoundFacts,
    Seating,
    per_level,
    play_figures,
    seatings,
    summarise_rounds,
)  # fmt: skip
from spades_client.models import GameView, Round, Rules
from spades_client.runner import Bot, Runner

SEED_STRIDE = 1_000_003  # benchmarks.tournament's: deal i of --seed S is seed S * SEED_STRIDE + i
ONE_ROUND = {"win_score": 1, "lose_score": 0}  # every score is ≥ 1 or ≤ 0: the game ends after round 1 unless tied
BOT = "bot"


def round_facts(rules: Rules, record: Round) -> RoundFacts:
    """The figures of a game's first round from its record (bags taken: those left plus those penalised)."""
    bags = tuple(record.bags[s] + record.bag_penalties[s] * rules.bag_limit for s in range(rules.sides))
    return RoundFacts(
        tuple(record.bids), tuple(record.tricks_won), tuple(record.points), bags, tuple(record.bag_penalties)
    )


def seats_for(seating: Seating, level: str) -> list[dict[str, Any]]:
    """The create body's seats: the bot's are ``human`` (their tokens come back to the runner only)."""
    return [{"type": "human"} if name == BOT else {"type": "ai", "level": level} for name in seating.levels]


def play_one(runner: Runner, seating: Seating, level: str, rules: dict[str, Any], seed: int) -> dict[str, Any]:
    """One play of a deal: the game created, played to its end, reduced to the duplicate figures."""
    final: GameView = runner.create_and_play(seats_for(seating, level), rules, seed)
    if not final.over or not final.history:
        raise RuntimeError(f"game {final.game_id} ended in phase {final.phase} without a finished round")
    record = final.history[0]
    played = Played((round_facts(final.rules, record),), tuple(record.scores), None, False)
    figures = play_figures(final.rules, seating, played)
    figures["game_id"] = final.game_id
    return figures


def run_match(
    client: SpadesClient,
    bot: Bot,
    level: str,
    deals: int,
    seed: int = 1,
    parallel: int = 4,
    preset: str = "partnership",
    runner: Runner | None = None,
) -> dict[str, Any]:
    """Play ``deals`` duplicate deals (2 × ``deals`` games, ``parallel`` at a time); the report as JSON data."""
    started = time.monotonic()
    runner = runner or Runner(client, bot, parallel)
    rules = {"preset": preset, **ONE_ROUND}
    pair = seatings(BOT, level)
    jobs = [
        (lambda seating=seating, deal_seed=seed * SEED_STRIDE + i: play_one(runner, seating, level, rules, deal_seed))
        for i in range(deals)
        for seating in pair
    ]
    plays = runner.run_all(jobs)
    pairs = [{"plays": plays[i : i + 2]} for i in range(0, len(plays), 2) if None not in plays[i : i + 2]]
    if not pairs:
        raise RuntimeError("no deal was played to the end")
    scoring = client.get_rules().presets[preset]
    rules_view = Rules.from_dict({**scoring, **ONE_ROUND})
    finished = [p for pair_ in pairs for p in pair_["plays"]]
    return {
        "mode": "rounds",
        "a": BOT,
        "b": level,
        "preset": preset,
        "deals": len(pairs),
        "plays": 2 * len(pairs),
        "seed": seed,
        **summarise_rounds(pairs, rules_view),
        "per_level": {
            role: per_level(finished, role, name, rules_view.partnership) for role, name in (("a", BOT), ("b", level))
        },
        "runner": {**runner.tally.counts, "refused": dict(runner.tally.refusals)},
        "elapsed_s": round(time.monotonic() - started, 1),
    }


def describe(report: dict[str, Any]) -> str:
    """The report in a few lines for people (``--json`` prints it whole)."""
    diff, adjusted = report["difference_a_minus_b"], report["bag_adjusted"]["difference_a_minus_b"]
    lines = [
        f"{report['deals']} deals, each played twice with the sides swapped: the bot against {report['b']}",
        f"bot − {report['b']} per round: {diff['mean']:+.2f} points, 95 % interval [{diff['ci95'][0]:+.2f}, "
        f"{diff['ci95'][1]:+.2f}]",
        f"bag-adjusted: {adjusted['mean']:+.2f}, 95 % interval [{adjusted['ci95'][0]:+.2f}, {adjusted['ci95'][1]:+.2f}]",
    ]
    for role in ("a", "b"):
        figures = report["per_level"][role]
        lines.append(
            f"{figures['level']}: nil bid rate {figures['nil_bid_rate']}, nil success {figures['nil_success_rate']}, "
            f"contracts set {figures['contract_set_rate']}, opponent nils set {figures['opponent_nils_set']}, "
            f"bags per round {figures['bags_per_round_per_side']}"
        )
    refused = report["runner"].get("refused") or {}
    lines.append(f"moves refused by a race: {sum(refused.values())} {json.dumps(refused) if refused else ''}".rstrip())
    return "\n".join(lines)
