"""Fair-play run: a population of simulated players and colluding rings playing rated quick matches, judged by the
service's own rules and applied to ratings and the fair-play watch by its own code.

    python -m benchmarks.fair_play                       # --players 10000 --games 20000 --seed 1
    python -m benchmarks.fair_play --quick               # a small population for a test

**What is real**: the pairing is the quick-match store's own step (``services.api.store.memory_matches``, the
Redis scripts' rules in process: the first four waiting requests of a bucket form a group, a request still
waiting at its deadline is seated with computers); every game's record document is built by
``services.api.records.content.build`` from a game played on the real engine; every game passes
``services.ratings.policy.may_count`` at its creation and gets the ``fair_play`` that
``services.api.games.fair_play`` would leave (an abort before the first card, forfeits after it, one client on
two person seats); and every finished game goes through ``services.api.ratings.apply.apply_record`` on a migrated
SQLite records database: the ratings, the watch's outcomes, bans and flags, and the games a flag holds.  A player
asks ``services.api.ratings.watch.active_ban`` before each request and waits out a ban.  The leaderboard is
``services.api.ratings.leaderboard.top``.

**What is simulated**: the clock (a game lasts three minutes a round; a player's requests are spread over
``--days``, each at least a short pause after their last game, so the same four rarely queue together twice), who
asks when, and the card play, which is taken from a pool of whole games played once on the real engine by the
players' *backers* (``benchmarks.fair_play_games``): each player is backed by a level or the example bot, and a
game takes a pool game whose two teams had the same backers, its seats bound to the players.  A player who
leaves or times out keeps the pool game's cards: after the first card the forfeit places their side last
whatever the stand-in scores (``services.ratings.policy.side_places``), so the rating is what it would be.  Why
a pool and not live play: the levels take 0.1 to 0.3 s a game on one core, and ``apply_record`` about 10 ms, so
the 20,000 games of a full run cost minutes of applying alone; the pool is 2 × 231 games, every pair of teams of
six backers twice.  ``hard`` and ``expert`` back nobody (their decisions cost 20 to 200 times the others'; the
rating run of ``benchmarks.ratings`` places them).  The board is partnership, the board the watch's fast-loss
rule bites on (an individual game has no losing score, so it cannot be lost within three rounds).

**Honest players**: ``--players``, each backed by one of the backers at random; how many games each asks for is
heavy-tailed (lognormal, a few play much more than most), ``--games`` games in all.  In each game a player leaves
with probability 5 % and times out with 2 %; a fifth of those happen before the first card (an abort), the rest
after it (a forfeit, ``left`` or ``timed_out``).

**Rings** (``--ring-size`` k puppets and a booster each, all backed by ``easy``):

- ``fast_throw_one_address`` / ``fast_throw_addresses``: the booster and a puppet against two puppets who throw
  (bid the team's most and fail it: lost in the first round), from one address (one client on two seats: the
  game never counts) and from k + 1 addresses; they ask for quick matches in a bucket nobody else uses (the
  same rules under the ``correspondence`` clock), four requests at once, so they meet each other;
- ``slow_throw_addresses``: the same with slow throws (lost over several rounds: not fast for the watch);
- ``one_round``: four at once asking for a 100-point game: ``may_count`` refuses it (below ``RATED_MIN_TARGET``);
- ``leave_when_losing``: each puppet plays honest quick matches and leaves (after the first card) every game their
  side is losing;
- ``stand_in``: each puppet leaves every game at once hoping for an expert stand-in (half before the first card,
  an abort; half just after it, a forfeit: the server's stand-in is ``standard`` whatever they hoped).

The JSON: puppets and boosters in the top 50 (non-provisional players by score), each ring member's shown
rating (none while the watch holds it) against what their backer's play earns (the median display of the honest
players with the same backer on the board), the share of honest players ever banned and ever flagged (goal ≤ 1 %
each), ring members flagged, held and banned and the hours from a ring's first game to its first flag, games held
by a flag, and the run time.
"""

