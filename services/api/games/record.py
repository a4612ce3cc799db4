"""The game as the API keeps it: :class:`GameRecord` and the typed parts it holds — its seats, its options, its turn
clock, its rematch and its fair play — each a dataclass with the one codec that reads and writes its stored JSON.

The store (:mod:`services.api.store`) keeps a game as four texts and never looks inside them: it is given
:meth:`GameRecord.from_stored` to read one back, and writes what :meth:`GameRecord.meta_json` says.  Every stored
key is read here and nowhere else; the rules over these parts live with their concern (the clock's in
:mod:`services.api.games.clocks`, a rematch's in :mod:`services.api.games.rematch`).

Two releases write the same games during a rolling upgrade and a rollback (docs/operations.md, "Deploy"), so a
key of ``meta`` or of ``options`` this release does not know is a newer one's: it is read as it was
(:attr:`GameRecord.unknown`, :attr:`GameOptions.unknown`) and written back unchanged with every commit.  A key
inside ``clock``, ``fair`` or ``table`` is not: those parts are rebuilt by the commits that change them.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cached_property
from threading import Lock
from typing import Any

import orjson

from services.api.store.protocol import now_ms
from services.engine import GameState, from_json, to_json_parts

_PARSED: OrderedDict[tuple[str, str], GameState] = OrderedDict()
_PARSED_LOCK = Lock()
PARSED_CACHE_SIZE = 1024


def parse_state(text: str, rounds: str) -> GameState:
    """``from_json`` with a small per-process cache keyed by the stored texts
    themselves (content-addressed, so it can never return another state)."""
    key = (text, rounds)
    with _PARSED_LOCK:
        state = _PARSED.get(key)
        if state is not None:
            _PARSED.move_to_end(key)
            return state
    state = from_json(text, rounds)
    with _PARSED_LOCK:
        _PARSED[key] = state
        while len(_PARSED) > PARSED_CACHE_SIZE:
            _PARSED.popitem(last=False)
    return state


@dataclass(frozen=True, slots=True)
class PlayerRef:
    """The player a person's seat is bound to (``services.api.players``): id, display name and kind as they
    were when the seat was taken (a later rename shows in the next game), and the credential it was taken
    through (:mod:`services.api.games.seat_release`: revoking it releases the seat)."""

    id: str
    name: str
    kind: str  # person | bot
    credential: str | None = None  # a session's id (ses_…) or the player token's mark (spt:…); never a secret


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat as stored; immutable, so versions of a record can share them.

    Stored as a JSON list, ``[type, level, token_hash]``, then ``stand_in`` when it is true or a player
    follows, then the player's ``id``, ``name`` and ``kind`` when the seat is bound to one: a seat stored
    before players existed reads back as it was, and an unbound seat costs nothing more.  The credential its
    player took it through is stored beside the list (``meta.cred``, :meth:`GameRecord.meta_json`), so a
    process that predates it reads the seat as it was.  A longer list (a newer release's) reads as its first
    :data:`SEAT_FIELDS` items: a per-seat field a release adds goes in a list of its own at the top of ``meta``, as
    ``cred`` does (kept by older processes), never at a seat's end (dropped at their next commit)."""

    type: str  # human | open | ai
    level: str | None = None  # ai level
    token_hash: str | None = None
    stand_in: bool = False  # an AI playing a left seat until someone claims it
    player_id: str | None = None  # the player the seat is bound to (a human seat taken with a player token)
    name: str | None = None  # that player's display name when the seat was taken
    player_kind: str | None = None  # that player's kind: person | bot
    credential: str | None = None  # the player's credential that took it (PlayerRef.credential); None: unknown

    @property
    def claimable(self) -> bool:
        return self.type == "open" or self.stand_in

    @property
    def player(self) -> PlayerRef | None:
        if self.player_id is None:
            return None
        return PlayerRef(self.player_id, self.name or "", self.player_kind or "person", self.credential)

    @classmethod
    def taken(cls, token_hash: str | None, player: PlayerRef | None = None) -> Seat:
        """A person's seat, bound to ``player`` (and the credential it came through) when one took it."""
        if player is None:
            return cls("human", None, token_hash)
        return cls("human", None, token_hash, False, player.id, player.name, player.kind, player.credential)

    def to_json(self) -> list[Any]:
        base = [self.type, self.level, self.token_hash]
        if self.player_id is not None:
            return [*base, self.stand_in, self.player_id, self.name, self.player_kind]
        return [*base, True] if self.stand_in else base

    @classmethod
    def from_json(cls, data: list[Any], credential: str | None = None) -> Seat:
        """The seat stored as ``data``, taken through ``credential`` (``meta.cred``'s item for it)."""
        return cls(*(data if len(data) <= SEAT_FIELDS else data[:SEAT_FIELDS]), credential=credential)


