"""An arena run by the events room: players join and withdraw, waves pair the pool into games, finished games score
their entrants (:mod:`services.api.events.arena`, the rules) and put them back in the pool.

The arena's entrants, standings, pool and games in play are kept by the store
(:class:`services.api.store.arena_rooms.ArenaRooms`), every change written over the version it was read at and
retried on a lost race.  Nothing runs in the background: each read of the arena first moves it on
(:meth:`ArenaRoom.advance`) — the reading entrant's game, or for an event's read the longest-running games, are
looked at, finished ones scored, and the pool paired — so a process that dies mid-change leaves nothing a later
read cannot finish.  A wave writes its games (their ids chosen) before it creates them, and creating a game is idempotent
(:class:`services.api.games.commands.FixedIds`): a game a dead process did not create is made by the next read
of one of its entrants.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from services.api.events.arena import ArenaRules, Entrant, outcomes, pair_wave, record_game, standing_score
from services.api.events.arena_docs import ArenaGame, Entry, seating
from services.api.events.model import Event
from services.api.games import commands
from services.api.games.commands import Collaborators, FixedIds
from services.api.games.quotas import NO_QUOTAS
from services.api.games.record import GameRecord, PlayerRef
from services.api.games.seat_tokens import new_game_id
from services.api.problems import ApiError
from services.api.store.arena_rooms import ArenaBatch, ArenaRooms
from services.api.store.protocol import now_ms

RETRIES = 8
GAMES_LOOKED_AT = 32  # the longest-running games an event's read looks at: bounded work, and none is forgotten
GAMES_MADE_PER_READ = 32  # a wave's games one read makes (~2 ms each): the rest are made by their entrants' reads
PRESETS = {"partners": "partnership", "solo": "individual"}  # the game each seating plays
RatingOf = Callable[[PlayerRef, str], int]  # a player's rating on a board (partnership | individual) at entry


def arena_rules(event: Event) -> ArenaRules:
    return ArenaRules(format=event.settings.seating)  # type: ignore[arg-type]


def check_format(event: Event, wanted: str) -> None:
    if event.settings.format != wanted:
        where = "players join it one by one (entrants)" if event.settings.format == "arena" else "pairs join it"
        raise ApiError(409, "wrong_event_format", f"This event is {event.settings.format}: {where}.")


def ends_ms(event: Event) -> int | None:
    """When the arena stops pairing (its games in play still count), or None before it starts."""
    started = event.started_ms
    return None if started is None else started + event.settings.minutes * 60_000


class ArenaRoom:
    """One per process: the arenas over ``rooms``, their games made with ``ctx``; ``rating_of`` a player's rating
    at entry."""

    def __init__(
        self,
        ctx: Collaborators,
        rooms: ArenaRooms,
        rating_of: RatingOf,
        clock: Callable[[], int] = now_ms,
    ) -> None:
        self.ctx = ctx
        self.rooms = rooms
        self.rating_of = rating_of
        self.clock = clock

    # ---- reads ---------------------------------------------------------------------------------------------

    def entry(self, event_id: str, player_id: str) -> Entry | None:
        (doc,) = self.rooms.arena_entrants(event_id, [player_id])
        return None if doc is None else Entry.from_doc(doc)

    def rank(self, event_id: str, player_id: str) -> int | None:
        return self.rooms.arena_rank(event_id, player_id)

    def standings(self, event_id: str, start: int, count: int) -> list[tuple[int, Entry]]:
        """``count`` entries from the ``start``-th, each with its place (0: the first; tied entrants share the
        place of the first of them, and the next place skips as many: 0, 1, 1, 3)."""
        page = self.rooms.arena_standings(event_id, start, count)
        docs = self.rooms.arena_entrants(event_id, [i for i, _ in page])
        places, place, last = [], 0, None
        for n, (_, score) in enumerate(page):
            if score != last:
                place = self.rooms.arena_above(event_id, score) if n == 0 and start else start + n
            places.append(place)
            last = score
        return [(places[n], Entry.from_doc(doc)) for n, doc in enumerate(docs) if doc is not None]

    def counts(self, event_id: str) -> dict[str, int]:
        return {
            "entrants": self.rooms.arena_size(event_id),
            "waiting": self.rooms.arena_waiting(event_id),
            "games_in_play": self.rooms.arena_games_count(event_id),
        }

    # ---- changes -------------------------------------------------------------------------------------------

    def _write(self, event_id: str, change: Callable[[], ArenaBatch | None]) -> bool:
        """``change`` (reading the arena as stored now) written over the version read before it; False if it had
        nothing to write."""
        for _ in range(RETRIES):
            read_at = self.rooms.arena_version(event_id)
            batch = change()
            if batch is None:
                return False
            if self.rooms.write_arena(event_id, read_at, batch):
                return True
        raise ApiError(503, "unavailable", "The arena changed too often to write; retry.")

    def join(self, event: Event, player: PlayerRef) -> Entry:
        """The player in the arena and the pool (back in it, standing kept, after a withdrawal)."""
        check_format(event, "arena")
        if event.status == "finished":
            raise ApiError(409, "event_finished", "The arena is over.")
        if player.kind == "bot" and not event.settings.bots_allowed:
            raise ApiError(403, "bots_not_allowed", "This event admits people only.")
        rules = arena_rules(event)

        def join() -> ArenaBatch | None:
            found = self.entry(event.event_id, player.id)
            if found is not None and not found.withdrawn:
                return None  # in already (a repeated request)
            if found is None and self.rooms.arena_size(event.event_id) >= event.settings.max_players:
                raise ApiError(409, "event_full", "The arena has all the players it takes.")
            board = PRESETS[rules.format]
            entry = (
                replace(found, withdrawn=False)
                if found
                else Entry(Entrant(player.id, self.rating_of(player, board)), player.name, player.kind)
            )
            batch = ArenaBatch(
                entrants={player.id: entry.to_doc()}, standings={player.id: standing_score(entry.standing)}
            )
            if entry.game_id is None:
                batch.pool_add[player.id] = self.clock()
            return batch

        self._write(event.event_id, join)
        entry = self.entry(event.event_id, player.id)
        assert entry is not None
        return entry

    def withdraw(self, event: Event, player_id: str) -> Entry:
        """Out of the pool, standing kept; a game in play plays on and is scored."""
        check_format(event, "arena")

        def withdraw() -> ArenaBatch | None:
            found = self.entry(event.event_id, player_id)
            if found is None:
                raise ApiError(404, "entrant_not_found", "You are not in this arena.")
            if found.withdrawn:
                return None
            return ArenaBatch(entrants={player_id: replace(found, withdrawn=True).to_doc()}, pool_remove=[player_id])

        self._write(event.event_id, withdraw)
        entry = self.entry(event.event_id, player_id)
        assert entry is not None
        return entry

    def advance(self, event: Event, player_id: str | None = None) -> bool:
        """The arena as its games have it now: an entrant's read looks at its own game, any other read (the event,
        the standings, the event's stream) at the longest-running ones — each scored if it has finished, made if a
        wave wrote it and no game was made yet — then, while the arena runs, the pool is paired.  A player's poll
        for its next game costs one game's read; the games nobody polls are swept by the event's reads.  True when
        no game is in play any more (a finished arena's end)."""
        event_id = event.event_id
        if player_id is None:
            looked = dict(self.rooms.arena_games(event_id, GAMES_LOOKED_AT))
        else:
            mine = self.entry(event_id, player_id)
            doc = self.rooms.arena_game(event_id, mine.game_id) if mine and mine.game_id else None
            looked = {} if mine is None or mine.game_id is None or doc is None else {mine.game_id: doc}
        rules = arena_rules(event)
        for game_id, doc in looked.items():
            game = ArenaGame.from_doc(game_id, doc)
            record = self.ctx.store.load(game_id)
            if record is None:
                self._make_game(event, game)
            elif record.finished:
                self.score_game(event, rules, game, record)
        ends = ends_ms(event)
        if ends is not None and self.clock() < ends:
            self._wave(event, rules, player_id)
        return self.rooms.arena_games_count(event_id) == 0

    # ---- the steps -----------------------------------------------------------------------------------------

    def score_game(self, event: Event, rules: ArenaRules, game: ArenaGame, record: GameRecord) -> None:
        """A finished game's entrants scored, out of it, and back in the pool (unless withdrawn or the arena is
        over); once: the game leaves the arena's games in the same write."""
        event_id = event.event_id
        results = outcomes(record.state.scores)  # by side: partners' side 0 is seats 0 and 2, solo's the seats

        def score() -> ArenaBatch | None:
            if self.rooms.arena_game(event_id, game.game_id) is None:
                return None  # scored already
            entries = {
                e.standing.id: e
                for e in map(Entry.from_doc, filter(None, self.rooms.arena_entrants(event_id, list(game.seats))))
            }
            after = record_game(rules, game.table, results, {i: e.standing for i, e in entries.items()})
            ends = ends_ms(event)
            batch = ArenaBatch(games_remove=[game.game_id])
            for entrant_id, standing in after.items():
                entry = replace(entries[entrant_id], standing=standing, game_id=None, seat=None)
                batch.entrants[entrant_id] = entry.to_doc()
                batch.standings[entrant_id] = standing_score(standing)
                if not entry.withdrawn and ends is not None and self.clock() < ends:
                    batch.pool_add[entrant_id] = self.clock()
            return batch

        self._write(event_id, score)

    def _wave(self, event: Event, rules: ArenaRules, reader: str | None = None) -> None:
        """The pool paired into games, written (the seated out of the pool), then the reader's game and others made,
        :data:`GAMES_MADE_PER_READ` at most: a big wave (an arena's start) is made by many reads, each entrant's
        own read making its game if nobody has, and the event's reads the ones they look at."""
        event_id = event.event_id
        made: list[ArenaGame] = []

        def wave() -> ArenaBatch | None:
            made.clear()
            waiting = self.rooms.arena_pool(event_id)
            if len(waiting) < rules.seats:
                return None
            entries = {
                e.standing.id: e
                for e in map(Entry.from_doc, filter(None, self.rooms.arena_entrants(event_id, waiting)))
            }
            paired = pair_wave(rules, [i for i in waiting if i in entries], {i: e.standing for i, e in entries.items()})
            if not paired.tables:
                return None
            batch = ArenaBatch()
            for table in paired.tables:
                game = ArenaGame(new_game_id(), table, seating(rules, table), self.clock())
                made.append(game)
                batch.games_add[game.game_id] = game.to_doc()
                for seat, entrant_id in enumerate(game.seats):
                    entry = replace(entries[entrant_id], game_id=game.game_id, seat=seat)
                    batch.entrants[entrant_id] = entry.to_doc()
                    batch.pool_remove.append(entrant_id)
            return batch

        if self._write(event_id, wave):
            made.sort(key=lambda game: reader not in game.seats)  # the reader's own game first
            for game in made[:GAMES_MADE_PER_READ]:
                self._make_game(event, game)

    def _make_game(self, event: Event, game: ArenaGame) -> None:
        """The game, made once (a second call finds it made): seats bound to the entrants' players."""
        docs = self.rooms.arena_entrants(event.event_id, list(game.seats))  # one read for the four
        entries = [Entry.from_doc(doc) if doc else None for doc in docs]
        players = tuple(PlayerRef(e.standing.id, e.name, e.kind) if e else None for e in entries)
        body = creation_body(event, arena_rules(event))
        ctx = replace(self.ctx, quotas=NO_QUOTAS)  # an event's games count against nobody's games in play
        commands.create_game(ctx, body, fixed=FixedIds(game.game_id, (None,) * 4, players))


def creation_body(event: Event, rules: ArenaRules) -> dict[str, Any]:
    """An arena game as a create request: four people's seats (each taken with its player's ``Player-Token``), the
    event's deals and clock, the stand-in level for a seat whose player leaves or times out; rated only when the
    event is, as strangers' games without hints (services.ratings.policy)."""
    s = event.settings
    options = {
        "ai_takeover": s.stand_in_level,
        "hints": False,
        "public": False,
        "matched": s.rated,
        "clock": s.clock,
    }
    rules_body = {"preset": PRESETS[rules.format], "deals": s.deals_per_round}
    return {"rules": rules_body, "seats": [{"type": "human"}] * 4, "options": options}
