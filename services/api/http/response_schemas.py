"""marshmallow schemas of the responses: every response body is dumped through these, so only their
fields leave the service."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields

from services.engine import BOOLEAN_OPTIONS, NULLABLE, OPTION_CHOICES, OPTION_DOCS


class Codes(fields.Raw):
    """JSON data the engine (or the API) already rendered: card-code lists, int
    lists, tricks, finished rounds, seats, rules.  The schema still decides which
    fields leave the service; the values are passed through whole rather than
    item by item, because dumping them field by field was the largest cost of a
    move.  Their shapes are the named components of openapi.yaml, and the
    contract tests validate every response against them."""


def _option_field(name: str) -> fields.Field:
    if name in BOOLEAN_OPTIONS:
        return fields.Boolean()
    if name in OPTION_CHOICES:
        return fields.String()
    return fields.Integer(allow_none=name in NULLABLE)


# Every rule option, as the engine declares it (``services.engine.rules.Rules``).
RulesView = Schema.from_dict({name: _option_field(name) for name in OPTION_DOCS}, name="RulesView")


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
    legal = Codes()  # ints while bidding, card codes while playing or passing, "look" for a blind decision
    hand_hidden = fields.Boolean()  # house rules: the seat may bid blind and has not seen its hand
    legal_blind = Codes()  # house rules: the blind bids the seat may make now (0 is blind nil)
    blind = Codes()  # house rules: per seat, whether its bid was blind
    pass_count = fields.Integer()  # house rules: cards each passing seat gives in the nil exchange
    passing_seats = Codes()  # house rules: the seats exchanging this round
    passes = Codes(allow_none=True)  # house rules: {gave, received} for the seat itself
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
    rematch = Codes()  # table life: {game_id} of the rematch offered once the game is over
    reserved = Codes()  # table life: {seats, until_ms, previous_game_id} while a rematch keeps seats for people
    messages = Codes()  # table life: the last quick messages ([TableMessage]), added at each GET (view_bodies)
    clock = Codes(allow_none=True)  # rendered by clocks.clock_view (openapi: TurnClock), null without a clock
    fair_play = Codes()  # rendered by fair_play.fair_play_view (openapi: FairPlay), in a game made to count only
    server_time_ms = fields.Integer()  # the server's time as the response left: added at dump, never cached


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
    server_time_ms = fields.Integer()


class RuleOption(Schema):
    name = fields.String()
    type = fields.String()
    default = fields.Raw(allow_none=True)
    choices = fields.List(fields.Raw(), allow_none=True)
    minimum = fields.Integer(allow_none=True)
    maximum = fields.Integer(allow_none=True)
    description = fields.String()
    house = fields.Boolean()


class TimeControl(Schema):
    name = fields.String()
    move_seconds = fields.Integer()
    reserve_seconds = fields.Integer()
    description = fields.String()


class RulesCatalogue(Schema):
    default_preset = fields.String()
    presets = fields.Dict(keys=fields.String(), values=fields.Nested(RulesView))
    preset_descriptions = fields.Dict(keys=fields.String(), values=fields.String())
    options = fields.List(fields.Nested(RuleOption))
    time_controls = fields.List(fields.Nested(TimeControl))
    default_time_control = fields.String()


class Level(Schema):
    name = fields.String()
    seed = fields.String()
    description = fields.String()
    strength = fields.Integer()
    summary = fields.String()


class LevelsCatalogue(Schema):
    default_level = fields.String()
    hint_level = fields.String()
    levels = fields.List(fields.Nested(Level))


class HintCandidate(Schema):
    """One candidate move and its figures; only these fields leave the service,
    whatever else a worker's answer holds."""

    bid = fields.Integer()
    blind = fields.Boolean()
    look = fields.Boolean()
    card = fields.String()
    pass_ = fields.List(fields.String(), attribute="pass", data_key="pass")
    value = fields.Float()
    make_chance = fields.Float()
    trick_chance = fields.Float()


class HintMove(Schema):
    bid = fields.Integer()
    blind = fields.Boolean()  # only on a blind bid (house rules)
    look = fields.Boolean()
    card = fields.String()
    pass_ = fields.List(fields.String(), attribute="pass", data_key="pass")


class HintResponse(Schema):
    game_id = fields.String()
    seat = fields.Integer()
    version = fields.Integer()
    level = fields.String()
    move = fields.Nested(HintMove)
    candidates = fields.List(fields.Nested(HintCandidate))


class ReviewDecision(Schema):
    """One move of the reviewed seat: the move made, the hint level's, and its figures per candidate."""

    trick = fields.Integer()  # absent for the bid, the blind decision and the pass
    made = fields.Nested(HintMove)
    best = fields.Nested(HintMove)
    candidates = fields.List(fields.Nested(HintCandidate))
    given_away = fields.Float(allow_none=True)  # None: not scored (a lone move, or one the hint level did not weigh)
    accurate = fields.Boolean(allow_none=True)


class RoundReview(Schema):
    game_id = fields.String()
    round = fields.Integer()
    seat = fields.Integer()
    level = fields.String()
    record = Codes()  # the engine-rendered finished round (openapi: Round)
    tricks = Codes()  # engine-rendered tricks (openapi: Trick)
    decisions = fields.List(fields.Nested(ReviewDecision))
    accuracy = fields.Dict()  # the seat's scored decisions added up (services.ratings.accuracy)


# Schema instances are built once: building one per request was a measurable part of a move.
GAME_VIEW = GameView()
CREATED_GAME = CreatedGame()
_GAME_VIEW_FIELDS = tuple(GAME_VIEW.dump_fields)
CLAIMED_SEAT = ClaimedSeat()
EVENT_PAGE = EventPage()
RULES_CATALOGUE = RulesCatalogue()
LEVELS_CATALOGUE = LevelsCatalogue()
HINT_RESPONSE = HintResponse()
ROUND_REVIEW = RoundReview()


def dump_game_view(view: dict[str, Any]) -> dict[str, Any]:
    """``GAME_VIEW.dump(view)`` for the hottest response, without marshmallow's
    per-field machinery: every GameView field passes its value through
    unchanged (the API renders them already typed), so the dump is the
    schema's fields, in order, picked from the view.  tests/api/test_units.py
    checks it equals the marshmallow dump along whole games."""
    return {name: view[name] for name in _GAME_VIEW_FIELDS if name in view}
