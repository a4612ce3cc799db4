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

House rules (``docs/rules.md``, "House rules") add three moves and a phase:
``Look()`` and ``Bid(n, blind=True)`` for a seat that may bid blind
(``hand_hidden(state, seat)``: its view's hand is null until then),
``Pass(cards_mask)`` in the ``"passing"`` phase of the nil exchange, and
their events ``HandShown``, ``CardsPassed``, ``ExchangeDone``.  A game's
cards come from ``rules.deck``: ``rules.deck.cards`` (the 52 it deals) and
``rules.deck.parse(code)`` (``"2S"`` is index 52 with deuces high; ``"LJ"``
53 and ``"BJ"`` 54 with jokers); ``card_code`` and ``codes`` need no rules.
``BIG_JOKER``, ``LITTLE_JOKER`` and ``HIGH_DEUCE_OF_SPADES`` name those indexes;
``suit_of`` maps each to spades.

A game's ``seed`` (a :data:`Seed`) never leaves the server: ``new_game(rules)``
deals from a fresh 256-bit secret, ``new_game(rules, seed=7)`` from a chosen
integer (reproducible; ``services/engine/dealing.py`` says how each deals).
"""

from .cards import (
    BIG_JOKER,
    FULL_DECK,
    HIGH_DEUCE_OF_SPADES,
    LITTLE_JOKER,
    STANDARD_DECK,
    Deck,
    card_code,
    cards_in,
    codes,
    is_card_code,
    lowest_by_rank,
    mask_of,
    parse_card,
    suit_of,
)
from .dealing import Seed, new_secret
from .errors import CODES, EngineError
from .events import (
    BidMade,
    CardPlayed,
    CardsPassed,
    Event,
    ExchangeDone,
    GameOver,
    HandShown,
    RoundScored,
    RoundStarted,
    TrickWon,
)
from .game import Bid, Look, Move, Pass, Play, apply, apply_with_events, legal_moves, move_error, round_started
from .rules import (
    BOOLEAN_OPTIONS,
    BOSTON_CONTRACT,
    BOSTON_VALUE,
    DEFAULT_PRESET,
    HOUSE_RULES,
    NULLABLE,
    OPTION_CHOICES,
    OPTION_DOCS,
    OPTION_RANGES,
    PRESET_DOCS,
    PRESETS,
    TEN_FOR_200_CONTRACT,
    RuleError,
    Rules,
    make_rules,
    option_type,
    rules_from_dict,
)
from .scoring import round_parts
from .serialization import SCHEMA_VERSION, SchemaError, from_json, to_json, to_json_parts
from .state import (
    GameState,
    RoundRecord,
    blind_eligible,
    first_seat,
    hand_hidden,
    new_game,
    passing_seats,
    replay_tricks,
    turn,
)
from .views import completed_tricks, last_trick, round_view, trick_view, view

__all__ = [
    "BIG_JOKER",
    "BOOLEAN_OPTIONS",
    "BOSTON_CONTRACT",
    "BOSTON_VALUE",
    "CODES",
    "DEFAULT_PRESET",
    "FULL_DECK",
    "HIGH_DEUCE_OF_SPADES",
    "HOUSE_RULES",
    "LITTLE_JOKER",
    "NULLABLE",
    "OPTION_CHOICES",
    "OPTION_DOCS",
    "OPTION_RANGES",
    "PRESETS",
    "PRESET_DOCS",
    "SCHEMA_VERSION",
    "STANDARD_DECK",
    "TEN_FOR_200_CONTRACT",
    "Bid",
    "BidMade",
    "CardPlayed",
    "CardsPassed",
    "Deck",
    "EngineError",
    "Event",
    "ExchangeDone",
    "GameOver",
    "GameState",
    "HandShown",
    "Look",
    "Move",
    "Pass",
    "Play",
    "RoundRecord",
    "RoundScored",
    "RoundStarted",
    "RuleError",
    "Rules",
    "SchemaError",
    "Seed",
    "TrickWon",
    "apply",
    "apply_with_events",
    "blind_eligible",
    "card_code",
    "cards_in",
    "codes",
    "completed_tricks",
    "first_seat",
    "from_json",
    "hand_hidden",
    "is_card_code",
    "last_trick",
    "legal_moves",
    "lowest_by_rank",
    "make_rules",
    "mask_of",
    "move_error",
    "new_game",
    "new_secret",
    "option_type",
    "parse_card",
    "passing_seats",
    "replay_tricks",
    "round_parts",
    "round_started",
    "round_view",
    "rules_from_dict",
    "suit_of",
    "to_json",
    "to_json_parts",
    "trick_view",
    "turn",
    "view",
]
