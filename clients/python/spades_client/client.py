"""The HTTP client: one method per operation of ``openapi.yaml`` (named after its ``operationId``).

Safe retries only: a read, a move (always sent with ``If-Match`` when a version is given and with an
``Idempotency-Key`` made once per move, so a repeat returns the first answer and changes nothing), and a take of
your own seat (a repeat only gives the seat another token) are repeated after a lost connection (no answer, or
one cut mid-body) or a ``429``/``503`` (after ``Retry-After``); a create, claim or leave is repeated only after a
``429``/``503`` refusal, which changed nothing (and the pool, :mod:`spades_client.pool`, never sends one on a
connection the server's keep-alive is closing).  Every other refusal raises the problem's exception
(:mod:`spades_client.errors`).
"""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import requests
import requests.adapters
import requests.utils

from spades_client import moves
from spades_client.errors import ProblemError, Retryable, problem_error
from spades_client.events import EVENT_OPERATIONS, EventMethods
from spades_client.friends import FRIEND_OPERATIONS, FriendMethods
from spades_client.lobby import LOBBY_OPERATIONS, LobbyMethods
from spades_client.models import (
    ClaimedSeat,
    CreatedGame,
    EventPage,
    GameRecordDocument,
    GameView,
    HintResponse,
    LevelsCatalogue,
    RecordPage,
    RecordSummary,
    RejoinCode,
    RoundReview,
    RulesCatalogue,
    TableMessage,
)  # fmt: skip
from spades_client.moves import MOVE_PATHS, Move, as_move
from spades_client.operator import OPERATOR_OPERATIONS, OperatorMethods
from spades_client.passkeys import PASSKEY_OPERATIONS, PasskeyMethods
from spades_client.players import PLAYER_OPERATIONS, PlayerMethods
from spades_client.pool import pooled_session
from spades_client.ratings import RATING_OPERATIONS, RatingMethods
from spades_client.sse import STREAM_READ_TIMEOUT, EventStream

# operationId → (method, path) of every operation this client calls; held equal to openapi.yaml's by
# tests/clients/test_models_match_spec.py.  Moves of kinds the client has no method for go through `move`.
OPERATIONS: dict[str, tuple[str, str]] = {
    "createGame": ("POST", "/v1/games"),
    "getGame": ("GET", "/v1/games/{game_id}"),
    "claimSeat": ("POST", "/v1/games/{game_id}/seats/{seat}/claim"),
    "leaveSeat": ("POST", "/v1/games/{game_id}/seats/{seat}/leave"),
    "createRejoinCode": ("POST", "/v1/games/{game_id}/seats/{seat}/rejoin-code"),
    "revokeRejoinCode": ("DELETE", "/v1/games/{game_id}/seats/{seat}/rejoin-code"),
    "redeemRejoinCode": ("POST", "/v1/games/{game_id}/rejoin"),
    "joinRematch": ("POST", "/v1/games/{game_id}/rematch"),
    "postMessage": ("POST", "/v1/games/{game_id}/messages"),
    "comeBack": ("POST", "/v1/games/{game_id}/seats/{seat}/back"),
    "placeBid": ("POST", "/v1/games/{game_id}/bids"),
    "playCard": ("POST", "/v1/games/{game_id}/plays"),
    "decideBlind": ("POST", "/v1/games/{game_id}/blind"),
    "passCards": ("POST", "/v1/games/{game_id}/passes"),
    "getHint": ("GET", "/v1/games/{game_id}/hint"),
    "getRoundReview": ("GET", "/v1/games/{game_id}/rounds/{round}/review"),
    "getEvents": ("GET", "/v1/games/{game_id}/events"),
    "streamEvents": ("GET", "/v1/games/{game_id}/stream"),
    "getGameRecord": ("GET", "/v1/games/{game_id}/record"),
    "listRecords": ("GET", "/v1/records"),
    "getRules": ("GET", "/v1/rules"),
    "getLevels": ("GET", "/v1/levels"),
    "getOpenApi": ("GET", "/openapi.yaml"),
    "getDocs": ("GET", "/docs"),
    "getHealth": ("GET", "/healthz"),
    "getReadiness": ("GET", "/readyz"),
    "getMetrics": ("GET", "/metrics"),
    **LOBBY_OPERATIONS,  # spades_client.lobby
    **PLAYER_OPERATIONS,  # spades_client.players
    **PASSKEY_OPERATIONS,  # spades_client.passkeys
    **FRIEND_OPERATIONS,  # spades_client.friends
    **RATING_OPERATIONS,  # spades_client.ratings
    **OPERATOR_OPERATIONS,  # spades_client.operator
    **EVENT_OPERATIONS,  # spades_client.events
}
RETRY_STATUSES = frozenset({429, 503})
# No answer, or an answer cut mid-body (its server process died while sending it: ChunkedEncodingError)
LOST_CONNECTION = (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError)