from __future__ import annotations

import argparse
import dataclasses
import heapq
import itertools
import json
import random
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Engine, func, select

from benchmarks import fair_play_games as pool_of
from benchmarks.fair_play_games import BOT, FAST_THROW, SLOW_THROW, key_of
from services.api.games.fair_play import ABORTED, RATED_STAND_IN, SHARED_CLIENT
from services.api.ratings import flags
from services.api.ratings.apply import FLAGGED, apply_record
from services.api.ratings.leaderboard import top
from services.api.ratings.watch import CLOSED, REVIEW, active_ban, holds
from services.api.records.database import make_engine, migrate
from services.api.records.schema import fair_play_flags, game_ratings, pairing_bans, player_ratings, players
from services.api.store.matches import Formed, MatchRequest, MatchTimes
from services.api.store.memory_matches import MatchesMemory, MemoryMatches
from services.engine import make_rules
from services.ratings import policy
from services.ratings.model import Rating, display

BACKERS = ("easy", "basic", "normal", "standard", "pro", BOT)
QUICK_BACKERS = ("easy", "standard")  # --quick: a pool of 6 pairs of teams
PUPPET = "easy"
STRATEGIES = (
    "fast_throw_one_address",
    "fast_throw_addresses",
    "slow_throw_addresses",
    "one_round",
    "leave_when_losing",
    "stand_in",
)
LEAVE, TIME_OUT, BEFORE_FIRST_CARD = 0.05, 0.02, 0.2
MINUTE_MS, HOUR_MS, DAY_MS = 60_000, 3_600_000, 86_400_000
ROUND_MS = 3 * MINUTE_MS
WAIT_MS, IDLE_MS = 20_000, 30_000  # a request's max wait; the matchmaker's idle time (the request is polled)
PAUSE_MS = 10 * MINUTE_MS  # the mean pause after a game before a player's next request
RING_EVERY_MS = 40 * MINUTE_MS  # a ring's games follow each other this far apart
FILL_LEVEL = "standard"
START_MS = 1_796_000_000_000


def spec(clock: str, win_score: int | None = None) -> str:
    rules = make_rules("partnership", **({"win_score": win_score} if win_score else {})).to_dict()
    return orjson.dumps({"rules": rules, "clock": clock}, option=orjson.OPT_SORT_KEYS).decode()


BUCKETS = {"main": spec("normal"), "quiet": spec("correspondence"), "short": spec("normal", 100)}


class _Backend:
    """What :class:`MemoryMatches` needs of the memory store: its lock and state, and a publish nobody hears."""

    def __init__(self) -> None:
        import threading

        self.changed = threading.Condition()
        self.matches = MatchesMemory()

    def publish(self, channel: str, payload: bytes) -> None:
        pass


class Matches(MemoryMatches):
    def __init__(self) -> None:
        self.backend = _Backend()


@dataclasses.dataclass
class Player:
    id: str
    backer: str
    address: str
    ring: str | None = None  # the strategy of the player's ring
    role: str = "honest"  # honest | booster | puppet
    asks: list[int] = dataclasses.field(default_factory=list)  # planned request times, soonest last
    busy: bool = False
    games: int = 0


