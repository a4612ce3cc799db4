"""Typed models of the service's JSON bodies, one dataclass per named schema of ``openapi.yaml``.

Each model names its schema (``SCHEMA``); ``tests/clients/test_models_match_spec.py`` fails when a model's
fields and its schema's properties drift apart.  Fields a newer server sends that this version does not
declare are kept in ``extra`` rather than dropped, so a bot can read a new view field before the client
knows it.  ``raw`` keeps the body as received.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

Model = TypeVar("Model", bound="Body")
Legal = int | str  # a legal bid (an integer) or a card code


@dataclass
class Body:
    """What every model shares: the fields this client does not know yet, and the body as received."""

    SCHEMA: ClassVar[str] = ""
    extra: dict[str, Any] = field(default_factory=dict, repr=False, kw_only=True)
    raw: dict[str, Any] = field(default_factory=dict, repr=False, kw_only=True, compare=False)

    @classmethod
    def from_dict(cls: type[Model], data: dict[str, Any]) -> Model:
        hints, known = _fields_of(cls)
        values = {name: _convert(hints[name], data[name]) for name in known if name in data}
        extra = {k: v for k, v in data.items() if k not in known}
        return cls(**values, extra=extra, raw=data)

    def to_dict(self) -> dict[str, Any]:
        """The body as received (with anything this client does not model)."""
        return self.raw


@functools.cache
def _fields_of(cls: type[Body]) -> tuple[dict[str, Any], frozenset[str]]:
    """A model's resolved type hints and its modelled fields, worked out once per class: resolving the
    string annotations (``typing.get_type_hints``) costs about a millisecond a class, and one view holds
    dozens of nested models."""
    known = frozenset(f.name for f in dataclasses.fields(cls) if f.name not in ("extra", "raw"))
    return typing.get_type_hints(cls), known


def _convert(hint: Any, value: Any) -> Any:
    """``value`` as ``hint`` says: a model from a dict, a list of models, ``None`` where allowed."""
    if value is None:
        return None
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        members = [m for m in typing.get_args(hint) if m is not type(None)]
        return _convert(members[0], value) if len(members) == 1 else value
    if origin is list:
        (item,) = typing.get_args(hint)
        return [_convert(item, v) for v in value]
    if isinstance(hint, type) and issubclass(hint, Body):
        return hint.from_dict(value)
    return value


@dataclass
class PlayedCard(Body):
    SCHEMA: ClassVar[str] = "PlayedCard"
    seat: int
    card: str


@dataclass
class Trick(Body):
    SCHEMA: ClassVar[str] = "Trick"
    leader: int
    cards: list[PlayedCard]
    winner: int | None


@dataclass
class Rules(Body):
    """Every rule option, resolved; ``side_of`` and ``partnership`` as the engine defines them."""

    SCHEMA: ClassVar[str] = "Rules"
    scoring: str
    win_score: int
    lose_score: int | None
    set_penalty: str
    bag_limit: int
    bag_penalty: int
    nil: bool
    nil_value: int
    min_team_bid: int
    max_team_bid: int
    nil_tricks_count_for_team: bool
    spades_must_be_broken: bool
    jokers: bool
    deuces_high: bool
    blind_nil: bool
    blind_nil_value: int
    blind_bids: bool
    blind_margin: int
    nil_pass_cards: int
    nil_pass_blind_only: bool
    suicide: bool
    ten_for_200: bool
    ten_for_200_value: int
    mercy_margin: int | None
    boston: bool = False  # absent from a server that predates it
    deals: int = 0  # absent from a server that predates it: play to the scores

    @property
    def partnership(self) -> bool:
        return self.scoring == "partnership"

    @property
    def sides(self) -> int:
        return 2 if self.partnership else 4

    def side_of(self, seat: int) -> int:
        """Seats 0 & 2 are side 0 and 1 & 3 side 1 in partnership scoring; each seat its own side otherwise."""
        return seat % 2 if self.partnership else seat


@dataclass
class Round(Body):
    SCHEMA: ClassVar[str] = "Round"
    round: int
    dealer: int
    bids: list[int]
    tricks_won: list[int]
    points: list[int]
    bag_penalties: list[int]
    scores: list[int]
    bags: list[int]
    hands: list[list[str]]
    plays: list[str]
    parts: list[dict[str, Any]]  # per side, what its points are made of (openapi: RoundPart)
    blind: list[bool] | None = None  # house rules: which bids were blind (present when one was)
    passes: list[list[str]] | None = None  # house rules: the cards each seat gave (present when there was an exchange)


@dataclass
class PlayerRef(Body):
    """A player as tables and leaderboards show it: a person or a bot (``kind``), or a computer level
    (``computer-<level>``)."""

    SCHEMA: ClassVar[str] = "PlayerRef"
    id: str
    name: str
    kind: str


@dataclass
class SeatInfo(Body):
    SCHEMA: ClassVar[str] = "SeatInfo"
    seat: int
    type: str
    level: str | None
    claimable: bool
    player: PlayerRef | None  # None: an open seat, or a person who sat down without a player
    connected: bool | None = None  # only in a view read with get_game


@dataclass
class TableMessage(Body):
    """A quick message: ``code`` is one of the contract's ``MessageCode``."""

    SCHEMA: ClassVar[str] = "TableMessage"
    seat: int
    code: str
    at_ms: int
    player_id: str | None = None  # the seat's player, when it is bound to one


