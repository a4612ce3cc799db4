"""marshmallow schemas of the requests: every request body and query is loaded through these.

They refuse unknown fields and coerce nothing (strict integers and booleans), so a typo is a 400 naming
the field rather than a silent default.
"""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from services.api.games.clocks import CONTROLS
from services.api.problems import MAX_INT64, ascii_int
from services.computers import DEFAULT_LEVEL, LEVEL_NAMES
from services.engine import (
    BOOLEAN_OPTIONS,
    DEFAULT_PRESET,
    NULLABLE,
    OPTION_CHOICES,
    OPTION_DOCS,
    OPTION_RANGES,
    PRESETS,
    is_card_code,
)

AI_LEVELS = LEVEL_NAMES  # services.computers is the one list of levels
SEAT_TYPES = ("human", "open", "ai")
MAX_SEED = 2**63 - 1


class StrictBoolean(fields.Boolean):
    """Only JSON true/false (marshmallow's Boolean also takes "yes", 1, ...)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class StrictString(fields.String):
    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        if not isinstance(value, str):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class JsonInteger(fields.Integer):
    """A JSON Schema integer: an int, or a number with no fractional part (``3.0``);
    never a string or a boolean."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.make_error("invalid", input=value)
        return value


class QueryInteger(fields.Integer):
    """A query parameter's integer: ASCII digits only (:func:`services.api.problems.ascii_int`), then its range."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        number = ascii_int(value, MAX_INT64) if isinstance(value, str) else None
        if number is None:
            raise self.make_error("invalid", input=value)
        return number


def _int(low: int, high: int, **kwargs: Any) -> fields.Integer:
    return JsonInteger(validate=validate.Range(low, high), **kwargs)


class StrictSchema(Schema):
    class Meta:
        unknown = RAISE


# ---- requests ---------------------------------------------------------------


def _option_field(name: str) -> fields.Field:
    """A rule option's field, as the engine declares it (``services.engine.rules.Rules``): a boolean, one of its
    choices, or an integer in its range (null where the option may be off)."""
    if name in BOOLEAN_OPTIONS:
        return StrictBoolean()
    if name in OPTION_CHOICES:
        return StrictString(validate=validate.OneOf(OPTION_CHOICES[name]))
    return _int(*OPTION_RANGES[name], allow_none=name in NULLABLE)


# Each option's type and range, read from the engine's declarations; the combinations (team limits, nil) are
# judged by ``make_rules``, whose ``RuleError`` becomes a 400 naming the option.
RulesRequest = StrictSchema.from_dict(
    {
        "preset": StrictString(load_default=DEFAULT_PRESET, validate=validate.OneOf(sorted(PRESETS))),
        **{name: _option_field(name) for name in OPTION_DOCS},
    },
    name="RulesRequest",
)


class SeatRequest(StrictSchema):
    type = StrictString(required=True, validate=validate.OneOf(SEAT_TYPES))
    level = StrictString(validate=validate.OneOf(AI_LEVELS))
    player = StrictBoolean()  # true: the seat of the request's Player-Token (one human seat at most)

    @validates_schema
    def _level_only_for_ai(self, data: dict[str, Any], **kwargs: Any) -> None:
        if "level" in data and data.get("type") != "ai":
            raise ValidationError("only ai seats have a level", "level")
        if data.get("player") and data.get("type") != "human":
            raise ValidationError("only a human seat is a player's", "player")


# A game's options when the request leaves them out (every game stores every option).
DEFAULT_OPTIONS: dict[str, Any] = {"ai_takeover": DEFAULT_LEVEL, "hints": True, "public": False}


class GameOptionsRequest(StrictSchema):
    ai_takeover = StrictString(
        allow_none=True, load_default=DEFAULT_OPTIONS["ai_takeover"], validate=validate.OneOf(AI_LEVELS)
    )
    hints = StrictBoolean(load_default=DEFAULT_OPTIONS["hints"])
    public = StrictBoolean(load_default=DEFAULT_OPTIONS["public"])  # listed in the lobby (GET /v1/tables)
    clock = StrictString(validate=validate.OneOf(list(CONTROLS)))  # absent: clocks.default_control at create


DEFAULT_SEATS = [{"type": "human"}] * 4


class CreateGameRequest(StrictSchema):
    rules = fields.Nested(RulesRequest, load_default=lambda: {"preset": DEFAULT_PRESET})
    seats = fields.List(
        fields.Nested(SeatRequest), load_default=lambda: list(DEFAULT_SEATS), validate=validate.Length(equal=4)
    )
    seed = _int(0, MAX_SEED)
    options = fields.Nested(GameOptionsRequest, load_default=lambda: dict(DEFAULT_OPTIONS))


class BidRequest(StrictSchema):
    bid = _int(0, 13, required=True)


class CardCode(StrictString):
    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        if not is_card_code(value):
            raise ValidationError('not a card code (rank 2-9TJQKA then suit CDHS, e.g. "QS", or a joker: LJ, BJ)')
        return value


class PlayRequest(StrictSchema):
    card = CardCode(required=True)


class BlindRequest(StrictSchema):
    """A seat's blind decision: ``{"bid": n}`` bids blind (0 is blind nil), ``{"look": true}`` looks at the hand."""

    bid = _int(0, 13)
    look = StrictBoolean(validate=validate.Equal(True))

    @validates_schema
    def _one_decision(self, data: dict[str, Any], **kwargs: Any) -> None:
        if ("bid" in data) == ("look" in data):
            raise ValidationError("give exactly one of bid (a blind bid) and look (see the hand)", "body")


class PassRequest(StrictSchema):
    """The cards a seat gives its partner in the nil exchange (as many as the rules' nil_pass_cards)."""

    cards = fields.List(CardCode(), required=True, validate=validate.Length(1, 3))

    @validates_schema
    def _distinct(self, data: dict[str, Any], **kwargs: Any) -> None:
        if len(set(data.get("cards", []))) != len(data.get("cards", [])):
            raise ValidationError("each card at most once", "cards")


class EmptyRequest(StrictSchema):
    """claim / leave take no fields (an empty body or ``{}``)."""


class EventsQuery(StrictSchema):
    after = QueryInteger(load_default=0, validate=validate.Range(0, 2**53))
    wait = QueryInteger(load_default=0, validate=validate.Range(0, 30))


# Schema instances are built once: building one per request was a measurable part of a move.
CREATE_GAME_REQUEST = CreateGameRequest()
EMPTY_REQUEST = EmptyRequest()
BID_REQUEST = BidRequest()
PLAY_REQUEST = PlayRequest()
BLIND_REQUEST = BlindRequest()
PASS_REQUEST = PassRequest()
EVENTS_QUERY = EventsQuery()