class Run:
    def __init__(self, args: argparse.Namespace, engine: Engine, pool: dict[Any, list[dict[str, Any]]]) -> None:
        self.args, self.engine, self.pool = args, engine, pool
        self.rng = random.Random(args.seed)
        self.matches = Matches()
        self.events: list[tuple[int, int, str, Any]] = []
        self.seq = itertools.count()
        self.players: dict[str, Player] = {}
        self.rings: dict[str, list[Player]] = {}
        self.counts: Counter[str] = Counter()
        self.first_ring_game: dict[str, int] = {}
        self.game_no = itertools.count()
        self.ring_games: dict[str, set[str]] = defaultdict(set)
        self.end_ms = START_MS

    # --- the population -------------------------------------------------------------------------------

    def populate(self) -> None:
        a, rng = self.args, self.rng
        span = a.days * DAY_MS
        weights = [rng.lognormvariate(0, 1.0) for _ in range(a.players)]
        scale = 4 * a.games / sum(weights)
        for i, weight in enumerate(weights):
            player = Player(f"p_{i:05d}", rng.choice(a.backers), f"addr-{i}")
            n = max(1, round(weight * scale))
            player.asks = sorted((START_MS + rng.randrange(int(span)) for _ in range(n)), reverse=True)
            self.players[player.id] = player
        for strategy in STRATEGIES:
            members = []
            for j in range(a.ring_size + 1):
                role = "booster" if j == 0 else "puppet"
                address = "ring-" + strategy if strategy == "fast_throw_one_address" else f"ring-{strategy}-{j}"
                member = Player(f"r_{strategy}_{j}", PUPPET, address, strategy, role)
                self.players[member.id] = member
                members.append(member)
            self.rings[strategy] = members
            if strategy in ("leave_when_losing", "stand_in"):  # honest-looking quick matches, each at its own pace
                for member in members:
                    n = round(a.ring_games * 4 / len(members))
                    member.asks = sorted((START_MS + rng.randrange(int(span)) for _ in range(n)), reverse=True)
            else:
                for n in range(a.ring_games):
                    self.push(START_MS + rng.randrange(HOUR_MS) + n * RING_EVERY_MS, "ring", strategy)
        with self.engine.begin() as connection:
            rows = [{"id": p.id, "kind": "person", "name": p.id, "name_key": p.id, "created_ms": START_MS}
                    for p in self.players.values()]  # fmt: skip
            connection.execute(players.insert(), rows)
        for player in self.players.values():
            self.next_ask(player, START_MS)

    def push(self, when: int, kind: str, what: Any) -> None:
        heapq.heappush(self.events, (when, next(self.seq), kind, what))

    def next_ask(self, player: Player, now: int) -> None:
        if player.asks:
            planned = player.asks.pop()
            self.push(max(planned, now + int(self.rng.expovariate(1 / PAUSE_MS))), "ask", player.id)

    # --- the matchmaker ---------------------------------------------------------------------------------

    def times(self, now: int) -> MatchTimes:
        return MatchTimes(now, 5_000, IDLE_MS, 600_000)

    def submit(self, player: Player, bucket: str, now: int) -> None:
        with self.engine.connect() as connection:
            ends = active_ban(connection, player.id, now)
        if ends is not None:  # banned from pairing: ask again once the ban ends
            self.counts["asks_refused_banned" if player.role == "honest" else "ring_asks_refused_banned"] += 1
            self.push(ends + 1, "ask", player.id)
            return
        player.busy = True
        request = MatchRequest(f"{bucket}.{player.id}.{next(self.seq)}", "w", "s", "t", FILL_LEVEL, now,
                               now + WAIT_MS, now, player=(player.id, player.id, "person"),
                               client=player.address)  # fmt: skip
        formed = self.matches.enqueue_match(bucket, request, BUCKETS[bucket], self.times(now), [f"g{next(self.seq)}"])
        self.push(now + WAIT_MS, "sweep", bucket)
        self.seat(bucket, formed, now)

    def sweep(self, bucket: str, now: int) -> None:
        formed = self.matches.form_matches(bucket, self.times(now), [f"g{next(self.seq)}", f"g{next(self.seq)}"])
        self.seat(bucket, formed, now)

    def seat(self, bucket: str, formed: Formed, now: int) -> None:
        for group in formed.groups:
            self.matches.match_seated(bucket, group.game_id, self.times(now))
            people = [self.players[m.player[0]] for m in group.members if m.player]
            self.start(bucket, people, now)

    # --- a game -----------------------------------------------------------------------------------------

    def start(self, bucket: str, people: list[Player], now: int) -> None:
        """A formed group's game: its card play from the pool, its fair play, then its end (an event)."""
        ring = people[0].ring if people[0].role != "honest" and bucket != "main" else None
        backers = [p.backer for p in people] + [FILL_LEVEL] * (4 - len(people))
        throw = {"fast_throw_one_address": FAST_THROW, "fast_throw_addresses": FAST_THROW}.get(ring or "")
        throw = SLOW_THROW if ring == "slow_throw_addresses" else throw
        seated: list[Player | None] = [*people, *([None] * (4 - len(people)))]
        if throw:  # the booster and a puppet (seats 0 & 2) against two throwers
            seating = (PUPPET, PUPPET, PUPPET, PUPPET)
            game = self.rng.choice(self.pool[(seating, throw)])
            document = orjson.loads(orjson.dumps(game["document"]))
        else:
            seating_of = (backers[0], backers[1], backers[2], backers[3])
            game = self.rng.choice(self.pool[(key_of(seating_of), None)])
            document = orjson.loads(orjson.dumps(game["document"]))
            seated = _placed(seated, backers, game["seating"])
        document["game_id"] = game_id = f"fp-{next(self.game_no)}"
        win_score = 100 if bucket == "short" else 500
        made = policy.may_count(["human" if p else "ai" for p in seated], seeded=False, hints=False, public=False,
                                matched=True, clock="normal", win_score=win_score)  # fmt: skip
        if bucket == "short":
            document["rules"]["win_score"] = win_score
        for seat, player in enumerate(seated):
            entry = document["seats"][seat]
            if player is None:
                entry.update(type="ai", level=FILL_LEVEL, player_id=policy.computer_id(FILL_LEVEL))
            else:
                entry["player_id"] = player.id
        document["fair_play"] = self.fair_play(document, seated) if made else None
        if not made:
            self.counts["refused_by_may_count"] += 1
        document["rated"] = policy.is_rated(document)
        for player in people:
            if player.ring:
                self.first_ring_game.setdefault(player.ring, now)
                self.ring_games[player.ring].add(game_id)
        rounds = 1 if bucket == "short" else max(1, len(document["rounds"]))  # a one-round game: one round
        ends = now + rounds * ROUND_MS
        self.push(ends, "end", (document, seated))

    def fair_play(self, document: dict[str, Any], seated: list[Player | None]) -> dict[str, Any]:
        """What ``services.api.games.fair_play`` leaves: a shared client first (known at creation), then the
        first leave or time-out before the first card (an abort), else every one after it (forfeits)."""
        fair: dict[str, Any] = {"counts": True, "reason": None, "forfeits": [], "timed_out": [], "aborted_by": None}
        clients = [p.address for p in seated if p is not None]
        if len(set(clients)) != len(clients):
            return fair | {"counts": False, "reason": SHARED_CLIENT}
        winners = set(document["result"]["winner"] or ())
        for seat, player in enumerate(seated):
            if player is None:
                continue
            what, before = self.leaves(player, seat in winners)
            if what is None:
                continue
            if before:
                self.counts[f"{player.role}_aborts"] += 1
                return fair | {"counts": False, "reason": ABORTED, "forfeits": [], "timed_out": [], "aborted_by": seat}
            self.counts[f"{player.role}_{what}"] += 1
            fair["forfeits"].append(seat)
            if what == "timed_out":
                fair["timed_out"].append(seat)
            document["seats"][seat].update(type="ai", level=RATED_STAND_IN)  # the stand-in plays for them
        return fair

    def leaves(self, player: Player, winning: bool) -> tuple[str | None, bool]:
        """Whether the player leaves or times out in this game, and whether before the first card."""
        roll = self.rng.random()
        if player.ring == "leave_when_losing":
            return ("left", False) if not winning else (None, False)
        if player.ring == "stand_in":
            return "left", roll < 0.5
        if player.role != "honest":
            return None, False
        if roll < LEAVE + TIME_OUT:
            return ("left" if roll < LEAVE else "timed_out"), self.rng.random() < BEFORE_FIRST_CARD
        return None, False

    def end(self, document: dict[str, Any], seated: list[Player | None], now: int) -> None:
        apply_record(self.engine, document, now, now, False)
        self.counts["games"] += 1
        for player in seated:
            if player is not None:
                player.busy = False
                player.games += 1
                if player.asks:
                    self.next_ask(player, now)

    def ring_game(self, strategy: str, now: int) -> None:
        """A ring's four requests, back to back, in its own bucket (or the short one)."""
        members = self.rings[strategy]
        booster, puppets = members[0], members[1:]
        turn = next(self.seq)
        chosen = [booster] + [puppets[(turn + i) % len(puppets)] for i in range(3)]
        if any(p.busy for p in chosen):
            self.counts["ring_games_skipped_busy"] += 1
            return
        with self.engine.connect() as connection:
            if any(active_ban(connection, p.id, now) is not None for p in chosen):
                self.counts["ring_games_skipped_banned"] += 1  # a ring plays its own games four at a time
                return
        bucket = "short" if strategy == "one_round" else "quiet"
        for player in (chosen[0], chosen[1], chosen[2], chosen[3]):
            self.submit(player, bucket, now)

    def run(self) -> None:
        self.populate()
        while self.events:
            now, _, kind, what = heapq.heappop(self.events)
            if kind == "ask":
                player = self.players[what]
                if not player.busy:
                    self.submit(player, "main", now)
            elif kind == "sweep":
                self.sweep(what, now)
            elif kind == "end":
                self.end(*what, now)
            elif kind == "ring":
                self.ring_game(what, now)
            if self.args.progress and self.counts["games"] and self.counts["games"] % self.args.progress == 0 \
                    and kind == "end":  # fmt: skip
                print(f"{self.counts['games']} games", file=sys.stderr, flush=True)
        self.end_ms = now