@dataclass
class RematchLink(Body):
    SCHEMA: ClassVar[str] = "RematchLink"
    game_id: str
    seat: int | None = None  # who offered it


@dataclass
class SeatReservation(Body):
    """A rematch's seats kept for the last game's people until ``until_ms`` (server time)."""

    SCHEMA: ClassVar[str] = "SeatReservation"
    seats: list[int]
    until_ms: int
    previous_game_id: str


@dataclass
class RejoinCode(Body):
    SCHEMA: ClassVar[str] = "RejoinCode"
    game_id: str
    seat: int
    code: str


@dataclass
class GameOptionsView(Body):
    SCHEMA: ClassVar[str] = "GameOptionsView"
    ai_takeover: str | None
    hints: bool
    public: bool = False  # listed among the public tables (absent from older games: false)
    matched: bool = False  # made by quick match (absent: false)
    clock: str | None = None  # the time control's name


@dataclass
class TurnClock(Body):
    """The game's turn clock: whose runs (``seat``) until when (``deadline_ms``), by the server's time: time left is
    ``deadline_ms - GameView.server_time_ms``."""

    SCHEMA: ClassVar[str] = "TurnClock"
    control: str
    move_ms: int
    seat: int | None
    turn_started_ms: int | None
    deadline_ms: int | None
    reserve_ms: list[int]
    away: list[bool]


@dataclass
class FairPlay(Body):
    """A game made to count (rated play): whether it still counts (``reason``: ``aborted``, ``shared_client``),
    and the seats whose player forfeited (left or away after the first card: their side is placed last)."""

    SCHEMA: ClassVar[str] = "FairPlay"
    counts: bool
    reason: str | None
    forfeits: list[int]
    timed_out: list[int] | None = None  # those of ``forfeits`` lost to the clock (absent in older records)
    aborted_by: int | None = None  # the seat whose player aborted it


@dataclass
class PassExchange(Body):
    """House rules: the cards a seat gave in the nil exchange and (once every passing seat gave) received."""

    SCHEMA: ClassVar[str] = "PassExchange"
    gave: list[str]
    received: list[str]


@dataclass
class GameView(Body):
    """What one seat (or a spectator) may know of a game: the only input a bot gets."""

    SCHEMA: ClassVar[str] = "GameView"
    game_id: str
    version: int
    phase: str
    round: int
    dealer: int
    turn: int | None
    you: int | None
    hand: list[str] | None
    hand_sizes: list[int]
    legal: list[Legal]
    bids: list[int | None]
    tricks_won: list[int]
    leader: int | None
    trick: list[PlayedCard]
    tricks: list[Trick]
    last_trick: Trick | None
    spades_broken: bool
    scores: list[int]
    bags: list[int]
    rules: Rules
    history: list[Round]
    winner: list[int] | None
    seats: list[SeatInfo]
    options: GameOptionsView
    seeded: bool
    last_seq: int
    # The turn clock (null without one) and the server's time as the response left: count down from it.
    clock: TurnClock | None = None
    server_time_ms: int | None = None
    # House rules: present only when the game's rules have them.
    hand_hidden: bool | None = None
    legal_blind: list[int] | None = None
    blind: list[bool] | None = None
    pass_count: int | None = None
    passing_seats: list[int] | None = None
    passes: PassExchange | None = None
    # Table life: a rematch offered, a rematch's kept seats, and (only in get_game) the last quick messages.
    rematch: RematchLink | None = None
    reserved: SeatReservation | None = None
    messages: list[TableMessage] | None = None
    # Rated play: only in a game made to count.
    fair_play: FairPlay | None = None

    @property
    def my_turn(self) -> bool:
        """Whether this seat has a move to make now: a bid, a card, a blind decision (``legal`` is
        ``["look"]``, with ``legal_blind``) or cards to pass (``phase`` ``passing``; ``legal`` is the hand)."""
        return self.you is not None and self.turn == self.you and bool(self.legal or self.legal_blind)

    @property
    def blind_decision(self) -> bool:
        """Whether this seat must first decide to bid blind (``POST /blind``) or look at its hand."""
        return self.my_turn and bool(self.hand_hidden) and "look" in self.legal

    @property
    def passing(self) -> bool:
        """Whether this seat must give ``pass_count`` cards in the nil exchange (``POST /passes``)."""
        return self.my_turn and self.phase == "passing"

    @property
    def over(self) -> bool:
        return self.phase == "game_over"


