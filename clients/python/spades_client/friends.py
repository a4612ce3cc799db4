"""The friends' operations: follow and unfollow, block and unblock, the following list (who is online, at which
public table), an invite to your table, and your notices (invites from friends, on any of your devices).

:class:`FriendMethods` is part of :class:`spades_client.client.SpadesClient`; every method needs the client's
``player_token`` (a player token or a session), and :meth:`FriendMethods.invite_player` also its seat token.
The models are the contract's ``RelatedPlayer``, ``FollowedPlayer``, ``FollowingList``, ``BlockList``,
``Invite``, ``Notice`` and ``NoticeList``, held to it by ``tests/clients/test_models_match_spec.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from spades_client.models import Body

if TYPE_CHECKING:
    from spades_client.client import SpadesClient

FRIEND_OPERATIONS: dict[str, tuple[str, str]] = {
    "listFollowing": ("GET", "/v1/players/me/following"),
    "followPlayer": ("PUT", "/v1/players/me/following/{player_id}"),
    "unfollowPlayer": ("DELETE", "/v1/players/me/following/{player_id}"),
    "listBlocks": ("GET", "/v1/players/me/blocks"),
    "blockPlayer": ("PUT", "/v1/players/me/blocks/{player_id}"),
    "unblockPlayer": ("DELETE", "/v1/players/me/blocks/{player_id}"),
    "invitePlayer": ("POST", "/v1/games/{game_id}/invites"),
    "listNotices": ("GET", "/v1/players/me/notices"),
    "dismissNotice": ("DELETE", "/v1/players/me/notices/{notice_id}"),
}


@dataclass
class RelatedPlayer(Body):
    """A player you follow or blocked, and since when."""

    SCHEMA: ClassVar[str] = "RelatedPlayer"
    id: str
    name: str
    kind: str
    since: str


@dataclass
class FollowedPlayer(Body):
    """A player you follow: online or not, and the public table they sit at (None: none shown)."""

    SCHEMA: ClassVar[str] = "FollowedPlayer"
    id: str
    name: str
    kind: str
    since: str
    online: bool
    last_seen_at: str | None
    game_id: str | None
    seat: int | None


@dataclass
class FollowingList(Body):
    SCHEMA: ClassVar[str] = "FollowingList"
    following: list[FollowedPlayer]
    limit: int


@dataclass
class BlockList(Body):
    SCHEMA: ClassVar[str] = "BlockList"
    blocks: list[RelatedPlayer]
    limit: int


@dataclass
class Invite(Body):
    """An invite as its sender sees it: the notice's id, whom it invites, the table and seat, until when."""

    SCHEMA: ClassVar[str] = "Invite"
    id: str
    player_id: str
    game_id: str
    seat: int
    expires_at: str


@dataclass
class Notice(Body):
    """A notice in your lobby: an invite (``kind``) from ``sender`` (``{"id", "name"}``) to a table's seat; claim
    the seat with ``claim_seat`` and your player token (an invite carries no seat token)."""

    SCHEMA: ClassVar[str] = "Notice"
    id: str
    kind: str
    sender: dict[str, Any]
    game_id: str
    seat: int
    created_at: str
    expires_at: str


@dataclass
class NoticeList(Body):
    SCHEMA: ClassVar[str] = "NoticeList"
    notices: list[Notice]


FRIEND_MODELS: tuple[type[Body], ...] = (
    RelatedPlayer,
    FollowedPlayer,
    FollowingList,
    BlockList,
    Invite,
    Notice,
    NoticeList,
)


class FriendMethods:
    """The friends' operations (mixed into :class:`spades_client.client.SpadesClient`)."""

    def list_following(self: SpadesClient) -> FollowingList:
        return FollowingList.from_dict(self._call("listFollowing").json())

    def follow_player(self: SpadesClient, player_id: str) -> RelatedPlayer:
        return RelatedPlayer.from_dict(self._call("followPlayer", player_id=player_id, json={}).json())

    def unfollow_player(self: SpadesClient, player_id: str) -> None:
        self._call("unfollowPlayer", player_id=player_id)

    def list_blocks(self: SpadesClient) -> BlockList:
        return BlockList.from_dict(self._call("listBlocks").json())

    def block_player(self: SpadesClient, player_id: str) -> RelatedPlayer:
        """Block a player: never seated together by quick match, their messages not shown to you, no invites or
        follows either way (your follows of each other end)."""
        return RelatedPlayer.from_dict(self._call("blockPlayer", player_id=player_id, json={}).json())

    def unblock_player(self: SpadesClient, player_id: str) -> None:
        self._call("unblockPlayer", player_id=player_id)

    def invite_player(self: SpadesClient, game_id: str, player_id: str) -> Invite:
        """Invite a player you follow (or who follows you) to this client's table (its seat token's game)."""
        answer = self._call("invitePlayer", game_id=game_id, json={"player_id": player_id}, resend_after_fault=False)
        return Invite.from_dict(answer.json())

    def list_notices(self: SpadesClient) -> NoticeList:
        return NoticeList.from_dict(self._call("listNotices").json())

    def dismiss_notice(self: SpadesClient, notice_id: str) -> None:
        self._call("dismissNotice", notice_id=notice_id)
