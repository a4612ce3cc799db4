"""marshmallow schemas: every request body is loaded, every response dumped, through these.

Request schemas refuse unknown fields and coerce nothing (strict integers and
booleans), so a typo is a 400 naming the field rather than a silent default.
"""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from services.engine import DEFAULT_PRESET, OPTION_CHOICES, OPTION_RANGES, PRESETS, is_card_code
from services.players import DEFAULT_LEVEL, LEVEL_NAMES

AI_LEVELS = LEVEL_NAMES  # services.players is the one list of levels
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


def _int(low: int, high: int, **kwargs: Any) -> fields.Integer:
    return JsonInteger(validate=validate.Range(low, high), **kwargs)


class StrictSchema(Schema):
    class Meta:
        unknown = RAISE


# ---- requests ---------------------------------------------------------------


def _ranged(option: str, **kwargs: Any) -> fields.Integer:
    """An integer rule option, in the range the engine's ``OPTION_RANGES`` gives it."""
    return _int(*OPTION_RANGES[option], **kwargs)


def _chosen(option: str) -> fields.String:
    """A string rule option, one of the engine's ``OPTION_CHOICES``."""
    return StrictString(validate=validate.OneOf(OPTION_CHOICES[option]))


class RulesRequest(StrictSchema):
    """Each option's type and range, from the engine's rules module; the combinations
    (team limits, nil) are judged by ``make_rules``, whose ``RuleError`` becomes a 400
    naming the option."""

    preset = StrictString(load_default=DEFAULT_PRESET, validate=validate.OneOf(sorted(PRESETS)))
    scoring = _chosen("scoring")
    win_score = _ranged("win_score")
    lose_score = _ranged("lose_score", allow_none=True)
    set_penalty = _chosen("set_penalty")
    bag_limit = _ranged("bag_limit")
    bag_penalty = _ranged("bag_penalty")
    nil = StrictBoolean()
    nil_value = _ranged("nil_value")
    min_team_bid = _ranged("min_team_bid")
    max_team_bid = _ranged("max_team_bid")
    nil_tricks_count_for_team = StrictBoolean()
    spades_must_be_broken = StrictBoolean()


class SeatRequest(StrictSchema):
    type = StrictString(required=True, validate=validate.OneOf(SEAT_TYPES))
    level = StrictString(validate=validate.OneOf(AI_LEVELS))

    @validates_schema
    def _level_only_for_ai(self, data: dict[str, Any], **kwargs: Any) -> None:
        if "level" in data and data.get("type") != "ai":
            raise ValidationError("only ai seats have a level", "level")


# A game's options when the request leaves them out; also filled into the options of
# games stored before an option existed, so every view shows every option.
DEFAULT_OPTIONS: dict[str, Any] = {"ai_takeover": DEFAULT_LEVEL, "hints": True}


class GameOptionsRequest(StrictSchema):
    ai_takeover = StrictString(
        allow_none=True, load_default=DEFAULT_OPTIONS["ai_takeover"], validate=validate.OneOf(AI_LEVELS)
    )
    hints = StrictBoolean(load_default=DEFAULT_OPTIONS["hints"])


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
            raise ValidationError('not a card code (rank 2-9TJQKA then suit CDHS, e.g. "QS")')
        return value


class PlayRequest(StrictSchema):
    card = CardCode(required=True)


class EmptyRequest(StrictSchema):
    """claim / leave take no fields (an empty body or ``{}``)."""


class EventsQuery(StrictSchema):
    after = _int(0, 2**53, load_default=0)
    wait = _int(0, 30, load_default=0)


# ---- responses --------------------------------------------------------------


class Codes(fields.Raw):
    """JSON data the engine (or the API) already rendered: card-code lists, int
    lists, tricks, finished rounds, seats, rules.  The schema still decides which
    fields leave the service; the values are passed through whole rather than
    item by item, because dumping them field by field was the largest cost of a
    move.  Their shapes are the named components of openapi.yaml, and the
    contract tests validate every response against them."""


class RulesView(Schema):
    scoring = fields.String()
    win_score = fields.Integer()
    lose_score = fields.Integer(allow_none=True)
    set_penalty = fields.String()
    bag_limit = fields.Integer()
    bag_penalty = fields.Integer()
    nil = fields.Boolean()
    nil_value = fields.Integer()
    min_team_bid = fields.Integer()
    max_team_bid = fields.Integer()
    nil_tricks_count_for_team = fields.Boolean()
    spades_must_be_broken = fields.Boolean()


