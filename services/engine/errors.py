"""The engine's one error type and its stable codes."""

from __future__ import annotations

# Stable, machine-readable reasons a move is refused.  Clients branch on these.
NOT_YOUR_TURN = "not_your_turn"
WRONG_PHASE = "wrong_phase"
CARD_NOT_IN_HAND = "card_not_in_hand"
MUST_FOLLOW_SUIT = "must_follow_suit"
SPADES_NOT_BROKEN = "spades_not_broken"
BID_OUT_OF_RANGE = "bid_out_of_range"
TEAM_BID_TOO_LOW = "team_bid_too_low"
TEAM_BID_TOO_HIGH = "team_bid_too_high"
NIL_NOT_ALLOWED = "nil_not_allowed"
GAME_OVER = "game_over"
SUICIDE_BID = "suicide_bid"
BLIND_NOT_ALLOWED = "blind_not_allowed"
HAND_NOT_SEEN = "hand_not_seen"
WRONG_PASS = "wrong_pass"

MESSAGES: dict[str, str] = {
    NOT_YOUR_TURN: "It is not this seat's turn.",
    WRONG_PHASE: "That kind of move is not allowed in this phase of the game.",
    CARD_NOT_IN_HAND: "That card is not in this seat's hand.",
    MUST_FOLLOW_SUIT: "A card of the led suit must be played while the hand holds one.",
    SPADES_NOT_BROKEN: "Spades may not be led until a spade has been played on an earlier trick.",
    BID_OUT_OF_RANGE: "A bid is a number of tricks from 0 to 13.",
    TEAM_BID_TOO_LOW: "The partners' combined bid would be below the minimum team bid.",
    TEAM_BID_TOO_HIGH: "The partners' combined bid would exceed the maximum team bid.",
    NIL_NOT_ALLOWED: "Nil (a bid of 0) is not allowed in this game.",
    GAME_OVER: "The game is over.",
    SUICIDE_BID: "Suicide: one partner of each side bids nil and the other at least the minimum team bid (at least 1).",
    BLIND_NOT_ALLOWED: (
        "A blind bid is allowed only to a seat that has not seen its hand, when its side trails by the blind margin, "
        "and only as the rules allow (blind nil, blind bids)."
    ),
    HAND_NOT_SEEN: "This seat may bid blind: it must look at its hand (or bid blind) before bidding.",
    WRONG_PASS: "A nil exchange gives exactly the configured number of cards, all from the seat's hand.",
}
CODES = tuple(MESSAGES)


class EngineError(ValueError):
    """A move the rules refuse; ``code`` is one of :data:`CODES`."""

    def __init__(self, code: str, detail: str | None = None) -> None:
        super().__init__(detail or MESSAGES[code])
        self.code = code
        self.detail = detail or MESSAGES[code]