def _placed(seated: list[Player | None], backers: list[str], pool_seating: list[str]) -> list[Player | None]:
    """The group's players on the pool game's seats: each team onto the pool team with its backers (a team may
    change sides and its partners seats; a team is the same two players)."""
    teams = [[0, 2], [1, 3]]
    mine = [sorted(teams[t], key=lambda s: backers[s]) for t in (0, 1)]
    theirs = [sorted(teams[t], key=lambda s: pool_seating[s]) for t in (0, 1)]
    if sorted(backers[s] for s in mine[0]) != sorted(pool_seating[s] for s in theirs[0]):
        theirs.reverse()
    placed: list[Player | None] = [None] * 4
    for team in (0, 1):
        for seat, pool_seat in zip(mine[team], theirs[team], strict=True):
            placed[pool_seat] = seated[seat]
    return placed


# --- the figures ----------------------------------------------------------------------------------------


def earned_by_backer(run: Run, shown: dict[str, int], on_board: set[str]) -> dict[str, float | None]:
    """What each backer's play earns: the median display of the honest players it backs that are on the board."""
    earned: dict[str, float | None] = {}
    for backer in run.args.backers:
        values = [
            shown[p.id] for p in run.players.values() if p.role == "honest" and p.backer == backer and p.id in on_board
        ]
        earned[backer] = statistics.median(values) if values else None
    return earned