@dataclass
class CreatedSeat(Body):
    SCHEMA: ClassVar[str] = "CreatedSeat"
    seat: int
    type: str
    level: str | None
    token: str | None = None


@dataclass
class CreatedGame(Body):
    SCHEMA: ClassVar[str] = "CreatedGame"
    game_id: str
    seats: list[CreatedSeat]
    state: GameView

    def token(self, seat: int) -> str:
        """The bearer token of a human seat (shown only in this response)."""
        token = self.seats[seat].token
        if token is None:
            raise ValueError(f"seat {seat} is {self.seats[seat].type}, not a human seat: it has no token")
        return token


@dataclass
class ClaimedSeat(Body):
    SCHEMA: ClassVar[str] = "ClaimedSeat"
    game_id: str
    seat: int
    token: str
    state: GameView


@dataclass
class Event(Body):
    SCHEMA: ClassVar[str] = "Event"
    seq: int
    type: str
    version: int
    data: dict[str, Any]


@dataclass
class EventPage(Body):
    SCHEMA: ClassVar[str] = "EventPage"
    game_id: str
    events: list[Event]
    last_seq: int
    server_time_ms: int | None = None


@dataclass
class HintResponse(Body):
    """The hint level's move (a ``HintMove``: ``{"bid"}``, ``{"card"}``; with the house rules ``{"look": true}``,
    ``{"bid", "blind": true}`` or ``{"pass": [...]}``) and its candidates, each such a move with its figures.
    ``spades_client.moves.as_move(hint.move)`` is the move to post."""

    SCHEMA: ClassVar[str] = "HintResponse"
    game_id: str
    seat: int
    version: int
    level: str
    move: dict[str, Any]
    candidates: list[dict[str, Any]]


@dataclass
class ReviewDecision(Body):
    """One decision of the reviewed seat: ``made`` and ``best`` are moves as a hint names them; ``trick`` is
    only on a card (absent for the bid, and for the house rules' blind decision and pass)."""

    SCHEMA: ClassVar[str] = "ReviewDecision"
    made: dict[str, Any]
    best: dict[str, Any]
    candidates: list[dict[str, Any]]
    trick: int | None = None
    given_away: float | None = None  # expected points the move gave away (None: not scored)
    accurate: bool | None = None  # within the accuracy margin of the best (None: not scored)


@dataclass
class ReviewAccuracy(Body):
    """The reviewed seat's scored decisions of the round added up (docs/api.md, "Accuracy")."""

    SCHEMA: ClassVar[str] = "ReviewAccuracy"
    decisions: int
    accurate_share: float | None
    mean_given_away: float | None
    cards: int
    mean_trick_excess: float | None


@dataclass
class RoundReview(Body):
    SCHEMA: ClassVar[str] = "RoundReview"
    game_id: str
    round: int
    seat: int
    level: str
    record: Round
    tricks: list[Trick]
    decisions: list[ReviewDecision]
    accuracy: ReviewAccuracy


@dataclass
class RuleOption(Body):
    SCHEMA: ClassVar[str] = "RuleOption"
    name: str
    type: str
    default: int | str | bool | None
    choices: list[str] | None
    description: str
    house: bool  # a house rule: off by default
    minimum: int | None = None
    maximum: int | None = None


@dataclass
class RulesCatalogue(Body):
    SCHEMA: ClassVar[str] = "RulesCatalogue"
    default_preset: str
    presets: dict[str, Any]
    options: list[RuleOption]
    preset_descriptions: dict[str, str] | None = None
    time_controls: list[TimeControl] | None = None
    default_time_control: str | None = None


@dataclass
class TimeControl(Body):
    SCHEMA: ClassVar[str] = "TimeControl"
    name: str
    move_seconds: int
    reserve_seconds: int
    description: str


@dataclass
class Level(Body):
    SCHEMA: ClassVar[str] = "Level"
    name: str
    seed: str
    description: str
    strength: int
    summary: str


@dataclass
class LevelsCatalogue(Body):
    SCHEMA: ClassVar[str] = "LevelsCatalogue"
    default_level: str
    hint_level: str
    levels: list[Level]