SEAT_FIELDS = 7  # the items of a stored seat's list this release reads (Seat.to_json)


NO_CLOCK = "none"  # the time control of a game without a clock (services.api.games.clocks.CONTROLS)


@dataclass(frozen=True, slots=True)
class GameOptions:
    """A game's settings beside its rules (``options`` in views and records): who takes over a left seat, hints,
    listed in the lobby, made by quick match, and its time control.  Stored as the JSON object views show,
    ``matched`` only when true.  An option a newer release stored is kept as it was (``unknown``) and written
    back: a game keeps it through an older process's commits during a rolling upgrade or a rollback."""

    ai_takeover: str | None  # the level that plays a left or timed-out seat; None: the seat waits (basic times out)
    hints: bool = True  # the players may ask for hints
    public: bool = False  # listed among the public tables while it has a seat to claim
    clock: str = NO_CLOCK  # the time control's name
    matched: bool = False  # made by quick match, for strangers
    unknown: tuple[tuple[str, Any], ...] = ()  # options a newer release stored, as stored

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "ai_takeover": self.ai_takeover,
            "hints": self.hints,
            "public": self.public,
            "clock": self.clock,
        }
        if self.matched:
            data["matched"] = True
        if self.unknown:
            data.update(self.unknown)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameOptions:
        unknown = data.keys() - KNOWN_OPTIONS
        return cls(
            data.get("ai_takeover"),
            bool(data.get("hints", True)),
            bool(data.get("public", False)),
            data.get("clock") or NO_CLOCK,
            bool(data.get("matched", False)),
            tuple((key, data[key]) for key in sorted(unknown)) if unknown else (),
        )


KNOWN_OPTIONS = frozenset({"ai_takeover", "hints", "public", "clock", "matched"})  # what GameOptions reads