def report(run: Run) -> dict[str, Any]:
    """The run's figures (see the module doc)."""
    with run.engine.connect() as connection:
        board = top(connection, "partnership", "person", 50)
        ratings = {
            row.player_id: row
            for row in connection.execute(select(player_ratings).where(player_ratings.c.board == "partnership"))
        }
        banned = {row.player_id for row in connection.execute(select(pairing_bans.c.player_id))}
        flags = connection.execute(select(fair_play_flags.c.player_id, fair_play_flags.c.kind,
                                          fair_play_flags.c.raised_ms)).all()  # fmt: skip
        held = set(connection.execute(select(game_ratings.c.game_id).where(
            game_ratings.c.unrated_reason == FLAGGED)).scalars())  # fmt: skip
        rated = connection.execute(select(func.count()).where(game_ratings.c.rated)).scalar_one()
        rating_holds = holds(connection)
    shown = {p: display(Rating(r.mu, r.sigma)) for p, r in ratings.items() if p not in rating_holds}
    on_board = {p for p, r in ratings.items() if not r.provisional}
    honest = [p for p in run.players.values() if p.role == "honest" and p.games]
    earned = earned_by_backer(run, shown, on_board)
    flagged: dict[str, set[str]] = defaultdict(set)
    first_flag: dict[str, int] = {}
    for player, kind, raised in flags:
        flagged[kind].add(player)
        first_flag[player] = min(raised, first_flag.get(player, raised))
    ever_flagged = set(first_flag)
    top_ids = [row["player"]["id"] for row in board]
    honest_ids = {p.id for p in honest}
    rings: dict[str, Any] = {}
    for strategy, members in run.rings.items():
        ids = [m.id for m in members]
        flag_times = [first_flag[i] for i in ids if i in first_flag]
        start = run.first_ring_game.get(strategy)
        rings[strategy] = {
            "members": len(ids),
            "games": len(run.ring_games[strategy]),
            "games_held": len(run.ring_games[strategy] & held),
            "in_top50": sorted(set(ids) & set(top_ids)),
            "flagged": sum(i in ever_flagged for i in ids),
            "banned": sum(i in banned for i in ids),
            "hours_to_first_flag": round((min(flag_times) - start) / HOUR_MS, 2) if flag_times and start else None,
            "held": sum(i in rating_holds for i in ids),
            "highest_shown": max((shown[i] for i in ids if i in shown), default=None),
            "ratings": {
                m.id: {
                    "role": m.role,
                    "games": m.games,
                    "display": shown.get(m.id),  # None: no rating, or held (shown nowhere)
                    "held": rating_holds.get(m.id),
                    "provisional": m.id not in on_board,
                    "earned_by_backer": earned[m.backer],
                    "above_earned": m.id in shown and earned[m.backer] is not None and shown[m.id] > earned[m.backer],
                }
                for m in members
            },
        }
    games = [p.games for p in honest]
    honest_banned = honest_ids & banned
    honest_flagged = honest_ids & ever_flagged
    return {
        "players": run.args.players,
        "honest_players_who_played": len(honest),
        "games_applied": run.counts["games"],
        "games_rated": rated,
        "games_held_by_a_flag": len(held),
        "refused_by_may_count": run.counts["refused_by_may_count"],
        "simulated_days": round((run.end_ms - START_MS) / DAY_MS, 2),
        "honest_games_per_player": {
            "mean": round(statistics.mean(games), 2),
            "median": statistics.median(games),
            "p90": sorted(games)[int(0.9 * len(games))],
            "max": max(games),
        },
        "on_the_board": len(on_board & honest_ids),
        "top50": {
            "ring_members": sorted(set(top_ids) - honest_ids),
            "lowest_display": board[-1]["rating"] if board else None,
            "size": len(board),
        },
        "earned_by_backer": earned,
        "honest": {
            "ever_banned": len(honest_banned),
            "ever_banned_share": round(len(honest_banned) / len(honest), 4),
            "ever_flagged": len(honest_flagged),
            "ever_flagged_share": round(len(honest_flagged) / len(honest), 4),
            "flagged_by_kind": {kind: len(flagged[kind] & honest_ids) for kind in sorted(flagged)},
            "banned_or_flagged_share": round(len(honest_banned | honest_flagged) / len(honest), 4),
            "goal_share": 0.01,
            "behaviour": {"leave": LEAVE, "time_out": TIME_OUT, "before_first_card": BEFORE_FIRST_CARD},
            "counts": {k: v for k, v in sorted(run.counts.items()) if k.startswith(("honest", "asks"))},
        },
        "rings": rings,
        "ring_counts": {k: v for k, v in sorted(run.counts.items()) if k.startswith(("ring", "booster", "puppet"))},
    }


