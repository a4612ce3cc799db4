"""``spades-bot``: play a bot on a server, or measure it in a duplicate match.

    spades-bot play  --api URL --bot my_bot:choose --game GAME_ID [--seat N]
    spades-bot play  --api URL --bot my_bot:choose --games 10 --against normal [--parallel 4]
    spades-bot play  ... --player-token spt_...   (or SPADES_PLAYER_TOKEN: the bot's seat is that player's)
    spades-bot match --api URL --bot my_bot:choose --level normal --deals 200 [--seed 1] [--json]

``--bot`` names the bot function, ``module:function`` (imported) or ``path/to/file.py:function``: it takes
a seat's view (:class:`spades_client.models.GameView`) and returns a move.  Ctrl-C once: no new game is
started and the games in play are finished; twice: stop at once.

With a player token (``POST /v1/players`` with ``kind: bot`` made it), the seat the bot claims or creates is
its player's, so its games count for that player's stats and, where the server rates them (a bot alone against
computers, or a public table with a clock), its rating.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import logging
import os
import signal
import sys
from pathlib import Path
from typing import Any

from spades_client.client import SpadesClient
from spades_client.errors import SeededGamesDisabled
from spades_client.match import describe, run_match
from spades_client.runner import Bot, Runner

log = logging.getLogger("spades_client.cli")


def load_bot(spec: str) -> Bot:
    """The callable ``module:function`` (from the current directory or the installed packages) or
    ``file.py:function`` names."""
    where, _, name = spec.rpartition(":")
    if not where or not name:
        raise SystemExit(f"--bot {spec!r}: expected module:function or path/to/file.py:function")
    if where.endswith(".py"):
        path = Path(where).resolve()
        module_spec = importlib.util.spec_from_file_location(path.stem, path)
        if module_spec is None or module_spec.loader is None:
            raise SystemExit(f"--bot: cannot load {path}")
        module = importlib.util.module_from_spec(module_spec)
        module_spec.loader.exec_module(module)
    else:
        if "" not in sys.path and str(Path.cwd()) not in sys.path:
            sys.path.insert(0, str(Path.cwd()))  # a module of the current directory, as `python -m` finds it
        module = importlib.import_module(where)
    bot = getattr(module, name)
    if not callable(bot):
        raise SystemExit(f"--bot {spec!r} is not callable")
    return bot


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="spades-bot", description=__doc__.split("\n\n")[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="log every game and race")
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser("play", help="play games with the bot")
    match = commands.add_parser("match", help="a duplicate match: the bot against a level, each deal twice")
    for sub in (play, match):
        sub.add_argument("--api", default="http://127.0.0.1:8000", help="the server's base URL")
        sub.add_argument("--bot", required=True, help="module:function or path/to/file.py:function")
        sub.add_argument("--parallel", type=int, default=4, help="games played at once")
    play.add_argument("--game", help="claim a seat of this game (the first claimable one, or --seat)")
    play.add_argument("--seat", type=int, help="the seat to claim in --game")
    play.add_argument(
        "--player-token",
        default=os.environ.get("SPADES_PLAYER_TOKEN"),
        help="play as this player (default: $SPADES_PLAYER_TOKEN); with --seats 2 only seat 0 is the player's",
    )
    play.add_argument("--games", type=int, default=1, help="without --game: create this many games")
    play.add_argument("--against", default="normal", help="without --game: the level of the other seats")
    play.add_argument("--seats", type=int, choices=(1, 2), default=1, help="bot seats per created game (2: partners)")
    play.add_argument(
        "--rules", type=json.loads, default={}, help="rules of created games, e.g. '{\"win_score\": 200}'"
    )
    match.add_argument("--level", default="normal", help="the computer level the bot plays against")
    match.add_argument("--deals", type=int, default=200, help="deals, each played twice (sides swapped)")
    match.add_argument("--seed", type=int, default=1, help="which deals (benchmarks.tournament's for the same seed)")
    match.add_argument("--preset", choices=("partnership", "individual"), default="partnership")
    match.add_argument("--json", action="store_true", help="print the whole report as JSON")
    return parser.parse_args(argv)


def bot_seats(count: int) -> list[int]:
    return [0, 2][:count]


def play(args: argparse.Namespace, runner: Runner) -> int:
    if args.game:
        final = runner.join(args.game, args.seat)
        print(f"game {args.game} over: scores {final.scores}, winner seats {final.winner}")
        return 0
    seats: list[dict[str, Any]] = [
        {"type": "human"} if seat in bot_seats(args.seats) else {"type": "ai", "level": args.against}
        for seat in range(4)
    ]
    if args.player_token:
        seats[0]["player"] = True  # a player holds one seat of a game
    finals = runner.run_all([lambda: runner.create_and_play(seats, args.rules)] * args.games)
    done = [f for f in finals if f is not None]
    won = sum(1 for f in done if f.winner and f.winner[0] in bot_seats(args.seats))
    print(f"{len(done)} games played, {won} won; {dict(runner.tally.counts)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")  # fmt: skip
    client = SpadesClient(args.api, player_token=getattr(args, "player_token", None))
    runner = Runner(client, load_bot(args.bot), args.parallel)

    def stop_gently(signum: int, frame: Any) -> None:
        log.warning("stopping: no new game; the games in play are finished (Ctrl-C again to stop now)")
        runner.stop()
        signal.signal(signal.SIGINT, signal.default_int_handler)

    signal.signal(signal.SIGINT, stop_gently)
    if args.command == "play":
        return play(args, runner)
    try:
        report = run_match(client, runner.bot, args.level, args.deals, args.seed, args.parallel, args.preset, runner)
    except SeededGamesDisabled as refused:  # each deal is dealt twice from a seed: the server's match mode
        print(f"spades-bot match: the server is not in match mode: {refused}", file=sys.stderr)
        return 2
    print(json.dumps(report) if args.json else describe(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