class GameView(Schema):
    """A seat's (or a spectator's) view: the engine's view plus API fields."""

    game_id = fields.String()
    version = fields.Integer()
    phase = fields.String()
    round = fields.Integer()
    dealer = fields.Integer()
    turn = fields.Integer(allow_none=True)
    you = fields.Integer(allow_none=True)
    hand = Codes(allow_none=True)
    hand_sizes = Codes()
    legal = Codes()  # ints while bidding, card codes while playing
    bids = Codes()
    tricks_won = Codes()
    leader = fields.Integer(allow_none=True)
    trick = Codes()  # engine-rendered [{seat, card}] (openapi: PlayedCard)
    tricks = Codes()  # engine-rendered tricks (openapi: Trick), passed through whole
    last_trick = Codes(allow_none=True)  # engine-rendered (openapi: Trick)
    spades_broken = fields.Boolean()
    scores = Codes()
    bags = Codes()
    rules = Codes()  # the engine's resolved options (openapi: Rules)
    history = Codes()  # engine-rendered finished rounds (openapi: Round), passed through whole
    winner = Codes(allow_none=True)
    seats = Codes()  # rendered by rendering.seats_view (openapi: SeatInfo)
    options = Codes()  # the game's stored options (openapi: GameOptionsView)
    seeded = fields.Boolean()  # created with a client-chosen seed: its creator can compute the deals
    last_seq = fields.Integer()  # the seq of the last event at this version: resume events after it


class CreatedSeat(Schema):
    seat = fields.Integer()
    type = fields.String()
    level = fields.String(allow_none=True)
    token = fields.String()


class CreatedGame(Schema):
    game_id = fields.String()
    seats = fields.List(fields.Nested(CreatedSeat))
    state = fields.Nested(GameView)


class ClaimedSeat(Schema):
    game_id = fields.String()
    seat = fields.Integer()
    token = fields.String()
    state = fields.Nested(GameView)


class Event(Schema):
    seq = fields.Integer()
    type = fields.String()
    version = fields.Integer()
    data = fields.Dict(keys=fields.String(), values=fields.Raw())


class EventPage(Schema):
    game_id = fields.String()
    events = fields.List(fields.Nested(Event))
    last_seq = fields.Integer()


class RuleOption(Schema):
    name = fields.String()
    type = fields.String()
    default = fields.Raw(allow_none=True)
    choices = fields.List(fields.Raw(), allow_none=True)
    description = fields.String()


class RulesCatalogue(Schema):
    default_preset = fields.String()
    presets = fields.Dict(keys=fields.String(), values=fields.Nested(RulesView))
    options = fields.List(fields.Nested(RuleOption))


class Level(Schema):
    name = fields.String()
    seed = fields.String()
    description = fields.String()


class LevelsCatalogue(Schema):
    default_level = fields.String()
    hint_level = fields.String()
    levels = fields.List(fields.Nested(Level))


class HintCandidate(Schema):
    """One candidate move and its figures; only these fields leave the service,
    whatever else a worker's answer holds."""

    bid = fields.Integer()
    card = fields.String()
    value = fields.Float()
    make_chance = fields.Float()
    trick_chance = fields.Float()


class HintMove(Schema):
    bid = fields.Integer()
    card = fields.String()


class HintResponse(Schema):
    game_id = fields.String()
    seat = fields.Integer()
    version = fields.Integer()
    level = fields.String()
    move = fields.Nested(HintMove)
    candidates = fields.List(fields.Nested(HintCandidate))


# Schema instances are built once: building one per request was a measurable part of a move.
CREATE_GAME_REQUEST = CreateGameRequest()
EMPTY_REQUEST = EmptyRequest()
BID_REQUEST = BidRequest()
PLAY_REQUEST = PlayRequest()
EVENTS_QUERY = EventsQuery()
GAME_VIEW = GameView()
CREATED_GAME = CreatedGame()
_GAME_VIEW_FIELDS = tuple(GAME_VIEW.dump_fields)
CLAIMED_SEAT = ClaimedSeat()
EVENT_PAGE = EventPage()
RULES_CATALOGUE = RulesCatalogue()
LEVELS_CATALOGUE = LevelsCatalogue()
HINT_RESPONSE = HintResponse()


def dump_game_view(view: dict[str, Any]) -> dict[str, Any]:
    """``GAME_VIEW.dump(view)`` for the hottest response, without marshmallow's
    per-field machinery: every GameView field passes its value through
    unchanged (the API renders them already typed), so the dump is the
    schema's fields, in order, picked from the view.  tests/api/test_units.py
    checks it equals the marshmallow dump along whole games."""
    return {name: view[name] for name in _GAME_VIEW_FIELDS if name in view}