def operator_pass(run: Run) -> dict[str, Any]:
    """An operator decides every open flag at the run's end, as the operator API does it
    (``services.api.ratings.flags.decide``): a ring member's confirmed (its flagged games' rating changes removed,
    its players replayed from the ledger), an honest player's cleared; then each ring's ratings again, and how many
    members stand above what their backer's play earns (provisional or not)."""
    ring_ids = {m.id for members in run.rings.values() for m in members}
    decided: Counter[str] = Counter()
    removed = 0
    while page := flags.list_flags(run.engine, "open", 100, None):
        for flag in page:
            confirm = flag["player"]["id"] in ring_ids
            answer = flags.decide(run.engine, flag["id"], "confirm" if confirm else "clear", run.end_ms)
            decided["confirmed" if confirm else "cleared"] += 1
            removed += len(answer["removed_games"])
    with run.engine.connect() as connection:
        rows = connection.execute(select(player_ratings).where(player_ratings.c.board == "partnership")).all()
        rating_holds = holds(connection)
    shown = {row.player_id: display(Rating(row.mu, row.sigma)) for row in rows if row.player_id not in rating_holds}
    on_board = {row.player_id for row in rows if not row.provisional}
    earned = earned_by_backer(run, shown, on_board)
    rings = {}
    for strategy, members in run.rings.items():
        above = [
            m.id for m in members if m.id in shown and earned[m.backer] is not None and shown[m.id] > earned[m.backer]
        ]
        rings[strategy] = {
            "highest_shown": max((shown[m.id] for m in members if m.id in shown), default=None),
            "members_above_earned": len(above),
            "held": {hold: sum(rating_holds.get(m.id) == hold for m in members) for hold in (REVIEW, CLOSED)},
        }
    return {"flags": dict(decided), "games_removed": removed, "rings": rings}


