"""The chaos drill's invariants, judged on what the stores hold and what the clients saw.

Pure functions over plain data (:mod:`testkit.chaos_stores` reads the stores into it, :mod:`testkit.chaos_load`
records the clients' answers), so each is checked on made-up cases too (tests/testkit/test_chaos_invariants.py):

* **no acknowledged move lost**: every move a client got a 2xx answer for is in its game's stored history, at
  the version the answer named, made by the same seat;
* **no move applied twice**: each game's stored history replays through the engine from its deal (every move
  legal, every card once), its version counts one commit per move after the game's creation (and one per
  commit that only gave a clock back, ``clock_credited`` with no move: the fair clock's), and its kept event
  log holds each seq once and each version's move once, in order, the same as the history's; no
  ``Idempotency-Key`` was acknowledged at two versions;
* **every game finished or still progressing**: no game waited at a computer's turn (or at a person's whose
  player had quit) longer than the bound (the AI deadline + 10 s), counted from the end of any fault window
  the wait overlapped;
* **every finished game recorded exactly once**: one row per finished game, at its final version, as
  ``finished``; no row for a game still in play, none for a game the store does not hold;
* **no 5xx outside the fault windows** (a window runs from the fault to its recovery plus a grace);
* **no turn lost to the clock by a person whose move was sent in time** (:mod:`testkit.chaos_clocks` observes
  it): a move sent before its deadline, by the server's clock as the client saw it, answered ``409``/``412``
  because the clock's stand-in played that turn.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

MOVE_EVENTS = ("bid", "card_played")
CREDIT_EVENT = "clock_credited"  # a commit that gives a person's clock back for a service outage, moving nothing
Move = tuple[int, dict[str, Any]]  # (seat, {"bid": n} | {"card": "QS"})


@dataclass(frozen=True)
class Ack:
    """A move a client got a 2xx answer for: the answer's version, the seat it acted for, the body it sent."""

    game_id: str
    seat: int
    version: int
    move: dict[str, Any]
    key: str | None = None  # its Idempotency-Key
    at: float = 0.0


@dataclass(frozen=True)
class StoredGame:
    """A game as the store holds it: its version, every move of its history in order, its kept event log."""

    game_id: str
    version: int
    over: bool
    moves: tuple[Move, ...]
    log: tuple[dict[str, Any], ...] = ()
    first_seq: int = 1
    last_seq: int = 0
    replay_error: str | None = None  # the history does not replay through the engine
    commits_before_moves: int | None = 1  # its creation (and claims): the version before its first move

    @property
    def credit_commits(self) -> tuple[int, ...]:
        """The versions its kept log shows as a clock credit alone (a ``clock_credited`` entry, no move)."""
        moved = {entry["version"] for entry in self.log if entry["type"] in MOVE_EVENTS}
        return tuple(sorted({e["version"] for e in self.log if e["type"] == CREDIT_EVENT} - moved))

    @property
    def commits_before_first_move(self) -> int:
        """Its version less one commit per move and per credit alone: its creation and claims."""
        return self.version - len(self.moves) - len(self.credit_commits)

    def move_at(self, version: int) -> Move | None:
        """The move that made ``version``: one commit per move after the first ones, credits alone skipped."""
        credits = self.credit_commits
        if version in credits:
            return None
        index = version - self.commits_before_first_move - 1 - sum(1 for v in credits if v < version)
        return self.moves[index] if 0 <= index < len(self.moves) else None


@dataclass(frozen=True)
class RecordRow:
    game_id: str
    version: int
    outcome: str


@dataclass(frozen=True)
class Window:
    """A fault's window: from its start to its recovery plus the grace."""

    kind: str
    start: float
    end: float

    def holds(self, at: float) -> bool:
        return self.start <= at <= self.end


@dataclass(frozen=True)
class ServerError:
    at: float
    status: int
    route: str
    code: str = ""  # the problem's code (problem+json), when the answer had one


