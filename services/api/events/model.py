"""An event as stored: its settings, its pairs, its rounds; plain data with a JSON codec, no I/O.

``version`` grows by one with every change, and the storage writes a change only over the version it was made
from (:class:`services.api.events.storage.EventStorage`), so two processes that advance one event at once
cannot both create a round.  A round's ``secret`` deals its cards at every table; it never leaves the server
(the views in :mod:`services.api.events.views` leave it out).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any, Literal

Format = Literal["duplicate_pairs", "arena"]  # arena: rules in arena.py, run by arena_room.py
FORMATS: tuple[str, ...] = ("duplicate_pairs", "arena")
SEATINGS: tuple[str, ...] = ("partners", "solo")  # an arena's entrants: partnered by the pairing, or each alone
Status = Literal["open", "running", "finished"]
COMPUTER_PAIR = "computer"  # the pair that evens an odd field: two computers, scored for the others, never ranked


@dataclass(frozen=True, slots=True)
class Member:
    """A pair's player as its seats bind it."""

    id: str
    name: str
    kind: str  # person | bot


@dataclass(frozen=True, slots=True)
class Pair:
    """Fixed partners.  ``number`` is 0 until the event starts (the movement's numbering, from 1); a pair whose
    partner has not yet accepted has one member and ``invited`` names the other."""

    pair_id: str
    members: tuple[Member, ...]
    invited: str | None = None
    number: int = 0
    withdrawn: bool = False
    kind: str = "players"  # players | computer (COMPUTER_PAIR)

    @property
    def complete(self) -> bool:
        return self.kind == COMPUTER_PAIR or (len(self.members) == 2 and self.invited is None)

    def has(self, player_id: str) -> bool:
        return self.invited == player_id or any(m.id == player_id for m in self.members)


@dataclass(frozen=True, slots=True)
class Table:
    """One table of a round: the pairs North-South (seats 0 and 2) and East-West (seats 1 and 3), its game."""

    table: int
    ns: int
    ew: int
    game_id: str


@dataclass(frozen=True, slots=True)
class DealResult:
    """One table's deal as played: the bids and tricks by seat, the points each side scored on it (a bag penalty
    it triggered included, as the game scored it)."""

    table: int
    deal: int  # within the round, from 1
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    points: tuple[int, int]  # NS, EW

    def to_json(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "deal": self.deal,
            "bids": list(self.bids),
            "tricks": list(self.tricks),
            "points": list(self.points),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DealResult:
        return cls(data["table"], data["deal"], tuple(data["bids"]), tuple(data["tricks"]), tuple(data["points"]))


@dataclass(frozen=True, slots=True)
class Round:
    number: int  # from 1
    secret: str  # deals every table's cards: never shown
    tables: tuple[Table, ...]
    no_shows: tuple[int, ...]  # pairs whose seats computers played this round
    started_ms: int
    finished_ms: int | None = None
    par_game_id: str | None = None  # four experts play the round's deals (Settings.par)
    # every table's deals, kept when the round finishes: its games expire from the game store an hour after
    # their records are written, and the standings read them no more
    results: tuple[DealResult, ...] = ()
    # the expert table's points on each deal (NS, EW), kept once it finishes (it may finish after its round): its
    # game expires like the others
    par: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Settings:
    name: str
    format: str
    max_pairs: int
    deals_per_round: int
    rounds: int
    clock: str  # a time control's name; none: no clock
    rated: bool
    bots_allowed: bool
    stand_in_level: str
    start_at_ms: int | None = None
    par: bool = False  # the expert's par on every board: four expert computers play each round's deals
    minutes: int = 60  # an arena's length: it pairs for this long after its start
    seating: str = "partners"  # an arena's entrants: partners (partnered by the pairing) | solo (individual games)
    max_players: int = 1000  # an arena's entrants at most


@dataclass(frozen=True, slots=True)
class Event:
    event_id: str
    creator: str  # player id
    settings: Settings
    created_ms: int
    status: str = "open"
    version: int = 1
    pairs: tuple[Pair, ...] = ()
    rounds: tuple[Round, ...] = ()
    finished_ms: int | None = None
    started_ms: int | None = None

    def next_version(self, **changes: Any) -> Event:
        return replace(self, version=self.version + 1, **changes)

    def pair_of(self, player_id: str) -> Pair | None:
        return next((p for p in self.pairs if p.has(player_id)), None)

    def pair_number(self, number: int) -> Pair:
        return next(p for p in self.pairs if p.number == number)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        return cls(
            data["event_id"],
            data["creator"],
            Settings(**data["settings"]),
            data["created_ms"],
            data["status"],
            data["version"],
            tuple(
                Pair(
                    p["pair_id"],
                    tuple(Member(**m) for m in p["members"]),
                    p["invited"],
                    p["number"],
                    p["withdrawn"],
                    p["kind"],
                )
                for p in data["pairs"]
            ),
            tuple(
                Round(
                    r["number"],
                    r["secret"],
                    tuple(Table(**t) for t in r["tables"]),
                    tuple(r["no_shows"]),
                    r["started_ms"],
                    r["finished_ms"],
                    r.get("par_game_id"),
                    tuple(DealResult.from_json(d) for d in r.get("results", ())),
                    tuple((ns, ew) for ns, ew in r.get("par", ())),
                )
                for r in data["rounds"]
            ),
            data.get("finished_ms"),
            data.get("started_ms"),
        )
