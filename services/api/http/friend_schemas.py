"""marshmallow schemas of the friends' routes (:mod:`services.api.http.friend_routes`): an invite's request (strict,
as every request schema), a followed or blocked player, the following list with who is online and where, an
invite as its sender sees it, and a player's notices."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from services.api.http.request_schemas import StrictSchema, StrictString
from services.api.records.content import iso


def _iso_or_none(ms: int | None) -> str | None:
    return None if ms is None else iso(ms)


class InviteRequest(StrictSchema):
    player_id = StrictString(required=True, validate=validate.Length(min=1, max=64))


class RelatedSchema(Schema):
    """A player on one of the asker's lists, and since when."""

    id = fields.String()
    name = fields.String()
    kind = fields.String()
    since = fields.Function(lambda related: iso(related.since_ms))


class FollowedSchema(Schema):
    id = fields.Function(lambda found: found.player.id)
    name = fields.Function(lambda found: found.player.name)
    kind = fields.Function(lambda found: found.player.kind)
    since = fields.Function(lambda found: iso(found.player.since_ms))
    online = fields.Boolean()
    last_seen_at = fields.Function(lambda found: _iso_or_none(found.seen_ms))
    game_id = fields.String(allow_none=True)
    seat = fields.Integer(allow_none=True)


class FollowingList(Schema):
    following = fields.List(fields.Nested(FollowedSchema))
    limit = fields.Integer()


class BlockList(Schema):
    blocks = fields.List(fields.Nested(RelatedSchema))
    limit = fields.Integer()


class InviteSchema(Schema):
    """An invite as its sender sees it (the notice's id, whom, which table and seat, until when)."""

    id = fields.String()
    player_id = fields.String()
    game_id = fields.String()
    seat = fields.Integer()
    expires_at = fields.Function(lambda notice: iso(notice.expires_ms))


class NoticeSchema(Schema):
    id = fields.String()
    kind = fields.String()
    sender = fields.Function(lambda notice: {"id": notice.from_id, "name": notice.from_name})
    game_id = fields.String()
    seat = fields.Integer()
    created_at = fields.Function(lambda notice: iso(notice.created_ms))
    expires_at = fields.Function(lambda notice: iso(notice.expires_ms))


class NoticeList(Schema):
    notices = fields.List(fields.Nested(NoticeSchema))


INVITE_REQUEST = InviteRequest()
RELATED = RelatedSchema()
FOLLOWING_LIST = FollowingList()
BLOCK_LIST = BlockList()
INVITE = InviteSchema()
NOTICE_LIST = NoticeList()