@dataclass(frozen=True)
class Stall:
    """A game that stayed at one version from ``start`` to ``end`` (seconds), at ``seat``'s turn."""

    game_id: str
    start: float
    end: float
    seat: int
    computer: bool  # a computer's turn (else a person's)
    player_active: bool = True  # a person's turn: its player was playing (or was stopped by the run's end)


@dataclass
class ClockedMove:
    """A person's move as its client sent it: the turn (game, seat, the ``If-Match`` version), the deadline the
    client's last view showed for it and the server's time as the client saw it when the move was first sent
    (Unix ms); the last attempt's status (None: unanswered) and the store's word on whether the clock played
    that turn (None: not looked at, or the log no longer kept it)."""

    game_id: str
    seat: int
    version: int
    deadline_ms: int | None
    sent_ms: int
    status: int | None = None
    timed_out: bool | None = None

    @property
    def in_time(self) -> bool:
        return self.deadline_ms is not None and self.sent_ms < self.deadline_ms


@dataclass
class Verdict:
    name: str
    figure: int
    passed: bool
    detail: list[str] = field(default_factory=list)

    def as_json(self, examples: int = 10) -> dict[str, Any]:
        out: dict[str, Any] = {"figure": self.figure, "pass": self.passed}
        if self.detail:
            out["examples"] = self.detail[:examples]
        return out


def lost_moves(acks: Iterable[Ack], games: dict[str, StoredGame]) -> list[str]:
    """Each acknowledged move the store does not hold as acknowledged."""
    lost = []
    for ack in acks:
        game = games.get(ack.game_id)
        if game is None:
            lost.append(f"{ack.game_id} v{ack.version}: the game is not in the store")
            continue
        stored = game.move_at(ack.version)
        if stored != (ack.seat, ack.move):
            lost.append(f"{ack.game_id} v{ack.version}: acknowledged seat {ack.seat} {ack.move}, stored {stored}")
    return lost


def _move_of(entry: dict[str, Any]) -> Move:
    data = entry["data"]
    return (data["seat"], {"bid": data["bid"]} if entry["type"] == "bid" else {"card": data["card"]})


def log_problems(game: StoredGame) -> list[str]:
    """What is wrong with a game's kept event log against its history (see the module docstring)."""
    problems = []
    seqs = [entry["seq"] for entry in game.log]
    if seqs != list(range(game.first_seq, game.last_seq + 1)):
        problems.append(f"{game.game_id}: log seqs {seqs[:3]}…{seqs[-3:]} are not {game.first_seq}..{game.last_seq}")
    moves = [entry for entry in game.log if entry["type"] in MOVE_EVENTS]
    for version, count in Counter(entry["version"] for entry in moves).items():
        if count > 1:
            problems.append(f"{game.game_id}: {count} moves in the log at version {version}")
    credits = game.credit_commits
    for before, after in pairwise(moves):
        between = sum(1 for v in credits if before["version"] < v < after["version"])
        if after["version"] != before["version"] + 1 + between:
            problems.append(f"{game.game_id}: log moves at v{before['version']} then v{after['version']}")
    for entry in moves:
        if _move_of(entry) != game.move_at(entry["version"]):
            problems.append(
                f"{game.game_id} v{entry['version']}: log {_move_of(entry)}, history {game.move_at(entry['version'])}"
            )
    return problems


def applied_twice(games: dict[str, StoredGame], acks: Iterable[Ack] = ()) -> list[str]:
    """Each sign of a move applied more than once (or out of place): see the module docstring."""
    problems = []
    for game in games.values():
        if game.replay_error is not None:
            problems.append(f"{game.game_id}: the history does not replay: {game.replay_error}")
            continue
        offset = game.commits_before_first_move
        if game.commits_before_moves is not None and offset != game.commits_before_moves:
            credits = f" and {len(game.credit_commits)} clock credits" if game.credit_commits else ""
            problems.append(
                f"{game.game_id}: version {game.version} for {len(game.moves)} moves{credits} "
                f"(expected {game.commits_before_moves} commits before the first)"
            )
        problems += log_problems(game)
    versions: dict[tuple[str, int, str], set[int]] = defaultdict(set)
    for ack in acks:
        if ack.key is not None:
            versions[(ack.game_id, ack.seat, ack.key)].add(ack.version)
    for (game_id, seat, key), seen in versions.items():
        if len(seen) > 1:
            problems.append(f"{game_id} seat {seat}: Idempotency-Key {key} acknowledged at versions {sorted(seen)}")
    return problems


