"""Problems (``application/problem+json``) as exceptions: one class per family of ``code``, so a caller can
``except NotYourTurn`` instead of comparing strings; every instance carries the typed :class:`Problem`."""

from __future__ import annotations

from typing import Any

from spades_client.models import Problem


class ProblemError(Exception):
    """A request the service refused; ``problem.code`` is its stable reason."""

    def __init__(self, problem: Problem, retry_after: float | None = None) -> None:
        super().__init__(f"{problem.status} {problem.code}: {problem.detail}")
        self.problem = problem
        self.retry_after = retry_after

    @property
    def code(self) -> str:
        return self.problem.code

    @property
    def status(self) -> int:
        return self.problem.status


class InvalidRequest(ProblemError):
    """400: a malformed body, header or parameter (``problem.errors`` names each field)."""


class Unauthorized(ProblemError):
    """401/403: a missing or wrong seat token, or another seat's; a player token of no live player, a revoked
        session; a seat whose player deleted themselves; a link or recovery code that is no code; a passkey's answer that
    does not hold."""


class NotFound(ProblemError):
    """404: no such game (or it expired), seat or round."""


class Conflict(ProblemError):
    """409: the game is not in a state for this request (not your turn, seat taken, waiting, over)."""


class NotYourTurn(Conflict):
    """409 ``not_your_turn``: another seat is to move — usually a race with the game moving on: re-read."""


class VersionConflict(ProblemError):
    """412 ``version_conflict``: the game moved past the version sent in ``If-Match`` — a race: re-read."""


class IllegalMove(ProblemError):
    """422 ``illegal_move``: the rules refuse the move (``problem.reason`` names the rule)."""


class TooFarBehind(ProblemError):
    """410 ``too_far_behind``: the log no longer holds the resume point; reload the view, resume from its
    ``last_seq``."""


class InvalidRules(InvalidRequest):
    """422 ``invalid_rules``: a combination of house rules that makes no sense (``problem.errors`` names both
    options)."""


class GameInPlay(Conflict):
    """409 ``game_in_play``: the game has no record yet (it is still being played); ask again once it ends."""


class SeatNotYours(Unauthorized):
    """403 ``seat_not_yours``: the seat is not held for this client's player (another person's, or taken without a
    player), so its ``Player-Token`` cannot take it."""


class Gone(ProblemError):
    """410 ``link_code_used``, ``link_code_expired``, ``recovery_code_used``, ``passkey_challenge_used``,
    ``passkey_challenge_expired``: the code (or the passkey's challenge) was used already or lived its time; ask for a
    new one."""


class Retryable(ProblemError):
    """429/503: try again after ``retry_after`` seconds (the client does, a bounded number of times)."""


class SeededGamesDisabled(ProblemError):
    """403 ``seeded_games_disabled``: this server has no match mode (``ALLOW_SEEDED_GAMES`` off)."""


class PairingBanned(Conflict):
    """409 ``pairing_banned``: the player left, or lost to the clock, too many rated games lately; no quick match
    nor public table until ``problem.ends_at`` (``retry_after``: the seconds left)."""


