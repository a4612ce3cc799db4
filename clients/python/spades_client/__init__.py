"""A client for the Spades game service's /v1 API, and a runner for bots (see docs/bots.md)."""

from spades_client import moves
from spades_client.client import OPERATIONS, SpadesClient
from spades_client.errors import (
    Conflict,
    GameInPlay,
    IllegalMove,
    InvalidRequest,
    InvalidRules,
    NotFound,
    NotYourTurn,
    PairingBanned,
    ProblemError,
    Retryable,
    SeatNotYours,
    SeededGamesDisabled,
    TooFarBehind,
    Unauthorized,
    VersionConflict,
)  # fmt: skip
from spades_client.lobby import Match, MatchCreated, PublicTable, TableChange, TablesPage
from spades_client.models import CreatedGame, Event, GameRecordDocument, GameView, Problem, RecordPage, Round, Rules
from spades_client.moves import Move, as_move, bid, blind_bid, card, look, pass_cards
from spades_client.operator import DecidedFairPlayFlag, FairPlayFlag, FairPlayFlagsPage
from spades_client.players import CreatedPlayer, LiveGame, Player, PlayerAccuracy, PlayerRating, PlayerStats
from spades_client.ratings import Leaderboard, PlayerGame, PlayerGamesPage
from spades_client.runner import Bot, GamePlayer, Runner

__all__ = [
    "OPERATIONS",
    "Bot",
    "Conflict",
    "CreatedGame",
    "CreatedPlayer",
    "DecidedFairPlayFlag",
    "Event",
    "FairPlayFlag",
    "FairPlayFlagsPage",
    "GameInPlay",
    "GamePlayer",
    "GameRecordDocument",
    "GameView",
    "IllegalMove",
    "InvalidRequest",
    "InvalidRules",
    "Leaderboard",
    "LiveGame",
    "Match",
    "MatchCreated",
    "Move",
    "NotFound",
    "NotYourTurn",
    "PairingBanned",
    "Player",
    "PlayerAccuracy",
    "PlayerGame",
    "PlayerGamesPage",
    "PlayerRating",
    "PlayerStats",
    "Problem",
    "ProblemError",
    "PublicTable",
    "RecordPage",
    "Retryable",
    "Round",
    "Rules",
    "Runner",
    "SeatNotYours",
    "SeededGamesDisabled",
    "SpadesClient",
    "TableChange",
    "TablesPage",
    "TooFarBehind",
    "Unauthorized",
    "VersionConflict",
    "as_move",
    "bid",
    "blind_bid",
    "card",
    "look",
    "moves",
    "pass_cards",
]  # fmt: skip