def stuck_games(stalls: Iterable[Stall], windows: list[Window], bound: float) -> list[str]:
    """Each wait longer than ``bound`` at a computer's turn or at a person's whose player had quit, counted from
    the end of the last fault window it overlapped (a window that starts during the wait moves its count on)."""
    stuck = []
    for stall in stalls:
        if not stall.computer and stall.player_active:
            continue  # a person's turn, and the person is there: not the service's to move
        start = stall.start
        for window in sorted(windows, key=lambda w: w.start):
            if window.start <= stall.end and window.end >= start:
                start = max(start, window.end)
        if stall.end - start > bound:
            whose = "a computer's" if stall.computer else "a person's (player gone)"
            stuck.append(
                f"{stall.game_id}: at {whose} turn (seat {stall.seat}) from {stall.start:.1f} s to {stall.end:.1f} s, "
                f"{stall.end - start:.1f} s past the faults"
            )
    return stuck


def record_problems(games: dict[str, StoredGame], rows: Iterable[RecordRow]) -> list[str]:
    """Finished games without exactly one record at their final version; records of games in play or unknown."""
    by_game: dict[str, list[RecordRow]] = defaultdict(list)
    for row in rows:
        by_game[row.game_id].append(row)
    problems = []
    for game in games.values():
        found = by_game.get(game.game_id, [])
        if not game.over:
            if any(row.outcome == "finished" for row in found):
                problems.append(f"{game.game_id}: recorded as finished but in play at v{game.version}")
            continue
        if len(found) != 1:
            problems.append(f"{game.game_id}: finished at v{game.version}, {len(found)} records")
        elif (found[0].version, found[0].outcome) != (game.version, "finished"):
            problems.append(
                f"{game.game_id}: finished at v{game.version}, recorded v{found[0].version} {found[0].outcome}"
            )
    for game_id in by_game.keys() - games.keys():
        problems.append(f"{game_id}: recorded, but not a game the store holds")
    return problems


def turns_lost_to_the_clock(moves: Iterable[ClockedMove]) -> list[str]:
    """Each move sent in time and answered 409/412 because the clock's stand-in played its turn."""
    return [
        f"{m.game_id} seat {m.seat} v{m.version}: sent {m.deadline_ms - m.sent_ms} ms before its deadline "
        f"(server clock as the client saw it), answered {m.status}, the clock played the turn"
        for m in moves
        if m.in_time and m.status in (409, 412) and m.timed_out and m.deadline_ms is not None
    ]


def errors_outside(errors: Iterable[ServerError], windows: list[Window]) -> list[ServerError]:
    return [error for error in errors if not any(window.holds(error.at) for window in windows)]


def judge(
    acks: list[Ack],
    games: dict[str, StoredGame],
    stalls: list[Stall],
    rows: list[RecordRow],
    errors: list[ServerError],
    windows: list[Window],
    bound: float,
) -> list[Verdict]:
    """Every invariant's verdict: its figure (how many broke it) and pass or fail, with examples."""
    lost = lost_moves(acks, games)
    twice = applied_twice(games, acks)
    stuck = stuck_games(stalls, windows, bound)
    records = record_problems(games, rows)
    outside = errors_outside(errors, windows)
    return [
        Verdict("acknowledged_moves_lost", len(lost), not lost, lost),
        Verdict("moves_applied_twice", len(twice), not twice, twice),
        Verdict("games_stuck", len(stuck), not stuck, stuck),
        Verdict("finished_games_not_recorded_exactly_once", len(records), not records, records),
        Verdict(
            "5xx_outside_fault_windows",
            len(outside),
            not outside,
            [f"{e.status} {e.route} at {e.at:.2f} s" for e in outside],
        ),
    ]