# Every code of the contract's Problem.code enum, and the exception it raises.
PROBLEM_CLASSES: dict[str, type[ProblemError]] = {
    "invalid_request": InvalidRequest,
    "unauthorized": Unauthorized,
    "forbidden": Unauthorized,
    "not_found": NotFound,
    "method_not_allowed": InvalidRequest,
    "not_your_turn": NotYourTurn,
    "seat_taken": Conflict,
    "waiting_for_players": Conflict,
    "game_over": Conflict,
    "idempotency_key_reused": IllegalMove,
    "version_conflict": VersionConflict,
    "payload_too_large": InvalidRequest,
    "request_timeout": Retryable,  # 408: the body was not received in time (the connection stalled)
    "unsupported_media_type": InvalidRequest,
    "illegal_move": IllegalMove,
    "unavailable": Retryable,
    "not_replicated": Retryable,
    "rate_limited": Retryable,
    "not_ready": Retryable,
    "hints_disabled": Unauthorized,
    "hint_unavailable": Retryable,
    "seeded_games_disabled": SeededGamesDisabled,
    "too_far_behind": TooFarBehind,
    "create_rate_limited": Retryable,
    "export_rate_limited": Retryable,
    "too_many_games": Retryable,
    "too_many_computer_games": Retryable,
    "too_many_waiting": Retryable,
    "too_many_matches": Retryable,
    "already_seated": Conflict,  # cancelling a quick-match request that has its seat
    "round_not_finished": Conflict,
    "review_unavailable": Retryable,
    "game_in_play": GameInPlay,
    "records_unavailable": Retryable,
    "invalid_rules": InvalidRules,
    "seat_reserved": Conflict,
    "seat_kept": Conflict,
    "rated_game": Conflict,
    "invalid_rejoin_code": Unauthorized,
    "rejoin_rate_limited": Retryable,
    "too_many_messages": Retryable,
    "player_token_invalid": Unauthorized,  # 401: the Player-Token names no live player
    "player_not_found": NotFound,
    "name_taken": Conflict,
    "player_seated": Conflict,  # the player holds another seat of that game
    "player_create_rate_limited": Retryable,
    "player_deleted": Unauthorized,  # 403: the seat's player deleted themselves, and is never seated again
    "credential_revoked": Unauthorized,  # 403: the seat was taken through a session revoked (or a token rotated) since
    "pairing_banned": PairingBanned,
    "rated_play_closed": Conflict,  # an operator confirmed a fair-play flag: no quick match nor public table
    "operator_only": Unauthorized,  # 403: the operator API without the server's operator token
    "flag_not_found": NotFound,
    "flag_decided": Conflict,  # the fair-play flag was decided already
    "session_revoked": Unauthorized,  # 401: this device's session was revoked; sign it in again
    "session_not_found": NotFound,
    "link_code_invalid": Unauthorized,  # 403: no device made that link code
    "link_code_expired": Gone,
    "link_code_used": Gone,
    "link_code_rate_limited": Retryable,
    "recovery_code_invalid": Unauthorized,  # 403: no player has that recovery code
    "recovery_code_used": Gone,
    "sign_in_rate_limited": Retryable,
    "passkey_challenge_invalid": Unauthorized,  # 403: the server gave out no such challenge
    "passkey_challenge_used": Gone,  # a replay: ask for new options
    "passkey_challenge_expired": Gone,
    "passkey_origin_invalid": Unauthorized,  # 403: the answer came from another site's page
    "passkey_unknown": Unauthorized,  # 403: a passkey the server does not know (deleted?)
    "passkey_signature_invalid": Unauthorized,
    "passkey_counter_stale": Unauthorized,  # 403: its signature counter did not grow (a copied authenticator?)
    "passkey_invalid": Unauthorized,  # 403: any other fault of the authenticator's answer
    "passkey_registered": Conflict,
    "passkey_not_found": NotFound,
    "too_many_passkeys": Conflict,
    "passkey_options_rate_limited": Retryable,
    "not_yourself": Conflict,  # following, blocking or inviting your own player
    "blocked": Unauthorized,  # 403: one of the pair blocked the other (a follow, an invite)
    "blocked_at_table": Unauthorized,  # 403: a claim at a table where a player of a blocked pair sits
    "following_limit": Conflict,
    "block_limit": Conflict,
    "notice_not_found": NotFound,
    "seat_not_yours": SeatNotYours,  # 403: a seat not your player's (a take, an invite for it)
    "not_following": Unauthorized,  # 403: an invite to a player you do not follow and who does not follow you
    "no_open_seat": Conflict,
    "invite_rate_limited": Retryable,
    "event_not_found": NotFound,
    "event_full": Conflict,
    "event_not_open": Conflict,  # the event has started: its pairs are fixed
    "already_in_event": Conflict,
    "not_event_creator": Unauthorized,  # 403: only the creator starts an event
    "too_few_pairs": Conflict,
    "pair_not_found": NotFound,
    "not_invited": Unauthorized,  # 403: the pair invited another player
    "not_in_pair": Unauthorized,  # 403
    "bots_not_allowed": Unauthorized,  # 403: the event admits people only
    "wrong_event_format": Conflict,  # pairs join a duplicate event, players one by one an arena
    "entrant_not_found": NotFound,
    "not_entrant": Unauthorized,  # 403: only the player withdraws itself from an arena
    "event_finished": Conflict,
    "event_format_unsupported": InvalidRequest,  # 422
    "event_rated_needs_clock": InvalidRequest,  # 422
    "arena_needs_clock": InvalidRequest,  # 422
    "partner_invalid": Conflict,
    "board_not_found": NotFound,
}


def problem_error(status: int, body: Any, retry_after: float | None = None) -> ProblemError:
    """The exception for a refused response: its problem+json body, or a stand-in for a body that is not one."""
    if isinstance(body, dict) and "code" in body:
        problem = Problem.from_dict(body)
    else:
        problem = Problem(type="about:blank", title="HTTP error", status=status, detail=str(body)[:300], code="")
    cls = PROBLEM_CLASSES.get(problem.code, Retryable if status in (429, 503) else ProblemError)
    return cls(problem, retry_after)
