"""The players' operations: make a player, read one, and your own (``/v1/players/me``: read, rename, a new
token, delete); your devices (sessions: list, revoke one, sign out everywhere else; a link code and recovery codes
that sign a device in, and the sign-in, with one of them or a passkey: :mod:`spades_client.passkeys`); your games in play,
and your seat taken to this device.

:class:`PlayerMethods` is part of :class:`spades_client.client.SpadesClient` (its methods use the client's
plumbing).  A client made with ``player_token`` sends it as the ``Player-Token`` header on every request, so
the seats it creates (with ``player: True``), claims, matches or rematches are its player's (a session's credential
from ``sign_in`` goes in the same header); the models are the contract's ``Player``, ``PlayerRating``,
``PlayerStats``, ``CreatedPlayer`` and the sessions' ``Session``, ``SessionList``, ``LinkCode``, ``RecoveryCodes``
and ``CreatedSession``, held to it by
``tests/clients/test_models_match_spec.py`` like every other model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from spades_client.models import Body, ClaimedSeat

if TYPE_CHECKING:
    from spades_client.client import SpadesClient

PLAYER_OPERATIONS: dict[str, tuple[str, str]] = {
    "createPlayer": ("POST", "/v1/players"),
    "getPlayer": ("GET", "/v1/players/{player_id}"),
    "getMyPlayer": ("GET", "/v1/players/me"),
    "renameMyPlayer": ("PATCH", "/v1/players/me"),
    "deleteMyPlayer": ("DELETE", "/v1/players/me"),
    "rotatePlayerToken": ("POST", "/v1/players/me/token"),
    "listMySessions": ("GET", "/v1/players/me/sessions"),
    "revokeMySessions": ("DELETE", "/v1/players/me/sessions"),
    "revokeMySession": ("DELETE", "/v1/players/me/sessions/{session_id}"),
    "createLinkCode": ("POST", "/v1/players/me/link-codes"),
    "createRecoveryCodes": ("POST", "/v1/players/me/recovery-codes"),
    "signIn": ("POST", "/v1/sessions"),
    "listMyLiveGames": ("GET", "/v1/players/me/live-games"),
    "takeMySeat": ("POST", "/v1/games/{game_id}/seats/{seat}/take"),
}


@dataclass
class PlayerRating(Body):
    """A rating on one board: ``rating`` is what is shown (1500 + 40 × (mu − 3 sigma)); a ``provisional`` one
    (sigma above 4.0 or under 30 rated games) is on no leaderboard, so it has no ``rank``."""

    SCHEMA: ClassVar[str] = "PlayerRating"
    rating: int
    mu: float
    sigma: float
    games: int
    provisional: bool
    rank: int | None = None


@dataclass
class PlayerStats(Body):
    SCHEMA: ClassVar[str] = "PlayerStats"
    games: int
    wins: int
    rounds: int
    contracts_bid: int
    contracts_made: int
    sets: int
    nils_bid: int
    nils_made: int
    bags: int
    bags_per_round: float


@dataclass
class PlayerAccuracy(Body):
    """The player's moves in its scored rated games against expert's best from its seat (None: none scored)."""

    SCHEMA: ClassVar[str] = "PlayerAccuracy"
    games: int
    decisions: int
    accurate_share: float | None
    mean_given_away: float | None
    true_cards: int
    true_agreement: float | None


@dataclass
class Player(Body):
    """A player: ``ratings`` maps a board (``partnership``, ``individual``) to its :class:`PlayerRating`."""

    SCHEMA: ClassVar[str] = "Player"
    id: str
    kind: str
    name: str
    created_at: str
    ratings: dict[str, Any]
    stats: PlayerStats
    accuracy: PlayerAccuracy
    pairing_ban: dict[str, Any] | None = None  # your own player only: {"ends_at": …} while banned from pairing
    rating_hold: str | None = None  # "review" ("hidden" to others) or "closed": the fair-play watch holds the ratings

    def rating(self, board: str) -> PlayerRating | None:
        found = self.ratings.get(board)
        return None if found is None else PlayerRating.from_dict(found)


@dataclass
class CreatedPlayer(Body):
    """A player and its token (shown only in this answer)."""

    SCHEMA: ClassVar[str] = "CreatedPlayer"
    player: Player
    token: str


@dataclass
class Session(Body):
    """One signed-in device of your player (never its credential); ``current``: the one asking."""

    SCHEMA: ClassVar[str] = "Session"
    id: str
    name: str
    via: str
    created_at: str
    last_seen_at: str
    current: bool


@dataclass
class SessionList(Body):
    SCHEMA: ClassVar[str] = "SessionList"
    sessions: list[Session]


@dataclass
class LinkCode(Body):
    """A code (``XXXX-XXXX``) and its link that sign one other device in, once, until ``expires_at``; ``qr_svg``: an
    SVG document of the link's QR code (as an absolute address), for a phone's camera."""

    SCHEMA: ClassVar[str] = "LinkCode"
    code: str
    link: str
    qr_svg: str
    expires_at: str


@dataclass
class RecoveryCodes(Body):
    """A fresh set of recovery codes (shown only in this answer), each signing a device in once."""

    SCHEMA: ClassVar[str] = "RecoveryCodes"
    codes: list[str]
    created_at: str


@dataclass
class CreatedSession(Body):
    """A new session, its credential (``token``, shown only here) and its player."""

    SCHEMA: ClassVar[str] = "CreatedSession"
    session: Session
    token: str
    player: Player


@dataclass
class LiveGame(Body):
    """A game in play where a seat is held for your player: ``seat`` (the computer plays it since you left it when
    ``stand_in``), ``turn`` (None while a seat is open), ``seats`` as views show them (who plays each)."""

    SCHEMA: ClassVar[str] = "LiveGame"
    game_id: str
    seat: int
    stand_in: bool
    phase: str
    round: int
    turn: int | None
    scores: list[int]
    seats: list[dict[str, Any]]
    changed_ms: int


@dataclass
class LiveGameList(Body):
    SCHEMA: ClassVar[str] = "LiveGameList"
    games: list[LiveGame]


PLAYER_MODELS: tuple[type[Body], ...] = (
    PlayerRating,
    PlayerStats,
    PlayerAccuracy,
    Player,
    CreatedPlayer,
    Session,
    SessionList,
    LinkCode,
    RecoveryCodes,
    CreatedSession,
    LiveGame,
    LiveGameList,
)


class PlayerMethods:
    """The players' operations (mixed into :class:`spades_client.client.SpadesClient`)."""

    def create_player(self: SpadesClient, name: str, kind: str = "person") -> CreatedPlayer:
        """A new player (``kind`` ``person`` or ``bot``); this client sends its token from now on."""
        created = CreatedPlayer.from_dict(
            self._call("createPlayer", json={"name": name, "kind": kind}, resend_after_fault=False).json()
        )
        self.player_token = created.token
        return created

    def get_player(self: SpadesClient, player_id: str) -> Player:
        return Player.from_dict(self._call("getPlayer", player_id=player_id).json())

    def get_my_player(self: SpadesClient) -> Player:
        return Player.from_dict(self._call("getMyPlayer").json())

    def rename_my_player(self: SpadesClient, name: str) -> Player:
        return Player.from_dict(self._call("renameMyPlayer", json={"name": name}).json())

    def rotate_player_token(self: SpadesClient) -> CreatedPlayer:
        """A new token in place of this client's (which stops working); this client sends the new one."""
        rotated = CreatedPlayer.from_dict(self._call("rotatePlayerToken", json={}, resend_after_fault=False).json())
        self.player_token = rotated.token
        return rotated

    def delete_my_player(self: SpadesClient) -> None:
        """Delete this client's player (its games stay, anonymised); the client sends no player token after."""
        self._call("deleteMyPlayer", resend_after_fault=False)
        self.player_token = None

    def list_my_sessions(self: SpadesClient) -> SessionList:
        return SessionList.from_dict(self._call("listMySessions").json())

    def revoke_my_sessions(self: SpadesClient) -> SessionList:
        """Sign out everywhere else: every session but this client's (all of them with the player token)."""
        return SessionList.from_dict(self._call("revokeMySessions").json())

    def revoke_my_session(self: SpadesClient, session_id: str) -> None:
        """Sign one device out (this client's own session too)."""
        self._call("revokeMySession", session_id=session_id)

    def create_link_code(self: SpadesClient) -> LinkCode:
        """A code that signs one other device in as this client's player (``sign_in`` there)."""
        return LinkCode.from_dict(self._call("createLinkCode", json={}, resend_after_fault=False).json())

    def create_recovery_codes(self: SpadesClient) -> RecoveryCodes:
        """A fresh set of recovery codes, replacing the old set: keep them apart from your devices."""
        return RecoveryCodes.from_dict(self._call("createRecoveryCodes", json={}, resend_after_fault=False).json())

    def sign_in(
        self: SpadesClient,
        link_code: str | None = None,
        recovery_code: str | None = None,
        device_name: str | None = None,
        passkey: dict[str, Any] | None = None,
    ) -> CreatedSession:
        """A new session for this device from one way in (a link code, a recovery code, or ``passkey``: an
        authenticator's answer to ``start_passkey_sign_in``'s options); this client sends its credential as its
        player token from now on."""
        body = {"link_code": link_code, "recovery_code": recovery_code, "passkey": passkey, "device_name": device_name}
        created = CreatedSession.from_dict(
            self._call("signIn", json={k: v for k, v in body.items() if v is not None}, resend_after_fault=False).json()
        )
        self.player_token = created.token
        return created

    def list_my_live_games(self: SpadesClient) -> LiveGameList:
        """Your player's games in play, on any of its devices (never a token: ``take_my_seat`` gives one)."""
        return LiveGameList.from_dict(self._call("listMyLiveGames").json())

    def take_my_seat(self: SpadesClient, game_id: str, seat: int) -> ClaimedSeat:
        """Your player's seat with a new token for this client (which acts for it from now on); the device that
        held it is refused at its next request.  Repeated after a lost connection: a repeat takes the seat again
        with another token, revoking only the one whose answer was lost."""
        taken = ClaimedSeat.from_dict(self._call("takeMySeat", game_id=game_id, seat=seat, json={}).json())
        self.token = taken.token
        return taken