@dataclass(frozen=True, slots=True)
class Clock:
    """A game's running turn clock (:mod:`services.api.games.clocks` has its rules): the control, its times (scaled
    at creation), the seat whose clock runs (None: nobody's) with its start and deadline, and per seat the reserve
    left, the timeouts in a row and whether it is away.  ``given_ms``: the service's outages given back to the running
    turn, the last of them ending at ``given_until_ms`` (stored only when some were)."""

    control: str
    move_ms: int
    full_reserve_ms: int
    seat: int | None
    turn_started_ms: int | None
    deadline_ms: int | None
    reserve_ms: tuple[int, ...]
    timeouts: tuple[int, ...]
    away: tuple[bool, ...]
    given_ms: int = 0
    given_until_ms: int | None = None

    def to_json(self) -> dict[str, Any]:
        given = {"given": [self.given_ms, self.given_until_ms]} if self.given_until_ms is not None else {}
        return {
            "control": self.control,
            "move_ms": self.move_ms,
            "full_reserve_ms": self.full_reserve_ms,
            "seat": self.seat,
            "turn_started_ms": self.turn_started_ms,
            "deadline_ms": self.deadline_ms,
            "reserve_ms": list(self.reserve_ms),
            "timeouts": list(self.timeouts),
            "away": list(self.away),
            **given,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Clock:
        given, until = data.get("given", (0, None))
        return cls(
            data["control"],
            data["move_ms"],
            data["full_reserve_ms"],
            data["seat"],
            data["turn_started_ms"],
            data["deadline_ms"],
            tuple(data["reserve_ms"]),
            tuple(data["timeouts"]),
            tuple(data["away"]),
            given,
            until,
        )


@dataclass(frozen=True, slots=True)
class Rematch:
    """A game's links to its rematches and the seats it keeps for the last game's people
    (:mod:`services.api.games.rematch`).  Stored as ``meta.table`` (``rematch``, ``by``, ``rematch_of``, ``joined``,
    ``people``, ``reserved``, ``until``), each key only when set."""

    next_game: str | None = None  # the rematch offered from this finished game
    previous_game: str | None = None  # the finished game this one is the rematch of
    joined: tuple[int, ...] = ()  # the seats whose person took their seat in this rematch
    people: tuple[int, ...] = ()  # the seats of the last game's people
    reserved: tuple[int, ...] = ()  # the seats still kept for them (until ``until_ms``)
    until_ms: int | None = None  # when the wait for them ends (Unix ms)
    offered_by: int | None = None  # the seat whose person offered ``next_game``

    def __bool__(self) -> bool:
        return self != NO_REMATCH

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.next_game is not None:
            data["rematch"] = self.next_game
        if self.offered_by is not None:
            data["by"] = self.offered_by
        if self.previous_game is not None:
            data["rematch_of"] = self.previous_game
        if self.joined:
            data["joined"] = list(self.joined)
        if self.people:
            data["people"] = list(self.people)
        if self.reserved or self.until_ms is not None:
            data["reserved"] = list(self.reserved)
        if self.until_ms is not None:
            data["until"] = self.until_ms
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rematch:
        if not data:
            return NO_REMATCH
        until, by = data.get("until"), data.get("by")
        return cls(
            data.get("rematch"),
            data.get("rematch_of"),
            tuple(data.get("joined", ())),
            tuple(data.get("people", ())),
            tuple(data.get("reserved", ())),
            None if until is None else int(until),
            None if by is None else int(by),
        )


NO_REMATCH = Rematch()


@dataclass(frozen=True, slots=True)
class FairPlay:
    """A game made to count (:func:`services.ratings.policy.may_count`; :mod:`services.api.games.fair_play` keeps
    it): whether it still counts and why not, the seats whose player forfeited (and which of them by the clock),
    the seat whose player aborted it, and each person seat's client (a hashed address: one client on two seats is
    one person playing both).  Stored as ``meta.fair``."""

    counts: bool = True
    reason: str | None = None  # why it no longer counts: aborted | shared_client
    forfeits: tuple[int, ...] = ()  # seats whose player left, or was away, after the first card
    clients: tuple[str | None, ...] = (None,) * 4  # who took each person seat (None: open, a computer's)
    timed_out: tuple[int, ...] = ()  # the forfeits by the clock (away), not by leaving
    aborted_by: int | None = None  # the seat whose player left, or was away, before the first card

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"c": self.counts, "cl": list(self.clients)}
        if self.reason is not None:
            data["r"] = self.reason
        if self.forfeits:
            data["f"] = list(self.forfeits)
        if self.timed_out:
            data["t"] = list(self.timed_out)
        if self.aborted_by is not None:
            data["a"] = self.aborted_by
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FairPlay:
        forfeits, timed_out = tuple(data.get("f", ())), tuple(data.get("t", ()))
        return cls(bool(data["c"]), data.get("r"), forfeits, tuple(data["cl"]), timed_out, data.get("a"))


