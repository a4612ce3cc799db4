"""The Spades rules engine: pure functions over plain, immutable data.

No I/O, no Flask, no Redis: the API and the AI worker both build on this.

    state = new_game(make_rules("partnership"), seed=7)
    seat = turn(state)
    state = apply(state, seat, Bid(3))
    state, events = apply_with_events(state, seat, move)  # also what the move did: BidMade, TrickWon, ...
    round_started(new_game(rules))  # the first deal, which no move reports
    view(state, seat)          # what that seat may know, as JSON data
    to_json(state)             # compact storage form; from_json reverses it
    to_json_parts(state)       # the same in two parts, the finished rounds apart: from_json(*parts)
"""

from .cards import card_code, parse_card
from .errors import CODES, EngineError
from .events import BidMade, CardPlayed, Event, GameOver, RoundScored, RoundStarted, TrickWon
from .game import Bid, Move, Play, apply, apply_with_events, legal_moves, move_error, round_started
from .rules import OPTION_DOCS, PRESETS, RuleError, Rules, make_rules
from .serialization import SCHEMA_VERSION, SchemaError, from_json, to_json, to_json_parts
from .state import GameState, new_game, turn
from .views import view

__all__ = [
    "CODES",
    "OPTION_DOCS",
    "PRESETS",
    "SCHEMA_VERSION",
    "Bid",
    "BidMade",
    "CardPlayed",
    "EngineError",
    "Event",
    "GameOver",
    "GameState",
    "Move",
    "Play",
    "RoundScored",
    "RoundStarted",
    "RuleError",
    "Rules",
    "SchemaError",
    "TrickWon",
    "apply",
    "apply_with_events",
    "card_code",
    "from_json",
    "legal_moves",
    "make_rules",
    "move_error",
    "new_game",
    "parse_card",
    "round_started",
    "to_json",
    "to_json_parts",
    "turn",
    "view",
]
