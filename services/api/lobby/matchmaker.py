"""Quick match: ``POST /v1/matches`` (:meth:`Matchmaker.submit`), its long poll (:meth:`Matchmaker.look`), its
cancel (:meth:`Matchmaker.cancel`) and each process's sweep of the buckets due (:meth:`Matchmaker.sweep_once`).

Every state change is one script on the request's bucket (:mod:`services.api.store.matches`), so any number of
API processes serve the same requests.  A request is added to its bucket after its bucket is marked due (at
once if a group formed: its lease's end), so a process that dies at any point leaves work that a sweep finds:
a waiting request is seated at its deadline, a group whose game was not created within its lease is created
by the sweep that takes it next (same game id, same seat tokens).  Quotas: a client (its address, and the seat
token it sends, hashed) has at most ``MAX_MATCHES_PER_ADDRESS`` / ``MAX_MATCHES_PER_TOKEN`` requests at once
(``429 too_many_matches``), and a request holds one place among its client's games in play
(``MAX_GAMES_IN_PLAY``, ``429 too_many_games``) until its game takes that place over.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from services.api.games.commands import Collaborators
from services.api.games.quotas import address_id, creator_ids, refusal
from services.api.games.record import PlayerRef
from services.api.games.seat_tokens import hash_token, new_game_id, new_token
from services.api.live.wakeups import Wakeups
from services.api.lobby import match_requests as requests
from services.api.lobby.match_games import (
    NO_BLOCKS,
    PairingBlocks,
    release_request,
    request_hold,
    seat_group,
    slot_holders,
)
from services.api.metrics import MATCH_REQUESTS, QUOTA_REFUSALS
from services.api.problems import ApiError
from services.api.store.fair_share import GAMES
from services.api.store.matches import (
    CANCELLED,
    FORMING,
    SEATED,
    WAITING,
    Formed,
    MatchLook,
    MatchRequest,
    MatchTimes,
    match_channel,
)

log = logging.getLogger(__name__)
LOOK_EVERY_SECONDS = 10.0  # a long poll reads its request at least this often (it counts as asked about)
SWEEP_BATCH = 100
RETRY_AFTER_SECONDS = 20


@dataclass(frozen=True, slots=True)
class MatchSettings:
    """Quick match's settings (docs/api.md, "Configuration")."""

    lease_seconds: float = 5.0  # MATCH_FORM_LEASE_SECONDS: a group's creation is taken over after this
    idle_seconds: float = 30.0  # MATCH_IDLE_SECONDS: a request nobody asks about for this long expires
    keep_seconds: float = 600.0  # MATCH_KEEP_SECONDS: an ended request is readable this long
    per_address: int = 0  # MAX_MATCHES_PER_ADDRESS (0: no cap)
    per_token: int = 0  # MAX_MATCHES_PER_TOKEN (0: no cap)