@dataclass
class GameRecord:
    """One game as stored: version, seats, options and the engine state as
    its two stored texts (:func:`services.engine.to_json_parts`)."""

    game_id: str
    version: int
    seats: list[Seat]
    state_json: str
    options: GameOptions = field(default_factory=lambda: GameOptions(None))
    started: bool = False  # all seats were taken at least once and round 1 began
    seq: int = 0  # seq of the last event
    rounds_json: str = "[]"
    seeded: bool = False  # created with a client-chosen seed: its creator can compute the deals
    first_seq: int = 1  # seq of the oldest event the log keeps (services.api.games.log_retention)
    round_starts: tuple[int, ...] = ()  # seqs of the kept rounds' round_started events, oldest first
    creators: tuple[str, ...] = ()  # who created it, hashed (services.api.games.quotas): released at game over
    created_ms: int = 0  # when it was created (Unix ms): its record's timestamps (services.api.records)
    changed_ms: int = 0  # when this version was made (Unix ms): a finished game's end, an abandoned one's last change
    rematch: Rematch = NO_REMATCH  # rematch links and reserved seats (services.api.games.rematch); replaced
    clock: Clock | None = None  # the turn clock (services.api.games.clocks), None without one
    fair: FairPlay | None = None  # a game made to count (services.api.games.fair_play), None for any other
    unknown: dict[str, Any] = field(default_factory=dict)  # meta keys a newer release stored: kept, never changed

    @cached_property
    def state(self) -> GameState:
        return parse_state(self.state_json, self.rounds_json)

    def with_state(self, state: GameState) -> GameRecord:
        head, rounds = to_json_parts(state)
        record = self._copy(self.version, self.seats, head, rounds)
        record.__dict__["state"] = state
        return record

    def successor(self) -> GameRecord:
        """A copy to modify into the next version, stamped now (seats are immutable: a change replaces one)."""
        nxt = self._copy(self.version + 1, list(self.seats), self.state_json, self.rounds_json)
        nxt.changed_ms = now_ms()
        nxt.__dict__["state"] = self.state
        return nxt

    def _copy(self, version: int, seats: list[Seat], state_json: str, rounds_json: str) -> GameRecord:
        """This record with those fields replaced: the one place that lists every field (positionally,
        as ``dataclasses.replace`` costs a move several µs)."""
        return GameRecord(
            self.game_id,
            version,
            seats,
            state_json,
            self.options,
            self.started,
            self.seq,
            rounds_json,
            self.seeded,
            self.first_seq,
            self.round_starts,
            self.creators,
            self.created_ms,
            self.changed_ms,
            self.rematch,
            self.clock,
            self.fair,
            self.unknown,
        )

    @property
    def waiting(self) -> bool:
        return "open" in [s.type for s in self.seats]

    @property
    def finished(self) -> bool:
        """The game is over (the store keeps a finished game for its own time)."""
        return self.state.phase == "game_over"

    def away(self, seat: int) -> bool:
        """The person of ``seat`` is away (the clock's mark: the computer plays their turns until they are back)."""
        return self.clock is not None and self.clock.away[seat]

    @property
    def computer_only(self) -> bool:
        """No seat is a person's or a bot's (nor open), or every person's is away (its clock's mark): nobody
        waits on its computers' turns (bulk work; paused while nobody reads it)."""
        return all(s.type == "ai" or self.away(i) for i, s in enumerate(self.seats))

    def meta_json(self) -> str:
        meta: dict[str, Any] = {
            "seats": [s.to_json() for s in self.seats],
            "options": self.options.to_json(),
            "started": self.started,
            "seq": self.seq,
            "log": [self.first_seq, *self.round_starts],
        }
        if self.seeded:  # written only when true: most games are unseeded
            meta["seeded"] = True
        if self.creators:  # only with quotas on: the creators' hashed ids, to release their hold at game over
            meta["by"] = self.creators
        if self.created_ms:  # created and last changed, Unix ms: the game's record's timestamps
            meta["t"] = [self.created_ms, self.changed_ms]
        if self.rematch:  # a rematch offered from it, or seats reserved in it
            meta["table"] = self.rematch.to_json()
        if self.clock is not None:  # only in games with a clock
            meta["clock"] = self.clock.to_json()
        if self.fair is not None:  # only in games made to count
            meta["fair"] = self.fair.to_json()
        if any(s.credential is not None for s in self.seats):  # only where a player's credential took a seat
            meta["cred"] = [s.credential for s in self.seats]
        if self.unknown:  # a newer release's keys, as it wrote them (module docstring)
            meta.update(self.unknown)
        return orjson.dumps(meta).decode()

    @classmethod
    def from_stored(cls, game_id: str, version: int, meta_json: str | bytes, state: str, rounds: str) -> GameRecord:
        meta = orjson.loads(meta_json)
        log = meta["log"]  # the kept log's first seq, then each kept round's first seq
        created, changed = meta.get("t", (0, 0))
        clock, fair = meta.get("clock"), meta.get("fair")
        cred = meta.get("cred")  # the players' credentials that took the seats, only where one did
        if cred is None:
            seats = [Seat.from_json(s) for s in meta["seats"]]
        else:
            seats = [Seat.from_json(s, c) for s, c in zip(meta["seats"], cred, strict=True)]
        unknown = meta.keys() - KNOWN_META
        return cls(
            game_id,
            version,
            seats,
            state,
            GameOptions.from_json(meta["options"]),
            meta["started"],
            meta["seq"],
            rounds,
            meta.get("seeded", False),
            log[0],
            tuple(log[1:]),
            tuple(meta.get("by", ())),
            created,
            changed,
            Rematch.from_json(meta.get("table", {})),
            None if clock is None else Clock.from_json(clock),
            None if fair is None else FairPlay.from_json(fair),
            {key: meta[key] for key in unknown} if unknown else {},
        )


# every key of ``meta`` this release reads and writes (GameRecord.from_stored, meta_json): any other is a newer
# release's, kept as it was (tests/api/games/test_record.py holds this set to the two methods)
KNOWN_META = frozenset(
    {"seats", "options", "started", "seq", "log", "seeded", "by", "t", "table", "clock", "fair", "cred"}
)