def build_pool(args: argparse.Namespace) -> tuple[dict[Any, list[dict[str, Any]]], int]:
    throws = [(PUPPET, PUPPET, FAST_THROW), (PUPPET, PUPPET, SLOW_THROW)]
    jobs = pool_of.pool_jobs(args.backers, args.per_key, args.seed,
                             args.round_cap, throws)  # fmt: skip
    pool: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for game in pool_of.play_pool(jobs, args.workers):
        key = ((PUPPET,) * 4, game["throw"]) if game["throw"] else (key_of(game["seating"]), None)
        pool[key].append(game)
    return pool, len(jobs)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=10_000, help="honest players")
    parser.add_argument("--games", type=int, default=20_000, help="honest players' games (about)")
    parser.add_argument("--days", type=float, default=14.0, help="the simulated span of the requests")
    parser.add_argument("--ring-size", type=int, default=8, help="puppets in each ring (and a booster)")
    parser.add_argument("--ring-games", type=int, default=120, help="each ring's games")
    parser.add_argument("--per-key", type=int, default=2, help="pool games of each pair of teams")
    parser.add_argument("--round-cap", type=int, default=60)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--progress", type=int, default=5000, help="a line on stderr every N games (0: none)")
    parser.add_argument("--database", help="the SQLite file (default: a temporary one)")
    parser.add_argument("--quick", action="store_true", help="a small population (two backers) for a test")
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.games, args.days, args.ring_size, args.ring_games = 120, 400, 3.0, 4, 40
        args.per_key, args.workers, args.progress = 1, 1, 0
    args.backers = QUICK_BACKERS if args.quick else BACKERS
    return args


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    started = time.perf_counter()
    pool, pool_games = build_pool(args)
    pooled = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(args.database) if args.database else Path(scratch) / "records.sqlite3"
        engine = make_engine(f"sqlite:///{path}")
        migrate(engine)
        run = Run(args, engine, pool)
        try:
            run.run()
            out = report(run)
            out["after_operator"] = operator_pass(run)
        finally:
            engine.dispose()
    out |= {
        "seed": args.seed,
        "ring_size": args.ring_size,
        "ring_games": args.ring_games,
        "pool_games": pool_games,
        "pool_seconds": round(pooled - started, 1),
        "simulation_seconds": round(time.perf_counter() - pooled, 1),
        "elapsed_s": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