@dataclass
class Matchmaker:
    """One per API process (``app.extensions["spades.matchmaker"]``)."""

    ctx: Collaborators
    settings: MatchSettings = field(default_factory=MatchSettings)
    wakeups: Wakeups | None = None
    clock: Callable[[], float] = field(default=time.time)
    blocks: PairingBlocks = NO_BLOCKS  # a blocked pair is never seated together

    @property
    def store(self) -> Any:
        return self.ctx.store

    def times(self) -> MatchTimes:
        s = self.settings
        now = int(self.clock() * 1000)
        return MatchTimes(now, int(s.lease_seconds * 1000), int(s.idle_seconds * 1000), int(s.keep_seconds * 1000))

    # ---- a request ------------------------------------------------------------------

    def submit(
        self, body: dict[str, Any], address: str | None, token: str | None, player: PlayerRef | None = None
    ) -> dict[str, Any]:
        """A new request (``body``: the ``MatchRequest`` schema, loaded); the ``202`` body.  The seat it gets is
        bound to ``player`` (the request's player token), if any, and never shares a table with a player it blocked
        or who blocked it (the request carries whom its player blocked: :mod:`services.api.store.match_groups`)."""
        spec = requests.bucket_spec(requests.resolved_rules(body["rules"]), body["clock"])
        bucket = requests.bucket_of(spec)
        match_id, secret = requests.new_match_id(bucket), new_token()
        times = self.times()
        deadline = times.now_ms + int(body["max_wait_seconds"]) * 1000
        holders = self._take_quotas(match_id, address, token, deadline)
        request = MatchRequest(
            match_id,
            WAITING,
            hash_token(secret),
            hash_token(requests.seat_token_of(secret)),
            body["fill_level"],
            times.now_ms,
            deadline,
            times.now_ms,
            holders,
            player=None if player is None else (player.id, player.name, player.kind),
            client=address_id(address),
            avoid=() if player is None else tuple(sorted(self.blocks.blocked_by(player.id))),
            credential=None if player is None else player.credential,
        )
        try:
            self.store.lower_match_due(bucket, min(deadline, times.now_ms + times.lease_ms))  # before: never lost
            formed = self.store.enqueue_match(bucket, request, spec, times, [new_game_id()])
        except Exception:
            release_request(self.ctx, request)
            raise
        MATCH_REQUESTS.labels("submitted").inc()
        self._seat(bucket, formed, times)
        return {
            "match_id": match_id,
            "secret": secret,
            "status": "waiting",
            "expires_ms": deadline,
            "server_time_ms": times.now_ms,
        }

    def _take_quotas(self, match_id: str, address: str | None, token: str | None, deadline_ms: int) -> tuple[str, ...]:
        """The client's hashed ids, once the request counts among its requests and holds a place among its
        games in play (or the ``429`` it would break, holding nothing then)."""
        quotas, s = self.ctx.quotas, self.settings
        if not (quotas.active or s.per_address or s.per_token):
            return ()
        holders = creator_ids(address, token)  # "a…" for the address, "t…" for the token
        caps = []
        for holder, slot in zip(holders, slot_holders(holders), strict=True):
            cap = s.per_address if holder.startswith("a") else s.per_token
            if cap:
                caps.append((slot, cap))
        until = deadline_ms / 1000 + s.idle_seconds + s.lease_seconds  # a request ends by then, seated or not
        now = self.clock()
        if caps:
            refused = self.store.take_waiting(caps, match_id, now, until)
            if refused is not None:
                limit = next(cap for slot, cap in caps if slot == refused)
                QUOTA_REFUSALS.labels("too_many_matches").inc()
                who = "this address" if refused.startswith("ma") else "this seat token"
                detail = (
                    f"Too many quick-match requests from {who}: at most {limit} may wait at once. Cancel one "
                    "(DELETE /v1/matches/{id}) or wait for it to be seated."
                )
                raise ApiError(429, "too_many_matches", detail, retry_after=RETRY_AFTER_SECONDS, limit=limit)
        if quotas.active:
            limits = (quotas.games_in_play, 0)
            held: list[str] = []
            for holder in holders:
                if self.store.hold_game(holder, request_hold(match_id), False, limits, now, until) is not None:
                    self.store.release_game(held, request_hold(match_id))
                    self.store.release_waiting([slot for slot, _ in caps], match_id)
                    raise refusal(GAMES, quotas)
                held.append(holder)
        return holders

    def look(self, match_id: str, secret: str | None, wait: float = 0.0, found: int | None = None) -> dict[str, Any]:
        """The request as its client sees it, after waiting up to ``wait`` seconds for it to end or, with
        ``found`` (the count the client shows), for the people found for it to be another count.  A client that
        sends no count is not answered for the count's changes: it did not ask to follow them."""
        bucket = requests.bucket_of_id(match_id)
        look = self._read(bucket, match_id)
        requests.check_secret(look.request, secret)
        assert secret is not None
        if wait > 0 and self.wakeups is not None and self._waits(look, found):
            look = self._wait(bucket, look, wait, found)
        return requests.match_view(look, secret, int(self.clock() * 1000))

    @staticmethod
    def _waits(look: MatchLook, found: int | None) -> bool:
        """Whether a long poll has nothing new to tell yet: the request waits, with the client's count if it sent
        one."""
        return look.request.status in (WAITING, FORMING) and found in (None, look.found)

    def _read(self, bucket: str, match_id: str) -> MatchLook:
        look = self.store.look_match(bucket, match_id, self.times())
        if look is None:
            raise ApiError(404, "not_found", "No such match request (it may have ended long ago).")
        return look

    def _wait(self, bucket: str, look: MatchLook, wait: float, found: int | None) -> MatchLook:
        assert self.wakeups is not None
        deadline = self.clock() + wait
        match_id = look.request.match_id
        with self.wakeups.watch(match_channel(bucket), match_id) as waiter:
            look = self._read(bucket, match_id)  # after the subscription: nothing is missed
            while self._waits(look, found) and not self.wakeups.draining:
                remaining = deadline - self.clock()
                if remaining <= 0:
                    break
                waiter.wait(min(remaining, LOOK_EVERY_SECONDS))
                look = self._read(bucket, match_id)
        return look

    def cancel(self, match_id: str, secret: str | None) -> dict[str, Any]:
        """Cancel a waiting request (``DELETE``); a cancelled or expired one answers as it is; ``409
        already_seated`` once it has its seat (or is being given one)."""
        bucket = requests.bucket_of_id(match_id)
        before = self._read(bucket, match_id).request
        requests.check_secret(before, secret)
        assert secret is not None
        request = self.store.cancel_match(bucket, match_id, self.times())
        if request is None:
            raise ApiError(404, "not_found", "No such match request (it may have ended long ago).")
        if request.status in (FORMING, SEATED):
            raise ApiError(
                409, "already_seated", "This request has its seat (or is being given one): leave the game instead."
            )
        if request.status == CANCELLED and before.status == WAITING:
            MATCH_REQUESTS.labels("cancelled").inc()
            release_request(self.ctx, request)
        return requests.match_view(MatchLook(request), secret, int(self.clock() * 1000))

    # ---- groups -------------------------------------------------------------------------

    def _seat(self, bucket: str, formed: Formed, times: MatchTimes) -> None:
        """Create the games of the groups this process now holds.  A failure is left to the group's lease: the
        sweep that takes it next creates it."""
        hold = self.ctx.quotas.hold_seconds if self.ctx.quotas.active else 0
        for group in formed.groups:
            try:
                seat_group(self.ctx, bucket, group, times, hold, self.blocks)
            except Exception:
                log.warning("could not seat a match group", extra={"game_id": group.game_id}, exc_info=True)

    def sweep_once(self) -> int:
        """Look at every bucket due: expire idle requests, form what is due, finish groups whose lease ended.
        Returns how many buckets were looked at."""
        times = self.times()
        due = self.store.due_match_buckets(times.now_ms, SWEEP_BATCH)
        for bucket, touched in due:
            try:
                formed = self.store.form_matches(bucket, times, [new_game_id(), new_game_id()])
                self._seat(bucket, formed, times)
                self.store.raise_match_due(bucket, formed.next_due_ms, touched)
            except Exception:
                log.warning("could not look at a match bucket", extra={"bucket": bucket}, exc_info=True)
        return len(due)
