"""Rule options and presets.

Every rule the seed texts vary is an option of :class:`Rules`; a preset is
only a named set of defaults (``PRESETS``), so a game can start from a preset
and override any option.  :func:`make_rules` resolves and validates a request
and refuses bad combinations with a :class:`RuleError` naming the option.
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal, get_args, get_type_hints

from .cards import Deck

Scoring = Literal["partnership", "individual"]
SetPenalty = Literal["negative", "zero"]
SCORE_LIMIT = 100_000  # scores beyond this are a typo, not a game


HOUSE = "house rule (seed 002 leaves it off): docs/rules.md"  # where a house rule comes from


def option(
    default: Any,
    doc: str,
    seeds: str = HOUSE,
    *,
    bounds: tuple[int, int] | None = None,
    applies_with: tuple[str, ...] = (),
) -> Any:
    """One rule option, declared once: its default (the partnership preset's), what it means (``GET /v1/rules``),
    the seeds it comes from (a house rule otherwise), the inclusive range of an integer, and the switches a value
    only matters under (refused unless one of them is on, or the value is its default)."""
    return field(default=default, metadata={"doc": doc, "seeds": seeds, "bounds": bounds, "applies_with": applies_with})


@dataclass(frozen=True, slots=True)
class Rules:
    """The resolved rules of one game (all options, no gaps): each option's type, default and meaning.

    The catalogue, the API's schemas, the web client's form and openapi.yaml's ``Rules`` are read from (or checked
    against) these fields; a house rule is a field declared with the default source, ``HOUSE``, and off by default.
    """

    scoring: Scoring = option(
        "partnership",
        "partnership: seats 0&2 play against 1&3 and score as teams; individual: every seat scores alone (cutthroat).",
        "000, 001, 002, 003",
    )
    win_score: int = option(
        500,
        "A side that ends a round with at least this score can win the game.",
        "000, 001, 002",
        bounds=(1, SCORE_LIMIT),
    )
    lose_score: int | None = option(
        -200,
        "A side that ends a round at or below this score (0 or less) ends the game (the higher score wins); "
        "null for none.",
        "002",
        # It stops at 0 so that it is always below win_score (at least 1): a game starts at 0, and a limit above
        # it would end every game after its first round.
        bounds=(-SCORE_LIMIT, 0),
    )
    set_penalty: SetPenalty = option(
        "negative",
        "What a side scores when it takes fewer tricks than its contract: negative = -10 per contract trick, zero = 0.",
        "000 (zero), 001, 002 (negative)",
    )
    bag_limit: int = option(
        10, "How many accumulated bags (overtricks) trigger the bag penalty.", "000, 001, 002", bounds=(1, 1000)
    )
    bag_penalty: int = option(
        100,
        "Points lost each time a side's bags reach bag_limit (the limit is then taken off its bags); 0 turns the "
        "penalty off.",
        "000 (optional), 001, 002",
        bounds=(0, SCORE_LIMIT),
    )
    nil: bool = option(True, "Whether a bid of 0 (nil) is allowed.", "000, 001, 002")
    nil_value: int = option(
        100,
        "Points won by a nil bidder who takes no trick, and lost by one who takes any.",
        "000, 001, 002",
        bounds=(0, SCORE_LIMIT),
    )
    min_team_bid: int = option(
        4,
        "Partnership only: when neither partner bids nil, their combined bid must be at least this.",
        "001",
        bounds=(0, 13),
    )
    max_team_bid: int = option(
        13,
        "Partnership only: the partners' combined bid may not exceed this; at least min_team_bid, and at least 2 "
        "when nil is off.",
        "002 (bids 0 to 13)",
        bounds=(1, 26),
    )
    nil_tricks_count_for_team: bool = option(
        True,
        "A nil bidder's tricks count toward its side's tricks: the team's contract and bags in partnership play, "
        "the seat's own bags in individual play.",
        "002 (partnership); 000 is silent, so individual play leaves it off",
    )
    spades_must_be_broken: bool = option(
        True,
        "Spades may not be led until a spade has been played on an earlier trick (unless the leader holds only "
        "spades).",
        "000, 001, 002",
    )
    # House rules (docs/rules.md, "House rules"): all off by default.
    jokers: bool = option(
        False,
        "Big and Little Joker are the two highest spades (codes BJ, LJ); the 2 of clubs and 2 of diamonds leave "
        "the deck.",
    )
    deuces_high: bool = option(False, "The 2 of spades ranks above the ace of spades (below the jokers).")
    blind_nil: bool = option(
        False, "A seat whose side trails by at least blind_margin may bid nil before seeing its hand."
    )
    blind_nil_value: int = option(
        200,
        "Points won by a blind nil bidder who takes no trick, and lost by one who takes any (blind_nil only).",
        bounds=(0, SCORE_LIMIT),
        applies_with=("blind_nil",),
    )
    blind_bids: bool = option(
        False,
        "A seat whose side trails by at least blind_margin may bid tricks before seeing its hand; they score double.",
    )
    blind_margin: int = option(
        100,
        "How far a side must trail the best other side for blind decisions; 0 = always (blind_nil or blind_bids only).",
        bounds=(0, SCORE_LIMIT),
        applies_with=("blind_nil", "blind_bids"),
    )
    nil_pass_cards: int = option(
        0,
        "Partnership: after the bids a nil bidder and its partner each give the other this many cards face down; "
        "0 = no exchange.",
        bounds=(0, 3),
    )
    nil_pass_blind_only: bool = option(
        False, "The nil exchange happens only after a blind nil (needs blind_nil and nil_pass_cards)."
    )
    suicide: bool = option(
        False, "Partnership: in each side exactly one partner bids nil and the other at least max(1, min_team_bid)."
    )
    ten_for_200: bool = option(
        False,
        "A side whose contract is 10 or more scores ten_for_200_value when it makes it (not 10 a trick), and loses "
        "as much when set.",
    )
    # Not ``applies_with`` ten_for_200: openapi.yaml states each such rule in JSON Schema, and one more outgrows
    # what schemathesis can generate requests from.
    ten_for_200_value: int = option(200, "The 10-for-200 bonus (used only with ten_for_200).", bounds=(0, SCORE_LIMIT))
    boston: bool = option(
        False,
        "A side whose contract is all 13 tricks scores 500 when it makes it (not 10 a trick), and loses 500 when set "
        "(a Boston).",
    )
    mercy_margin: int | None = option(
        None,
        "After a round the game ends when a side trails the leader by at least this; the leader wins. null for none.",
        bounds=(1, SCORE_LIMIT),
    )
    deals: int = option(
        0,
        "When above 0 the game ends after this many rounds (deals), whatever the scores: win_score, lose_score and "
        "mercy_margin end nothing (a tie for the highest score plays another round); 0 = play to the scores.",
        bounds=(0, 100),
    )

    @property
    def deck(self) -> Deck:
        """The cards this game deals and how their codes read."""
        return Deck(self.jokers, self.deuces_high)

    @property
    def blind_decisions(self) -> bool:
        """Whether some seats may have to decide before seeing their hand."""
        return self.blind_nil or self.blind_bids

    @property
    def partnership(self) -> bool:
        return self.scoring == "partnership"

    @property
    def sides(self) -> int:
        """How many scoring sides: 2 teams or 4 individual seats."""
        return 2 if self.partnership else 4

    def side_of(self, seat: int) -> int:
        """The team (partnership) or seat (individual) a seat scores for."""
        return seat % 2 if self.partnership else seat

    def seats_of(self, side: int) -> tuple[int, ...]:
        return (side, side + 2) if self.partnership else (side,)

    def to_dict(self) -> dict[str, Any]:
        """Every option by name (a fresh dict: callers may change it)."""
        return dict(_as_dict(self))


@functools.cache
def _as_dict(rules: Rules) -> dict[str, Any]:
    # Rules are immutable and few: convert each once (asdict is slow on hot paths).
    return asdict(rules)


PRESETS: dict[str, Rules] = {
    # Seeds 001 and 002: teams 0&2 vs 1&3, set = -10/trick, 10 bags = -100,
    # minimum team bid 4, game to 500 or down to -200.
    "partnership": Rules(),
    # Seeds 000 and 003 ("cutthroat"): each seat alone, a set scores 0, the
    # 10-bag penalty is optional and off, first to the winning score wins.
    "individual": Rules(
        scoring="individual",
        lose_score=None,
        set_penalty="zero",
        bag_penalty=0,
        min_team_bid=0,
        nil_tricks_count_for_team=False,
    ),
}
# Common house-rule combinations (docs/rules.md, "Presets for common combinations").
PRESETS["jokers_deuces_high"] = Rules(jokers=True, deuces_high=True)
PRESETS["blind_nil_passing"] = Rules(blind_nil=True, nil_pass_cards=2, nil_pass_blind_only=True)
PRESETS["suicide_partners"] = Rules(suicide=True)
PRESETS["house"] = Rules(
    jokers=True, deuces_high=True, blind_nil=True, blind_bids=True, nil_pass_cards=2, ten_for_200=True, mercy_margin=500
)
PRESET_DOCS: dict[str, str] = {
    "partnership": "Seeds 001 and 002: teams 0&2 vs 1&3, game to 500 or down to -200.",
    "individual": "Seeds 000 and 003 (cutthroat): every seat alone, a set scores 0, no bag penalty.",
    "jokers_deuces_high": "Partnership with Big Joker, Little Joker and the 2 of spades as the three top trumps.",
    "blind_nil_passing": "Partnership with blind nil (±200, trailing by 100) and a two-card exchange after a blind nil.",
    "suicide_partners": "Partnership where one partner of each side must bid nil.",
    "house": "Jokers, deuces high, blind nil and blind bids, two-card nil passing, 10 for 200 and a 500-point mercy rule.",
}
DEFAULT_PRESET = "partnership"

# ---- read from the declarations -------------------------------------------------------------------------------

_HINTS = get_type_hints(Rules)
_FIELDS = fields(Rules)
OPTION_DOCS: dict[str, str] = {f.name: f.metadata["doc"] for f in _FIELDS}
OPTION_SEEDS: dict[str, str] = {f.name: f.metadata["seeds"] for f in _FIELDS}
HOUSE_RULES: tuple[str, ...] = tuple(f.name for f in _FIELDS if f.metadata["seeds"] == HOUSE)
# The inclusive range of every integer option: validate(), the API's schemas and openapi.yaml (checked by a test).
OPTION_RANGES: dict[str, tuple[int, int]] = {f.name: f.metadata["bounds"] for f in _FIELDS if f.metadata["bounds"]}
OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    name: get_args(hint) for name, hint in _HINTS.items() if getattr(hint, "__origin__", None) is Literal
}
BOOLEAN_OPTIONS = frozenset(name for name, hint in _HINTS.items() if hint is bool)
NULLABLE = frozenset(name for name, hint in _HINTS.items() if type(None) in get_args(hint))  # null: none
DEPENDENT_VALUES: dict[str, tuple[str, ...]] = {
    f.name: f.metadata["applies_with"] for f in _FIELDS if f.metadata["applies_with"]
}


class RuleError(ValueError):
    """A rules request that can't be played; ``option`` names the culprit."""

    code = "invalid_rules"

    def __init__(self, option: str, message: str, other: str | None = None) -> None:
        if other is not None and other not in message:
            message = f"{message} (conflicts with {other})"
        super().__init__(f"{option}: {message}")
        self.option = option
        self.message = message
        self.options = (option,) if other is None else (option, other)  # a refused combination names both


