"""The events service: create, join as a pair, accept, withdraw, start, and the lazy advance that starts rounds.

Every change is a read-change-write of the event over the version it was read at (:meth:`Events._change`), retried
on a lost race.  Nothing runs in the background: each read of an event (``GET``, the scoresheet) advances it first
(:meth:`Events.advance`) — the start at its start time, the next round once every table of the current one has
finished, the end after the last — so a process that dies mid-change leaves nothing a later read cannot finish.
A round is claimed in the event (its secret and game ids written) before its games are created, and creating a
game is idempotent (:class:`services.api.games.commands.FixedIds`), so two processes never deal one round twice.

A round's tables are ordinary games made through :func:`services.api.games.commands.create_game`: seats bound to
the pairs' players (each takes its seat with its ``Player-Token``: ``POST /v1/games/{id}/seats/{seat}/take``),
the round's secret and ``deals`` = the deals per round, so every table of a round plays the same cards.  A pair
withdrawn when a round starts is a no-show: computers of the event's stand-in level play its seats
(:mod:`services.api.events.matchpoints` scores it).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import replace

from services.api.events import pars as expert_pars
from services.api.events.arena_room import ArenaRoom, check_format, ends_ms
from services.api.events.model import (
    COMPUTER_PAIR,
    DealResult,
    Event,
    Member,
    Pair,
    Round,
    Settings,
    Table,
)
from services.api.events.movements import movement
from services.api.events.results import table_results
from services.api.events.storage import EventStorage
from services.api.events.tables import hand_to_stand_ins, make_tables
from services.api.games.commands import Collaborators
from services.api.games.record import NO_CLOCK, GameRecord, PlayerRef
from services.api.games.seat_tokens import new_game_id
from services.api.problems import ApiError
from services.api.store.protocol import now_ms
from services.engine import GameState, new_secret

FEWEST_PAIRS = 3  # an odd field is evened by a computer pair: 3 pairs play at 2 tables
RETRIES = 8
SEATS = 4


def event_not_found() -> ApiError:
    return ApiError(404, "event_not_found", "No such event.")


class Events:
    """One per process: the events over ``storage``, their tables made with ``ctx`` (the commands' collaborators)."""

    def __init__(
        self,
        ctx: Collaborators,
        storage: EventStorage,
        clock: Callable[[], int] = now_ms,
        deal_secret: Callable[[], str] = new_secret,
        arena: ArenaRoom | None = None,
    ) -> None:
        self.ctx = ctx
        self.storage = storage
        self.clock = clock
        self.deal_secret = deal_secret
        self.arena = arena

    # ---- reads ---------------------------------------------------------------------------------------------

    def load(self, event_id: str) -> Event:
        found = self.storage.load(event_id) if 0 < len(event_id) <= 64 else None
        if found is None:
            raise event_not_found()
        return found

    def newest(self, limit: int) -> list[Event]:
        return self.storage.newest(limit)

    def game(self, game_id: str) -> GameRecord | None:
        return self.ctx.store.load(game_id)

    def pars(self, event: Event) -> dict[int, list[tuple[int, int]]]:
        """Each round's par so far (:func:`services.api.events.pars.pars`)."""
        return expert_pars.pars(event, self.game)

    def results(self, event: Event) -> dict[int, list[DealResult]]:
        """Every finished table's deals, by round (a finished round's from the event, the current one's from its
        games)."""
        found: dict[int, list[DealResult]] = {}
        for rnd in event.rounds:
            if rnd.results:
                found[rnd.number] = list(rnd.results)
                continue
            rows: list[DealResult] = []
            for table in rnd.tables:
                record = self.game(table.game_id)
                if record is not None and record.finished:
                    rows += table_results(table.table, record.state, event.settings.deals_per_round)
            found[rnd.number] = rows
        return found

    # ---- changes -------------------------------------------------------------------------------------------

    def _change(self, event_id: str, change: Callable[[Event], Event | None]) -> Event:
        """``change`` applied to the event as stored now, written over the version it read (None: no change)."""
        for _ in range(RETRIES):
            event = self.load(event_id)
            changed = change(event)
            if changed is None:
                return event
            if self.storage.replace(changed):
                return changed
        raise ApiError(503, "unavailable", "The event changed too often to write; retry.")

    def create(self, creator: PlayerRef, settings: Settings) -> Event:
        if settings.format == "arena" and self.arena is None:
            raise ApiError(422, "event_format_unsupported", "This service runs no arenas.")
        if settings.format == "arena" and settings.clock == NO_CLOCK:  # its games never wait for a player who left
            raise ApiError(422, "arena_needs_clock", "An arena needs a time control: its games go on without you.")
        if settings.rated and settings.clock == NO_CLOCK:
            raise ApiError(422, "event_rated_needs_clock", "A rated event needs a time control: rated games have one.")
        event = Event(secrets.token_urlsafe(12), creator.id, settings, self.clock())
        if not self.storage.add(event):
            raise ApiError(503, "unavailable", "Could not allocate an event id; retry.")
        return event

    def join(self, event_id: str, player: PlayerRef, partner_id: str) -> Pair:
        """A pair made by ``player``, with ``partner_id`` invited (the pair plays once the partner accepts)."""
        if partner_id == player.id:
            raise ApiError(409, "partner_invalid", "A pair is two different players.")
        pair_id = secrets.token_urlsafe(6)

        def join(event: Event) -> Event:
            check_format(event, "duplicate_pairs")
            self._check_open(event)
            self._check_player(event, player)
            if event.pair_of(partner_id) is not None:
                raise ApiError(409, "already_in_event", "Your partner is in a pair of this event already.")
            if len(event.pairs) >= event.settings.max_pairs:
                raise ApiError(409, "event_full", "The event has all the pairs it takes.")
            pair = Pair(pair_id, (Member(player.id, player.name, player.kind),), partner_id)
            return event.next_version(pairs=(*event.pairs, pair))

        return self._pair(self._change(event_id, join), pair_id)

    def accept(self, event_id: str, pair_id: str, player: PlayerRef) -> Pair:
        def accept(event: Event) -> Event | None:
            pair = self._pair(event, pair_id)
            if any(m.id == player.id for m in pair.members):
                return None  # accepted already (a repeated request)
            if pair.invited != player.id:
                raise ApiError(403, "not_invited", "This pair did not invite you.")
            self._check_open(event)
            self._check_bots(event, player)
            joined = replace(pair, members=(*pair.members, Member(player.id, player.name, player.kind)), invited=None)
            return event.next_version(pairs=tuple(joined if p.pair_id == pair_id else p for p in event.pairs))

        return self._pair(self._change(event_id, accept), pair_id)

    def withdraw(self, event_id: str, pair_id: str, player: PlayerRef) -> Event:
        """Before the start the pair leaves the event; after it the pair is a no-show from the next round on, and
        its seats at the current round's table go to stand-ins at once (left as by a leave: the table plays on)."""

        def withdraw(event: Event) -> Event | None:
            pair = self._pair(event, pair_id)
            if not pair.has(player.id):
                raise ApiError(403, "not_in_pair", "You are not in this pair.")
            if event.status == "open":
                return event.next_version(pairs=tuple(p for p in event.pairs if p.pair_id != pair_id))
            if pair.withdrawn or event.status != "running":
                return None
            gone = replace(pair, withdrawn=True)
            return event.next_version(pairs=tuple(gone if p.pair_id == pair_id else p for p in event.pairs))

        event = self._change(event_id, withdraw)
        if event.status == "running":
            hand_to_stand_ins(self.ctx, event, self._pair(event, pair_id))
        return event

    def start(self, event_id: str, player: PlayerRef) -> Event:
        event = self.load(event_id)
        if event.creator != player.id:
            raise ApiError(403, "not_event_creator", "Only the event's creator starts it.")
        self._check_open(event)
        return self._ensure_tables(self._change(event_id, self._started))

    def advance(self, event: Event, player_id: str | None = None) -> Event:
        """The event as its clock and its tables have it now: started at its start time, the next round begun
        when the current one's tables have all finished, finished after the last round (an arena: its games
        scored and its pool paired, as seen by ``player_id``'s read; finished when its time is up and its last
        game scored); every expert table that has finished kept in its round."""
        event = self._moved_on(event, player_id)
        found = expert_pars.finished(event, self.game)
        return self._change(event.event_id, lambda e: expert_pars.kept(e, found)) if found else event

    def _moved_on(self, event: Event, player_id: str | None) -> Event:
        if event.status == "open":
            start_at = event.settings.start_at_ms
            if start_at is None or self.clock() < start_at:
                return event
            event = self._ensure_tables(self._change(event.event_id, self._started))
        if event.status != "running":
            return event
        if event.settings.format == "arena":
            assert self.arena is not None
            idle = self.arena.advance(event, player_id)
            ends = ends_ms(event)
            if idle and ends is not None and self.clock() >= ends:
                return self._change(event.event_id, self._arena_over)
            return event
        current = event.rounds[-1]
        finished = [self.game(t.game_id) for t in current.tables]
        if any(record is None for record in finished):
            return self._ensure_tables(event)
        if not all(record.finished for record in finished if record is not None):
            return event
        states = {t.table: r.state for t, r in zip(current.tables, finished, strict=True) if r is not None}
        return self._ensure_tables(self._change(event.event_id, lambda e: self._next_round(e, current.number, states)))

    # ---- the steps -----------------------------------------------------------------------------------------

    def _started(self, event: Event) -> Event | None:
        """The event started: its complete pairs numbered (an odd field evened by a computer pair), round 1; an
        arena's clock started (its players join while it runs too)."""
        if event.status != "open":
            return None
        if event.settings.format == "arena":
            return event.next_version(status="running", started_ms=self.clock())
        complete = [p for p in event.pairs if p.complete]
        if len(complete) < FEWEST_PAIRS:
            if event.settings.start_at_ms is not None and self.clock() >= event.settings.start_at_ms:
                return event.next_version(status="finished", finished_ms=self.clock())  # nobody came
            raise ApiError(409, "too_few_pairs", f"An event starts with at least {FEWEST_PAIRS} complete pairs.")
        numbered = [replace(p, number=i) for i, p in enumerate(complete, start=1)]
        if len(numbered) % 2:
            numbered.append(Pair("computer", (), None, len(numbered) + 1, False, COMPUTER_PAIR))
        rounds = min(event.settings.rounds, len(movement(len(numbered))))
        settings = replace(event.settings, rounds=rounds)
        started = event.next_version(status="running", pairs=tuple(numbered), settings=settings)
        return replace(started, rounds=(self._round(started, 1),))

    def _arena_over(self, event: Event) -> Event | None:
        """The arena finished: its time is up and its last game scored."""
        return event.next_version(status="finished", finished_ms=self.clock()) if event.status == "running" else None

    def _round(self, event: Event, number: int) -> Round:
        seating = movement(len(event.pairs))[number - 1]
        no_shows = tuple(sorted(p.number for p in event.pairs if p.withdrawn))
        tables = tuple(Table(i, ns, ew, new_game_id()) for i, (ns, ew) in enumerate(seating, start=1))
        par = new_game_id() if event.settings.par else None
        return Round(number, self.deal_secret(), tables, no_shows, self.clock(), par_game_id=par)

    def _next_round(self, event: Event, number: int, states: dict[int, GameState]) -> Event | None:
        if event.status != "running" or event.rounds[-1].number != number:
            return None  # another process moved it on
        deals = event.settings.deals_per_round
        kept = tuple(row for table, state in sorted(states.items()) for row in table_results(table, state, deals))
        done = replace(event.rounds[-1], finished_ms=self.clock(), results=kept)
        rounds = (*event.rounds[:-1], done)
        if number >= event.settings.rounds:
            return event.next_version(status="finished", rounds=rounds, finished_ms=self.clock())
        moved = event.next_version(rounds=rounds)
        return replace(moved, rounds=(*rounds, self._round(moved, number + 1)))

    def _ensure_tables(self, event: Event) -> Event:
        """Every table of the current round made (idempotent: a table made already is found made)."""
        if event.status == "running" and event.rounds:
            make_tables(self.ctx, event)
        return event

    # ---- checks --------------------------------------------------------------------------------------------

    @staticmethod
    def _pair(event: Event, pair_id: str) -> Pair:
        found = next((p for p in event.pairs if p.pair_id == pair_id), None)
        if found is None:
            raise ApiError(404, "pair_not_found", "No such pair in this event.")
        return found

    @staticmethod
    def _check_open(event: Event) -> None:
        if event.status != "open":
            raise ApiError(409, "event_not_open", "The event has started: its pairs are fixed.")

    def _check_player(self, event: Event, player: PlayerRef) -> None:
        self._check_bots(event, player)
        if event.pair_of(player.id) is not None:
            raise ApiError(409, "already_in_event", "You are in a pair of this event already.")

    @staticmethod
    def _check_bots(event: Event, player: PlayerRef) -> None:
        if player.kind == "bot" and not event.settings.bots_allowed:
            raise ApiError(403, "bots_not_allowed", "This event admits people only.")