def _record_filters(since: str | None, until: str | None, level: str | None, result: str | None,
                    cursor: str | None) -> dict[str, Any]:  # fmt: skip
    """listRecords' filters that were given (times RFC 3339 with their offset; ``level`` ``human`` or a level)."""
    given = {"since": since, "until": until, "level": level, "result": result, "cursor": cursor}
    return {name: value for name, value in given.items() if value is not None}


def _next_cursor(link: str) -> str | None:
    """The ``cursor`` of the ``rel="next"`` URL in a ``Link`` header; None without one."""
    for target in requests.utils.parse_header_links(link) if link else []:
        if target.get("rel") == "next":
            found = parse_qs(urlsplit(target["url"]).query).get("cursor")
            return found[0] if found else None
    return None


def snake(operation_id: str) -> str:
    """``placeBid`` → ``place_bid``: the method of each operation."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", operation_id).lower().replace("open_api", "openapi")


class SpadesClient(
    LobbyMethods, PlayerMethods, PasskeyMethods, FriendMethods, RatingMethods, OperatorMethods, EventMethods
):
    """The API at ``base_url``, as one seat (``token``) or a spectator (no token); with ``player_token``, as that
    player too (sent as ``Player-Token``: the seats it takes are the player's)."""

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        session: requests.Session | None = None,
        timeout: float = 10.0,
        max_retries: int = 8,
        sleep: Callable[[float], None] = time.sleep,
        player_token: str | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.player_token = player_token
        self.session = session or pooled_session()
        self.timeout = timeout
        self.max_retries = max_retries
        self._sleep = sleep

    def as_seat(self, token: str) -> SpadesClient:
        """The same server and connection pool, acting for the seat of ``token``."""
        return SpadesClient(self.base_url, token, session=self.session, timeout=self.timeout,
                            max_retries=self.max_retries, sleep=self._sleep,
                            player_token=self.player_token)  # fmt: skip

    # -- the operations ---------------------------------------------------------------------------------

    def create_game(
        self,
        rules: dict[str, Any] | None = None,
        seats: list[dict[str, Any]] | None = None,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
    ) -> CreatedGame:
        body: dict[str, Any] = {"rules": rules or {}}
        if seats is not None:
            body["seats"] = seats
        if seed is not None:
            body["seed"] = seed
        if options is not None:
            body["options"] = options
        return CreatedGame.from_dict(self._call("createGame", json=body, resend_after_fault=False).json())

    def get_game(self, game_id: str) -> GameView:
        return GameView.from_dict(self._call("getGame", game_id=game_id).json())

    def claim_seat(self, game_id: str, seat: int) -> ClaimedSeat:
        claimed = ClaimedSeat.from_dict(
            self._call("claimSeat", game_id=game_id, seat=seat, json={}, resend_after_fault=False).json()
        )
        self.token = self.token or claimed.token
        return claimed

    def leave_seat(self, game_id: str, seat: int) -> GameView:
        return GameView.from_dict(
            self._call("leaveSeat", game_id=game_id, seat=seat, json={}, resend_after_fault=False).json()
        )

    def create_rejoin_code(self, game_id: str, seat: int) -> RejoinCode:
        """A new code for this seat (the previous one stops working): redeemed on another device, it gives that
        device a new token for the seat and revokes this client's."""
        return RejoinCode.from_dict(self._call("createRejoinCode", game_id=game_id, seat=seat, json={}).json())

    def revoke_rejoin_code(self, game_id: str, seat: int) -> None:
        self._call("revokeRejoinCode", game_id=game_id, seat=seat)

    def redeem_rejoin_code(self, game_id: str, code: str) -> ClaimedSeat:
        """The code's seat with a new token (this client acts for it from now on); the seat's old token is revoked."""
        claimed = ClaimedSeat.from_dict(
            self._call("redeemRejoinCode", game_id=game_id, json={"code": code}, resend_after_fault=False).json()
        )
        self.token = claimed.token
        return claimed

    def join_rematch(self, game_id: str) -> ClaimedSeat:
        """This seat's place in the rematch of the finished game ``game_id`` (asking first starts it); the answer's
        ``game_id`` is the next game and ``token`` this person's token in it."""
        return ClaimedSeat.from_dict(self._call("joinRematch", game_id=game_id, json={}).json())

    def post_message(self, game_id: str, code: str) -> TableMessage:
        """A quick message (``hello``, ``good_game``, ...: the contract's ``MessageCode``) to the table."""
        return TableMessage.from_dict(
            self._call("postMessage", game_id=game_id, json={"code": code}, resend_after_fault=False).json()
        )

    def come_back(self, game_id: str, seat: int) -> GameView:
        """The seat gone away (two turns timed out) is the person's again; resending it is harmless."""
        return GameView.from_dict(self._call("comeBack", game_id=game_id, seat=seat, json={}).json())

    def place_bid(self, game_id: str, bid: int, version: int | None = None, key: str | None = None) -> GameView:
        return self.move(game_id, Move(MOVE_PATHS["bid"], {"bid": bid}), version, key)

    def play_card(self, game_id: str, card: str, version: int | None = None, key: str | None = None) -> GameView:
        return self.move(game_id, Move(MOVE_PATHS["card"], {"card": card}), version, key)

    def decide_blind(self, game_id: str, bid: int | None = None, version: int | None = None,
                     key: str | None = None) -> GameView:  # fmt: skip
        """The blind decision: bid ``bid`` blind (0 is blind nil), or with ``bid`` None look at the hand."""
        return self.move(game_id, moves.look() if bid is None else moves.blind_bid(bid), version, key)

    def pass_cards(
        self, game_id: str, cards: list[str], version: int | None = None, key: str | None = None
    ) -> GameView:
        """Give ``cards`` (the view's ``pass_count``) to the partner in the nil exchange."""
        return self.move(game_id, moves.pass_cards(cards), version, key)

    def move(self, game_id: str, move: Any, version: int | None = None, key: str | None = None) -> GameView:
        """Any move (see :func:`spades_client.moves.as_move`), applied only at ``version`` if given, with one
        ``Idempotency-Key`` for all its attempts."""
        move = as_move(move)
        headers = {"Idempotency-Key": key or uuid.uuid4().hex}
        if version is not None:
            headers["If-Match"] = f'"{version}"'
        url = f"{self.base_url}/v1/games/{game_id}/{move.path}"
        return GameView.from_dict(self._send("POST", url, json=move.body, headers=headers).json())

    def get_hint(self, game_id: str) -> HintResponse:
        return HintResponse.from_dict(self._call("getHint", game_id=game_id).json())

    def get_round_review(self, game_id: str, round: int) -> RoundReview:
        return RoundReview.from_dict(self._call("getRoundReview", game_id=game_id, round=round).json())

    def get_events(self, game_id: str, after: int = 0, wait: int = 0) -> EventPage:
        response = self._call("getEvents", game_id=game_id, params={"after": after, "wait": wait},
                              timeout=self.timeout + wait)  # fmt: skip
        return EventPage.from_dict(response.json())

    def stream_events(self, game_id: str, after: int = 0, max_failures: int = 10) -> EventStream:
        """An iterator over the game's events after ``after``, reconnecting with ``Last-Event-ID``."""

        def open_connection(last_seq: int) -> requests.Response | None:
            headers = {"Accept": "text/event-stream", "Last-Event-ID": str(last_seq)}
            method, path = OPERATIONS["streamEvents"]
            response = self.session.request(
                method, self.base_url + path.format(game_id=game_id), headers={**self._auth(), **headers},
                stream=True, timeout=(self.timeout, STREAM_READ_TIMEOUT),
            )  # fmt: skip
            if response.status_code == 204:
                response.close()
                return None
            if response.status_code != 200:
                raise self._problem(response)
            return response

        return EventStream(open_connection, after, max_failures, self._sleep)

    def get_game_record(self, game_id: str) -> GameRecordDocument:
        """A finished (or abandoned and recorded) game's record; ``409 game_in_play`` while it is played."""
        return GameRecordDocument.from_dict(self._call("getGameRecord", game_id=game_id).json())

    def list_records(
        self,
        since: str | None = None,
        until: str | None = None,
        level: str | None = None,
        result: str | None = None,
        cursor: str | None = None,
        limit: int | None = None,
    ) -> RecordPage:
        """One page of record summaries, newest end first; pass ``next_cursor`` back as ``cursor``."""
        params = _record_filters(since, until, level, result, cursor)
        if limit is not None:
            params["limit"] = limit
        return RecordPage.from_dict(self._call("listRecords", params=params).json())

    def iter_record_summaries(
        self,
        since: str | None = None,
        until: str | None = None,
        level: str | None = None,
        result: str | None = None,
        limit: int | None = None,
    ) -> Iterator[RecordSummary]:
        """Every matching summary, page after page (one page held at a time)."""
        cursor: str | None = None
        while True:
            page = self.list_records(since, until, level, result, cursor, limit)
            yield from page.records
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    def export_records(
        self,
        since: str | None = None,
        until: str | None = None,
        level: str | None = None,
        result: str | None = None,
        cursor: str | None = None,
    ) -> Iterator[GameRecordDocument]:
        """Every matching record, whole, read line by line from the NDJSON export (``format=ndjson``): memory
        stays one record deep however many there are.  Close the iterator to drop the connection early.
        An export the server cut short at its most records per request (a ``Link: <…>; rel="next"`` header) is
        followed by the next one, from the cursor the link carries, until the last; each one counts against
        the server's export rate limit.  An export is one response, so a cut connection raises rather than
        resending it."""
        params = {**_record_filters(since, until, level, result, cursor), "format": "ndjson"}
        while True:
            response = self._call("listRecords", params=params, headers={"Accept": "application/x-ndjson"},
                                  stream=True, timeout=(self.timeout, STREAM_READ_TIMEOUT))  # fmt: skip
            with response:
                for line in response.iter_lines():
                    if line.strip():
                        yield GameRecordDocument.from_dict(json.loads(line))
                following = _next_cursor(response.headers.get("Link", ""))
            if following is None:
                return
            params = {**params, "cursor": following}

    def get_rules(self) -> RulesCatalogue:
        return RulesCatalogue.from_dict(self._call("getRules").json())

    def get_levels(self) -> LevelsCatalogue:
        return LevelsCatalogue.from_dict(self._call("getLevels").json())

    def get_openapi(self) -> str:
        return self._call("getOpenApi").text

    def get_docs(self) -> str:
        return self._call("getDocs").text

    def get_health(self) -> dict[str, Any]:
        return self._call("getHealth").json()

    def get_readiness(self) -> dict[str, Any]:
        return self._call("getReadiness").json()

    def get_metrics(self) -> str:
        return self._call("getMetrics").text

    # -- plumbing ---------------------------------------------------------------------------------------

    def _auth(self) -> dict[str, str]:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        if self.player_token:
            headers["Player-Token"] = self.player_token
        return headers

    def _call(self, operation_id: str, *, resend_after_fault: bool = True, **kwargs: Any) -> requests.Response:
        method, path = OPERATIONS[operation_id]
        names = re.findall(r"{(\w+)}", path)
        url = self.base_url + path.format(**{name: kwargs.pop(name) for name in names})
        return self._send(method, url, resend_after_fault=resend_after_fault or method == "GET", **kwargs)

    def _send(self, method: str, url: str, *, resend_after_fault: bool = True, **kwargs: Any) -> requests.Response:
        """One request, repeated (at most ``max_retries`` times) only where a repeat is safe."""
        kwargs.setdefault("timeout", self.timeout)
        kwargs["headers"] = {**self._auth(), **kwargs.get("headers", {})}
        for attempt in range(self.max_retries + 1):
            last = attempt == self.max_retries
            try:
                response = self.session.request(method, url, **kwargs)
            except LOST_CONNECTION:
                if last or not resend_after_fault:
                    raise
                self._sleep(min(8.0, 0.25 * 2**attempt))
                continue
            if response.ok or response.status_code in (204, 308):
                return response
            error = self._problem(response)
            if last or not isinstance(error, Retryable) or response.status_code not in RETRY_STATUSES:
                raise error
            self._sleep(min(60.0, error.retry_after if error.retry_after is not None else 0.25 * 2**attempt))
        raise AssertionError("unreachable")

    @staticmethod
    def _problem(response: requests.Response) -> ProblemError:
        retry_after = response.headers.get("Retry-After")
        seconds = float(retry_after) if retry_after and retry_after.replace(".", "", 1).isdigit() else None
        try:
            body = response.json()
        except ValueError:
            body = response.text
        return problem_error(response.status_code, body, seconds)