TEN_FOR_200_CONTRACT = 10  # the smallest contract that scores the 10-for-200 bonus
BOSTON_CONTRACT, BOSTON_VALUE = 13, 500  # a Boston: every trick bid, and what it is worth
# The team options' values in individual play, where they do not apply.
NEUTRAL_TEAM_BIDS: dict[str, int] = {"min_team_bid": 0, "max_team_bid": 13}


def option_type(name: str) -> str:
    """The JSON type of an option, for the rules catalogue."""
    if name in BOOLEAN_OPTIONS:
        return "boolean"
    if name in OPTION_CHOICES:
        return "string"
    if name in NULLABLE:
        return "integer|null"
    return "integer"


def make_rules(preset: str = DEFAULT_PRESET, **overrides: Any) -> Rules:
    """The rules of ``preset`` with ``overrides`` applied, validated."""
    if preset not in PRESETS:
        raise RuleError("preset", f"unknown preset {preset!r}; choose one of {sorted(PRESETS)}")
    base = PRESETS[preset].to_dict()
    for name, value in overrides.items():
        if name not in base:
            raise RuleError(name, "unknown option")
        base[name] = value
    if base["scoring"] == "individual":
        # A partnership preset switched to individual scoring drops its team limits
        # rather than refusing them: only limits the request itself names are judged.
        for name, neutral in NEUTRAL_TEAM_BIDS.items():
            if name not in overrides:
                base[name] = neutral
    return validate(Rules(**base))