@dataclass
class RecordSeat(Body):
    SCHEMA: ClassVar[str] = "RecordSeat"
    seat: int
    type: str
    level: str | None
    won: bool
    player_id: str | None = None  # the seat's player (computer-<level> for a computer); absent in older records


@dataclass
class RecordRound(Round):
    """A finished round as recorded: the :class:`Round` with its 13 tricks in order."""

    SCHEMA: ClassVar[str] = "RecordRound"
    tricks: list[Trick] = field(kw_only=True)  # required: after Round's optional fields, so keyword-only


@dataclass
class RecordRoundInPlay(Body):
    """An abandoned game's unfinished round as a spectator saw it (never its deal)."""

    SCHEMA: ClassVar[str] = "RecordRoundInPlay"
    round: int
    dealer: int
    bids: list[int | None]
    tricks: list[Trick]
    trick: list[PlayedCard]


@dataclass
class RecordResult(Body):
    SCHEMA: ClassVar[str] = "RecordResult"
    winner: list[int] | None
    scores: list[int]
    bags: list[int]


@dataclass
class RecordRating(Body):
    """A rated seat's rating before and after its game (display ratings) and whether the one after was
    provisional, in a record read."""

    SCHEMA: ClassVar[str] = "RecordRating"
    seat: int
    player_id: str
    before: int
    after: int
    change: int
    provisional: bool


@dataclass
class RecordPlayer(Body):
    """Who sat at a seat, with the name as it is now, in a record read."""

    SCHEMA: ClassVar[str] = "RecordPlayer"
    seat: int
    id: str
    name: str
    kind: str


@dataclass
class GameRecordDocument(Body):
    """A game's record (format 1); ``rules`` is a plain dict so a record of any rule options reads."""

    SCHEMA: ClassVar[str] = "GameRecordDocument"
    format: int
    game_id: str
    version: int
    outcome: str
    created_at: str
    ended_at: str
    rules: dict[str, Any]
    options: dict[str, Any]
    seeded: bool
    seats: list[RecordSeat]
    rounds: list[RecordRound]
    round_in_play: RecordRoundInPlay | None
    result: RecordResult
    rated: bool | None = None  # whether the game counts for its players' ratings (absent in older records)
    fair_play: FairPlay | None = None  # a game made to count: whether it still counted, who forfeited
    ratings: list[RecordRating] | None = None  # a record read's, once the game is applied to its players
    players: list[RecordPlayer | None] | None = None  # a record read's: who sat where, names as they are now
    unrated_reason: str | None = None  # a record read's: why it moves no rating (the contract's enum)


@dataclass
class RecordSummarySeat(Body):
    SCHEMA: ClassVar[str] = "RecordSummarySeat"
    seat: int
    player: str
    won: bool
    player_id: str | None = None


@dataclass
class RecordSummary(Body):
    SCHEMA: ClassVar[str] = "RecordSummary"
    game_id: str
    outcome: str
    created_at: str
    ended_at: str
    seats: list[RecordSummarySeat]


@dataclass
class RecordPage(Body):
    SCHEMA: ClassVar[str] = "RecordPage"
    records: list[RecordSummary]
    next_cursor: str | None


@dataclass
class FieldError(Body):
    SCHEMA: ClassVar[str] = "FieldError"
    field: str
    message: str


@dataclass
class Problem(Body):
    """An ``application/problem+json`` body; ``code`` is stable, branch on it (the subtypes' fields included)."""

    SCHEMA: ClassVar[str] = "Problem"
    type: str
    title: str
    status: int
    detail: str
    code: str
    reason: str | None = None
    errors: list[FieldError] | None = None
    first_seq: int | None = None  # TooFarBehindProblem
    limit: int | None = None  # QuotaProblem
    ends_at: str | None = None  # PairingBannedProblem


MODELS: tuple[type[Body], ...] = (
    PlayedCard, Trick, Rules, Round, PlayerRef, SeatInfo, GameOptionsView, TurnClock, PassExchange, GameView, CreatedSeat,
    CreatedGame, ClaimedSeat, Event, EventPage, HintResponse, ReviewDecision, ReviewAccuracy, RoundReview, RuleOption,
    RulesCatalogue,
    TimeControl, Level,
    LevelsCatalogue, RecordSeat, RecordRound, RecordRoundInPlay, RecordResult, RecordRating, RecordPlayer, GameRecordDocument, RecordSummarySeat,
    RecordSummary, RecordPage, FieldError, Problem, TableMessage, RematchLink, SeatReservation, RejoinCode,
)  # fmt: skip
