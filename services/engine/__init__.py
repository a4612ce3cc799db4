"""The Spades rules engine: pure functions over plain, immutable data.

No I/O, no Flask, no Redis: the API and the AI worker both build on this, and
import it only from here (``tests/test_layers.py`` checks it).

    state = new_game(make_rules("partnership"), seed=7)
    seat = turn(state)
    state = apply(state, seat, Bid(3))
    state, events = apply_with_events(state, turn(state), Bid(2))  # and what it did: (BidMade(2, 2),)
    round_started(new_game(rules))  # the first deal, which no move reports
    view(state, seat)          # what that seat may know, as JSON data
    to_json(state)             # compact storage form; from_json reverses it
    to_json_parts(state)       # the same in two parts, the finished rounds apart: from_json(*parts)
"""

from .cards import FULL_DECK, card_code, cards_in, codes, is_card_code, lowest_by_rank, mask_of, parse_card
from .errors import CODES, EngineError
from .events import BidMade, CardPlayed, Event, GameOver, RoundScored, RoundStarted, TrickWon
from .game import Bid, Move, Play, apply, apply_with_events, legal_moves, move_error, round_started
from .rules import (
    DEFAULT_PRESET,
    OPTION_CHOICES,
    OPTION_DOCS,
    OPTION_RANGES,
    PRESETS,
    RuleError,
    Rules,
    make_rules,
    option_type,
)
from .serialization import SCHEMA_VERSION, SchemaError, from_json, to_json, to_json_parts
from .state import GameState, first_seat, new_game, turn
from .views import completed_tricks, last_trick, round_view, trick_view, view

__all__ = [
    "CODES",
    "DEFAULT_PRESET",
    "FULL_DECK",
    "OPTION_CHOICES",
    "OPTION_DOCS",
    "OPTION_RANGES",
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
    "cards_in",
    "codes",
    "completed_tricks",
    "first_seat",
    "from_json",
    "is_card_code",
    "last_trick",
    "legal_moves",
    "lowest_by_rank",
    "make_rules",
    "mask_of",
    "move_error",
    "new_game",
    "option_type",
    "parse_card",
    "round_started",
    "round_view",
    "to_json",
    "to_json_parts",
    "trick_view",
    "turn",
    "view",
]