def _check_int(name: str, value: Any, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(name, "must be an integer")
    if not low <= value <= high:
        raise RuleError(name, f"must be between {low} and {high}")


def validate(rules: Rules) -> Rules:
    """Return ``rules`` if every option and combination is playable."""
    for name, choices in OPTION_CHOICES.items():
        if getattr(rules, name) not in choices:
            raise RuleError(name, f"must be one of {list(choices)}")
    for name in BOOLEAN_OPTIONS:
        if not isinstance(getattr(rules, name), bool):
            raise RuleError(name, "must be true or false")
    for name, (low, high) in OPTION_RANGES.items():
        value = getattr(rules, name)
        if name not in NULLABLE or value is not None:
            _check_int(name, value, low, high)
    if not rules.partnership:
        for name, neutral in NEUTRAL_TEAM_BIDS.items():
            if getattr(rules, name) != neutral:
                raise RuleError(name, f"applies only to partnership scoring; use {neutral} with individual")
    elif rules.max_team_bid < rules.min_team_bid:
        raise RuleError("max_team_bid", "must be at least min_team_bid")
    elif not rules.nil and rules.max_team_bid < 2:
        # Without nil each partner bids at least 1: a lower limit leaves the first partner no legal bid.
        raise RuleError("max_team_bid", "must be at least 2 when nil is off (each partner bids at least 1)")
    _validate_house_rules(rules)
    return rules


def _validate_house_rules(rules: Rules) -> None:
    """Refuse the house-rule combinations that make no sense, naming both options."""
    defaults = PRESETS[DEFAULT_PRESET]
    for name, switches in DEPENDENT_VALUES.items():
        if getattr(rules, name) != getattr(defaults, name) and not any(getattr(rules, s) for s in switches):
            raise RuleError(name, f"applies only with {' or '.join(switches)}", switches[0])
    if rules.suicide and not rules.partnership:
        raise RuleError("suicide", "is a partnership rule: refused with individual scoring", "scoring")
    if rules.suicide and not rules.nil:
        raise RuleError("suicide", "needs nil: one partner of each side bids nil", "nil")
    if rules.blind_nil and not rules.nil:
        raise RuleError("blind_nil", "needs nil: a blind nil is a nil bid", "nil")
    if rules.nil_pass_cards and not rules.partnership:
        raise RuleError(
            "nil_pass_cards",
            "is a partnership rule (a nil bidder exchanges with its partner): refused with individual scoring",
            "scoring",
        )
    if rules.nil_pass_cards and not rules.nil:
        raise RuleError("nil_pass_cards", "needs nil: the exchange follows a nil bid", "nil")
    if rules.nil_pass_blind_only and not rules.blind_nil:
        raise RuleError("nil_pass_blind_only", "needs blind_nil", "blind_nil")
    if rules.nil_pass_blind_only and not rules.nil_pass_cards:
        raise RuleError("nil_pass_blind_only", "needs nil_pass_cards of 1 to 3", "nil_pass_cards")
    if rules.ten_for_200 and rules.partnership and rules.max_team_bid < TEN_FOR_200_CONTRACT:
        raise RuleError("ten_for_200", f"needs max_team_bid of at least {TEN_FOR_200_CONTRACT}", "max_team_bid")


def rules_from_dict(data: dict[str, Any]) -> Rules:
    """Rebuild stored rules (all options present) and validate them."""
    return validate(Rules(**data))
