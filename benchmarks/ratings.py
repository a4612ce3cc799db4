"""Rating run: six computer levels and the example bot, rated by playing each other, on the real engine.

    python -m benchmarks.ratings --games 2000 --workers 2 --seed 1

Seven players (``RATED_LEVELS``: every level but expert, and ``examples/bot.py:choose``, the bot of
``clients/python``'s docs) play whole partnership games among themselves, in-process on the engine the way
``benchmarks.tournament`` plays them (its :func:`benchmarks.tournament.play`, one decision per turn from the
seat's own view), and every game is rated with the service's own model (``services.ratings.model``:
:func:`~services.ratings.model.places` then :func:`~services.ratings.model.rate`), on the **partnership**
board, the board the levels' tournaments measure and the one a level is rated on in two-team games.

**The schedule is balanced**: a *matchup* is four distinct players split into two teams; the 35 sets of four
of the seven, each split the three ways it can be, make 105 matchups, and every pair of players is partnered
in 10 of them and opposed in 20.  The run goes round them cycle after cycle (each cycle in its own shuffled
order, the seat of each partner alternating between cycles) and plays each matchup as a *pair* of games on
the same game seed, the teams swapped, so both teams see the same deals for as long as both games last.
``--games`` counts games (two a pair); 2,000 games is 1,000 pairs, a little over nine cycles.  A run's games
are the first games of any longer run's with the same seed and rules, so a short run gives a long run's
first figures (``sigma_falls``) at a fraction of its cost.

**A whole game** is ``new_game(rules, seed)`` to the end the engine declares: the preset's winning score
(500 / −200 in ``partnership``), or ``--win-score`` (and ``--lose-score``) for a shorter stated target;
``--round-cap`` stops a pathological game, which is then rated by its scores (the JSON counts them).  Games
are played by ``--workers`` processes; ratings are applied afterwards in schedule order, so the figures
depend only on ``--seed`` and the rules, not on the number of workers.

The JSON gives, per player: ``mu``, ``sigma``, the 95 % interval of ``mu`` (``interval95``), the ``display``
rating (1500 + 40 × (mu − 3·sigma), what the service shows), games and wins; ``order`` (by display rating,
as the leaderboards rank), the same at half the games (``order_at_half``), how each player's sigma fell with its
games and when its rating stopped being provisional (``sigma_falls``: the figures the provisional rule of
:mod:`services.ratings.provisional` is set from), and ``tournament_check``: every
partnership row of the tournaments table of docs/ai.md (read from the file) against the ratings — whether
the ratings order each measured pair as the tournament's difference does, and whether their intervals are
apart wherever the tournament's interval excludes 0; judged against the plain and the bag-adjusted
differences (whole games carry bags, so the bag-adjusted one is the like-for-like comparison).  Beside it
``head_to_head``: for every two players, the games they played on opposite teams, the share the first won
and its Wilson 95 % interval, and the same check on it (the tournament's winner wins more than half, the
interval clear of 50 %).  The levels are rated as the service rates them, without drift (their play never
changes, :mod:`services.ratings.model`), so their sigma keeps falling with games; the example bot, a bot like any
other, takes the drift, so its sigma stays near 1.7 however many games it plays.

``--games-out FILE`` writes every game's result (JSON lines); ``--from-games FILE`` rates such a file again
without playing (the same ``--games``, ``--seed`` and rules), which gives the same figures.
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import random
import re
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.tournament import DEFAULT_ROUND_CAP, SEED_STRIDE, play
from services.ai_worker import decide, warm_up
from services.computers import LEVEL_NAMES
from services.engine import PRESETS, make_rules
from services.ratings.model import INITIAL, Rating, board_of, display, interval, ordinal, places, rate
from services.ratings.provisional import provisional
from spades_client.cli import load_bot
from spades_client.duplicate import wilson
from spades_client.models import GameView
from spades_client.moves import as_move

ROOT = Path(__file__).resolve().parents[1]
BOT = "example-bot"  # the example bot's name in the run (its player kind is bot)
DEFAULT_BOT = "examples/bot.py:choose"  # relative to the repository's root
# Every level but expert: its decisions take 10-20 times hard's, so a balanced schedule with it costs hours
# more on two cores; expert is measured against hard by benchmarks.tournament (docs/ai.md).
RATED_LEVELS: tuple[str, ...] = tuple(level for level in LEVEL_NAMES if level != "expert")
PLAYERS: tuple[str, ...] = (*RATED_LEVELS, BOT)
SIGMA_STEPS = (1, 10, 20, 30, 50, 75, 100, 150, 200, 500, 1000)  # a player's games at which its sigma is shown
DOCS_AI = ROOT / "docs" / "ai.md"
Seating = tuple[str, str, str, str]  # the player in each seat: seats 0 & 2 are one team, 1 & 3 the other

_bots: dict[str, Callable[[GameView], Any]] = {}


# --- the schedule ---------------------------------------------------------------------------------------


def matchups(players: Sequence[str]) -> list[tuple[tuple[str, str], tuple[str, str]]]:
    """Every split of every four distinct players into two teams of two (105 for seven players)."""
    result = []
    for four in itertools.combinations(players, 4):
        first, rest = four[0], four[1:]
        for partner in rest:
            others = tuple(p for p in rest if p != partner)
            result.append(((first, partner), (others[0], others[1])))
    return result


def schedule(players: Sequence[str], games: int, seed: int) -> list[tuple[Seating, int]]:
    """``games`` games as (seating, game seed): the matchups cycle after cycle, each cycle shuffled, each
    matchup a pair of games on one game seed with the teams swapped (see the module's docstring)."""
    rng = random.Random(seed)
    every = matchups(players)
    games_out: list[tuple[Seating, int]] = []
    pair = 0
    for cycle in itertools.count():
        order = every[:]
        rng.shuffle(order)
        for (a1, a2), (b1, b2) in order:
            if cycle % 2:  # partners change seats from one cycle to the next
                a1, a2, b1, b2 = a2, a1, b2, b1
            game_seed = seed * SEED_STRIDE + pair
            pair += 1
            for seating in ((a1, b1, a2, b2), (b1, a1, b2, a2)):
                if len(games_out) == games:
                    return games_out
                games_out.append((seating, game_seed))
    raise AssertionError("unreachable")


def pair_counts(seatings: Sequence[Seating]) -> dict[str, dict[str, int]]:
    """How often the scheduled pairs of players meet as partners and as opponents (min and max over pairs)."""
    partnered = dict.fromkeys(itertools.combinations(sorted(PLAYERS), 2), 0)
    opposed = dict(partnered)
    for seats in seatings:
        for i, j in itertools.combinations(range(4), 2):
            key = tuple(sorted((seats[i], seats[j])))
            if key in partnered:
                (partnered if (i - j) % 2 == 0 else opposed)[key] += 1
    return {
        "partnered": {"min": min(partnered.values()), "max": max(partnered.values())},
        "opposed": {"min": min(opposed.values()), "max": max(opposed.values())},
    }


# --- playing one game -----------------------------------------------------------------------------------


def bot_of(spec: str) -> Callable[[GameView], Any]:
    """The bot ``spec`` names (``file.py:function``, the file relative to the repository), loaded once."""
    if spec not in _bots:
        where, _, name = spec.rpartition(":")
        path = Path(where)
        _bots[spec] = load_bot(f"{path if path.is_absolute() else ROOT / path}:{name}")
    return _bots[spec]


def api_view(seat_view: dict[str, Any], seating: Seating, move_no: int) -> dict[str, Any]:
    """The engine's seat view with the fields the API adds to it (``services.api.games.rendering.game_view``):
    what a bot on the runner reads, as ``GameView.from_dict`` of the API's body."""
    seats = [
        {
            "seat": i,
            "type": "human" if p == BOT else "ai",
            "level": None if p == BOT else p,
            "claimable": False,
            "player": {"id": BOT, "name": BOT, "kind": "bot"}
            if p == BOT
            else {"id": f"computer-{p}", "name": p, "kind": "computer"},
        }
        for i, p in enumerate(seating)
    ]
    return seat_view | {
        "game_id": "rating-run",
        "version": move_no,
        "seats": seats,
        "options": {"ai_takeover": None, "hints": False, "public": False, "clock": None},
        "seeded": True,
        "last_seq": move_no,
        "clock": None,
    }


def decision_of(answer: Any) -> dict[str, Any]:
    """A bot's answer (any form ``spades_client.moves.as_move`` reads) in the levels' decision form."""
    move = as_move(answer)
    body = move.body
    if move.path == "bids":
        return {"bid": body["bid"]}
    if move.path == "plays":
        return {"card": body["card"]}
    if move.path == "passes":
        return {"pass": list(body["cards"])}
    if move.path == "blind":
        return {"look": True} if body.get("look") else {"bid": body["bid"], "blind": True}
    raise ValueError(f"the engine has no move {move.path!r}")


def decider(seating: Seating, bot_spec: str) -> Callable[[dict[str, Any], str, int], dict[str, Any]]:
    """Each turn's decision: a level's from ``services.ai_worker.decide``, the bot's from its ``GameView``."""
    moves = [0]

    def decide_turn(seat_view: dict[str, Any], player: str, seed: int) -> dict[str, Any]:
        moves[0] += 1
        if player == BOT:
            return decision_of(bot_of(bot_spec)(GameView.from_dict(api_view(seat_view, seating, moves[0]))))
        return decide(seat_view, player, seed)

    return decide_turn


def play_game(job: tuple[str, dict[str, Any], Seating, int, int, int, str]) -> dict[str, Any]:
    """One rated game: its seating, final scores (per team), winning seats, rounds, and whether capped."""
    preset, overrides, seating, game_seed, index, round_cap, bot_spec = job
    rules = make_rules(preset, **overrides)
    started = time.perf_counter()
    base = 2 * game_seed + index % 2  # the two games of a pair: their own move seeds, as the tournament's
    played = play(
        rules, game_seed, seating, lambda n: base * 1_000_000 + n, round_cap, decider(seating, bot_spec)
    )  # fmt: skip
    return {
        "seating": list(seating),
        "scores": list(played.final_scores),
        "winner": list(played.winner) if played.winner is not None else None,
        "rounds": len(played.rounds),
        "capped": played.capped,
        "seconds": round(time.perf_counter() - started, 3),
    }


def play_all(jobs: list[tuple[Any, ...]], workers: int, progress: int = 0) -> list[dict[str, Any]]:
    """Every game, in schedule order, over ``workers`` warm processes; every ``progress`` games (0: never)
    a line on stderr (games done, seconds so far), so a long run can be watched."""
    started = time.perf_counter()
    games: list[dict[str, Any]] = []

    def collect(results: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
        for game in results:
            games.append(game)
            if progress and len(games) % progress == 0:
                print(f"{len(games)} games, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
        return games

    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers, initializer=warm_up) as pool:
            return collect(pool.imap(play_game, jobs, chunksize=1))
    warm_up()
    return collect(play_game(job) for job in jobs)


# --- rating ---------------------------------------------------------------------------------------------


def rate_games(board: str, games: Sequence[dict[str, Any]]) -> dict[str, Rating]:
    """Every player's rating after ``games``, applied in order from :data:`INITIAL`."""
    ratings = dict.fromkeys(PLAYERS, INITIAL)
    for game in games:
        seating = game["seating"]
        side_places = places(board, game["scores"], game["winner"] or ())
        steady = [p != BOT for p in seating]  # a computer level takes no drift (services.ratings.model)
        new = rate(board, [ratings[p] for p in seating], side_places, steady)
        ratings.update(zip(seating, new, strict=True))
    return ratings


def sigma_falls(board: str, games: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """How each player's sigma falls with its games, applied as :func:`rate_games` applies them: its sigma after
    its n-th game for each n of :data:`SIGMA_STEPS` it reached (``after``), and the game after which its rating
    stopped being provisional (``established_after``, :func:`services.ratings.provisional.provisional`; None
    while it still is)."""
    ratings = dict.fromkeys(PLAYERS, INITIAL)
    played = dict.fromkeys(PLAYERS, 0)
    falls: dict[str, dict[str, Any]] = {p: {"after": {}, "established_after": None} for p in PLAYERS}
    for game in games:
        seating = game["seating"]
        side_places = places(board, game["scores"], game["winner"] or ())
        new = rate(board, [ratings[p] for p in seating], side_places, [p != BOT for p in seating])
        ratings.update(zip(seating, new, strict=True))
        for player in seating:
            played[player] += 1
            fall = falls[player]
            if played[player] in SIGMA_STEPS:
                fall["after"][str(played[player])] = round(ratings[player].sigma, 3)
            if fall["established_after"] is None and not provisional(ratings[player], played[player]):
                fall["established_after"] = played[player]
    return falls


def order_of(ratings: dict[str, Rating]) -> list[str]:
    """Players best first, by the ranking value (as the leaderboards rank: display rating, i.e. the ordinal)."""
    return sorted(ratings, key=lambda p: -ordinal(ratings[p]))


def player_figures(ratings: dict[str, Rating], games: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    figures = {}
    for player, rating in ratings.items():
        played = [g for g in games if player in g["seating"]]
        won = sum(1 for g in played if g["winner"] and g["seating"].index(player) in g["winner"])
        low, high = interval(rating)
        figures[player] = {
            "id": f"computer-{player}" if player != BOT else BOT,
            "kind": "bot" if player == BOT else "computer",
            "mu": round(rating.mu, 3),
            "sigma": round(rating.sigma, 3),
            "interval95": [round(low, 3), round(high, 3)],
            "display": display(rating),
            "games": len(played),
            "wins": won,
            "win_share": round(won / len(played), 4) if played else None,
        }
    return figures


def head_to_head(games: Sequence[dict[str, Any]]) -> dict[str, dict[str, dict[str, Any]]]:
    """For each player and each other player, over the games they played on opposite teams: how many, the
    share the first one's team won, and its Wilson 95 % interval (the games taken as independent)."""
    met: dict[tuple[str, str], list[int]] = {}
    for game in games:
        seating, winner = game["seating"], set(game["winner"] or ())
        for i, j in itertools.permutations(range(4), 2):
            if (i - j) % 2:
                tally = met.setdefault((seating[i], seating[j]), [0, 0])
                tally[0] += 1
                tally[1] += i in winner
    table: dict[str, dict[str, dict[str, Any]]] = {}
    for a in PLAYERS:
        table[a] = {}
        for b in PLAYERS:
            if b != a:
                played, won = met.get((a, b), (0, 0))
                share = round(won / played, 4) if played else None
                table[a][b] = {"games": played, "won": won, "share": share, "wilson95": wilson(won, played)}
    return table


# --- the tournaments of docs/ai.md ----------------------------------------------------------------------

_ROW = re.compile(
    r"^\| partnership \| (\w+) vs (\w+) \|[^|]*\|[^|]*\| \*\*([-+\d.]+)\*\* \[([-+\d.]+), ([-+\d.]+)\] "
    r"\| ([-+\d.]+) \[([-+\d.]+), ([-+\d.]+)\]"
)


def tournament_rows(text: str) -> list[dict[str, Any]]:
    """The partnership rows of docs/ai.md's tournaments table: each pair's A − B points a round, plain and
    bag-adjusted, with their 95 % intervals."""
    rows = []
    for line in text.splitlines():
        match = _ROW.match(line)
        if match:
            a, b, *numbers = match.groups()
            plain, plain_low, plain_high, adjusted, adjusted_low, adjusted_high = map(float, numbers)
            rows.append({
                "a": a, "b": b,
                "plain": {"difference": plain, "ci95": [plain_low, plain_high]},
                "bag_adjusted": {"difference": adjusted, "ci95": [adjusted_low, adjusted_high]},
            })  # fmt: skip
    return rows


def verdict(low: float, high: float) -> str:
    """``a`` if an interval of A − B lies above 0, ``b`` if below, ``even`` if it holds 0."""
    return "a" if low > 0 else "b" if high < 0 else "even"


def rating_verdict(a: Rating, b: Rating) -> str:
    """``a`` or ``b`` when the two 95 % intervals of mu are apart (the higher one's), else ``overlap``."""
    (a_low, a_high), (b_low, b_high) = interval(a), interval(b)
    return "a" if a_low > b_high else "b" if b_low > a_high else "overlap"


def tournament_check(
    ratings: dict[str, Rating], rows: Sequence[dict[str, Any]], meetings: dict[str, dict[str, dict[str, Any]]]
) -> dict[str, Any]:
    """Each tournament pair against the run (see the module's docstring).  ``agrees`` per basis: every pair
    the tournament separates is ordered the same way by mu and has apart rating intervals;
    ``head_to_head_agrees``: the pair's games on opposite teams (:func:`head_to_head`) were won by the
    tournament's winner more than half the time, the Wilson interval above 50 %."""
    pairs = []
    agrees = {"plain": True, "bag_adjusted": True}
    head_agrees = {"plain": True, "bag_adjusted": True}
    for row in rows:
        a, b = ratings[row["a"]], ratings[row["b"]]
        ratings_say = rating_verdict(a, b)
        mu_higher = "a" if a.mu > b.mu else "b"
        met = meetings[row["a"]][row["b"]]
        low, high = met["wilson95"]
        head_says = "a" if low > 0.5 else "b" if high < 0.5 else "even"
        entry = {
            "pair": f"{row['a']} vs {row['b']}",
            "tournament_plain": row["plain"],
            "tournament_bag_adjusted": row["bag_adjusted"],
            "mu_difference": round(a.mu - b.mu, 3),
            "ratings": ratings_say if ratings_say == "overlap" else row[ratings_say],
            "mu_higher": row[mu_higher],
            "head_to_head": met | {"verdict": head_says if head_says == "even" else row[head_says]},
        }
        for basis in ("plain", "bag_adjusted"):
            says = verdict(*row[basis]["ci95"])
            entry[f"tournament_{basis}_verdict"] = says if says == "even" else row[says]
            same = says == "even" or (mu_higher == says and ratings_say == says)
            entry[f"agrees_{basis}"] = same
            agrees[basis] = agrees[basis] and same
            head_same = says == "even" or head_says == says
            entry[f"head_to_head_agrees_{basis}"] = head_same
            head_agrees[basis] = head_agrees[basis] and head_same
        pairs.append(entry)
    return {"pairs": pairs, "agrees": agrees, "head_to_head_agrees": head_agrees}


# --- the command ----------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="rated games (two a matchup pair)")
    parser.add_argument("--preset", choices=tuple(p for p in PRESETS if make_rules(p).partnership),
                        default="partnership")  # fmt: skip
    parser.add_argument("--win-score", type=int, help="a shorter target than the preset's winning score")
    parser.add_argument("--lose-score", type=int, help="the losing score with --win-score (default: the preset's)")
    parser.add_argument("--round-cap", type=int, default=DEFAULT_ROUND_CAP)
    parser.add_argument("--bot", default=DEFAULT_BOT, help="the bot, file.py:function (relative to the repository)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--docs", type=Path, default=DOCS_AI, help="the tournaments to check against")
    parser.add_argument("--progress", type=int, default=100, help="a line on stderr every N games (0: none)")
    parser.add_argument("--from-games", type=Path, help="rate the games a --games-out run wrote (no play)")
    parser.add_argument("--games-out", type=Path, help="also write every game's result here (JSON lines)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    started = time.perf_counter()
    overrides: dict[str, Any] = {}
    if args.win_score is not None:
        overrides["win_score"] = args.win_score
    if args.lose_score is not None:
        overrides["lose_score"] = args.lose_score
    rules = make_rules(args.preset, **overrides)
    board = board_of(rules.scoring)
    planned = schedule(PLAYERS, args.games, args.seed)
    jobs = [
        (args.preset, overrides, seating, game_seed, i, args.round_cap, args.bot)
        for i, (seating, game_seed) in enumerate(planned)
    ]
    if args.from_games is not None:  # a recorded run, rated again (the same games: the same figures)
        games = [json.loads(line) for line in args.from_games.read_text().splitlines()]
        if [(tuple(g["seating"])) for g in games] != [seating for seating, _ in planned]:
            raise SystemExit(f"{args.from_games} is not the schedule of --games {args.games} --seed {args.seed}")
    else:
        games = play_all(jobs, args.workers, args.progress)
    if args.games_out is not None:
        args.games_out.write_text("".join(json.dumps(game) + "\n" for game in games))
    ratings = rate_games(board, games)
    meetings = head_to_head(games)
    rounds = [g["rounds"] for g in games]
    report: dict[str, Any] = {
        "games": len(games),
        "board": board,
        "preset": args.preset,
        "win_score": rules.win_score,
        "lose_score": rules.lose_score,
        "round_cap": args.round_cap,
        "round_cap_hit": sum(1 for g in games if g["capped"]),
        "rounds_per_game": {"mean": round(sum(rounds) / len(games), 2), "min": min(rounds), "max": max(rounds)},
        "seconds_per_game": round(sum(g["seconds"] for g in games) / len(games), 3),
        "schedule": {"matchups": len(matchups(PLAYERS)), "games_per_pair": 2, **pair_counts([tuple(g["seating"]) for g in games])},
        "bot": args.bot,
        "seed": args.seed,
        "workers": args.workers,
        "model": "services.ratings.model: openskill BradleyTerryFull, mu 25, sigma 25/3, drift 25/300 for the bot and none for the levels; display 1500 + 40 (mu - 3 sigma)",
        "players": player_figures(ratings, games),
        "order": order_of(ratings),
        "order_at_half": order_of(rate_games(board, games[: len(games) // 2])),
        "head_to_head": meetings,
        "sigma_falls": sigma_falls(board, games),
        "tournament_check": tournament_check(ratings, tournament_rows(args.docs.read_text()), meetings),
    }  # fmt: skip
    report["elapsed_s"] = round(time.perf_counter() - started, 1)
    print(json.dumps(report))
    return report


if __name__ == "__main__":
    main()
