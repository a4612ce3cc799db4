"""Bidding rules: the range, nil, and the partnership's combined bid."""

from __future__ import annotations

from . import errors as E
from .rules import Rules

MAX_BID = 13


def partner_of(seat: int) -> int:
    return (seat + 2) % 4


def _second_partner_error(rules: Rules, first: int, bid: int) -> str | None:
    """Why the second partner may not bid ``bid`` after the first bid ``first``."""
    if bid != 0 and first != 0 and first + bid < rules.min_team_bid:
        return E.TEAM_BID_TOO_LOW
    if first + bid > rules.max_team_bid:
        return E.TEAM_BID_TOO_HIGH
    return None


def suicide_minimum(rules: Rules) -> int:
    """Suicide: the smallest bid of the partner who does not bid nil."""
    return max(1, rules.min_team_bid)


def _suicide_error(rules: Rules, partner_bid: int | None, bid: int) -> str | None:
    """Suicide: exactly one partner of each side bids nil, the other at least :func:`suicide_minimum`."""
    if partner_bid is None:
        ok = bid == 0 or bid >= suicide_minimum(rules)
    elif partner_bid == 0:
        ok = bid >= suicide_minimum(rules)
    else:
        ok = bid == 0
    return None if ok else E.SUICIDE_BID


def bid_error(rules: Rules, bids: tuple[int | None, ...], seat: int, bid: int) -> str | None:
    """The reason ``seat`` may not bid ``bid`` given the bids so far, or None.

    In partnership play the second partner to bid is held to the minimum team
    bid (unless either partner bids nil) and the maximum team bid; the first
    partner may not bid so that no legal bid is left for the second.  Suicide
    adds its own rule (:func:`_suicide_error`).
    """
    if not 0 <= bid <= MAX_BID:
        return E.BID_OUT_OF_RANGE
    if bid == 0 and not rules.nil:
        return E.NIL_NOT_ALLOWED
    if not rules.partnership:
        return None
    partner_bid = bids[partner_of(seat)]
    if rules.suicide:
        suicide = _suicide_error(rules, partner_bid, bid)
        if suicide is not None:
            return suicide
    if partner_bid is not None:
        return _second_partner_error(rules, partner_bid, bid)
    if bid > rules.max_team_bid:
        return E.TEAM_BID_TOO_HIGH
    if all(_second_partner_error(rules, bid, b) or (b == 0 and not rules.nil) for b in range(MAX_BID + 1)):
        return E.TEAM_BID_TOO_HIGH
    return None


def legal_bids(rules: Rules, bids: tuple[int | None, ...], seat: int) -> list[int]:
    """Every bid ``seat`` may make now, lowest first."""
    return [b for b in range(MAX_BID + 1) if bid_error(rules, bids, seat, b) is None]
