"""Who an open connection shows events to (services.api.games.audience), on the in-memory store: a seat's private
parts only while its token holds the seat.  Over HTTP with two servers: tests/api/http/test_seat_handover.py."""

from __future__ import annotations

from typing import Any

import pytest

from services.api.games import commands
from services.api.games.audience import Audience
from services.api.games.commands import Collaborators
from services.api.games.record import GameRecord
from services.api.http import request_schemas
from services.api.store.memory_store import MemoryStore


def entry(seq: int, kind: str, version: int, seat: int = 0, private: dict[str, Any] | None = None) -> dict[str, Any]:
    made: dict[str, Any] = {"seq": seq, "type": kind, "version": version, "data": {"seat": seat}}
    if private:
        made["private"] = private
    return made


HANDS = {"0": {"hand": ["AS"]}, "1": {"hand": ["KD"]}}


class Holder:
    """A seat's current token hash, as the store would answer; counts the reads."""

    def __init__(self, token_hash: str | None) -> None:
        self.token_hash = token_hash
        self.reads = 0

    def __call__(self) -> str | None:
        self.reads += 1
        return self.token_hash


def test_a_spectator_sees_no_private_part_and_never_ends():
    audience = Audience(None)
    shown = audience.admit([entry(1, "round_started", 1, private=HANDS), entry(2, "seat_left", 2)])
    assert [e["data"] for e in shown] == [{"seat": 0}, {"seat": 0}] and not audience.ended


def test_a_seat_sees_its_own_private_part_with_one_holder_read_per_version():
    holder = Holder("h")
    audience = Audience(1, "h", 3, holder)
    old = entry(1, "round_started", 2, private=HANDS)  # before the connection opened: no read
    dealt = [entry(2, "exchange_done", 5, private=HANDS), entry(3, "hand_shown", 5, seat=1, private=HANDS)]
    shown = audience.admit([old, *dealt, entry(4, "bid", 6)])
    assert [e["data"].get("hand") for e in shown] == [["KD"], ["KD"], ["KD"], None]
    assert "private" not in str(shown) and holder.reads == 1 and not audience.ended


@pytest.mark.parametrize("kind", ["seat_left", "seat_claimed", "seat_rejoined", "seat_released"])
def test_the_change_of_its_seats_holder_after_it_opened_is_the_last_entry(kind):
    audience = Audience(0, "h", 3, Holder("h"))
    earlier = entry(1, kind, 3)  # the change that gave the seat to this token: before it opened
    others = entry(2, kind, 4, seat=1)  # another seat's change
    shown = audience.admit([earlier, others, entry(3, kind, 5), entry(4, "bid", 6)])
    assert [e["seq"] for e in shown] == [1, 2, 3] and audience.ended
    assert audience.admit([entry(5, "bid", 7)]) == [], "an ended audience admits nothing more"


def test_a_private_part_after_the_credential_changed_unseen_is_withheld():
    """A client that started past the change (``after`` beyond the log's head) never reads its event: the read of
    the seat's holder before the next private part stops it there."""
    holder = Holder("someone else")
    audience = Audience(0, "h", 3, holder)
    shown = audience.admit([entry(7, "bid", 4), entry(8, "round_started", 5, private=HANDS), entry(9, "bid", 6)])
    assert [e["seq"] for e in shown] == [7] and audience.ended and holder.reads == 1


def test_a_game_gone_from_the_store_holds_no_seat():
    audience = Audience(0, "h", 1, Holder(None))
    assert audience.admit([entry(2, "round_started", 2, private=HANDS)]) == [] and audience.ended


def test_on_the_store_a_leave_and_a_stranger_claim_end_the_old_tokens_audience():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored))
    seats = [{"type": "human"}] * 3 + [{"type": "open"}]
    body = request_schemas.CREATE_GAME_REQUEST.load({"seats": seats, "options": {"ai_takeover": None, "clock": "none"}})
    created = commands.create_game(ctx, body)
    game_id, token = created["game_id"], created["seats"][0]["token"]
    opened = ctx.store.load(game_id)
    commands.leave_seat(ctx, game_id, 0, token)
    commands.claim_seat(ctx, game_id, 0)  # a stranger
    commands.claim_seat(ctx, game_id, 3)  # the last open seat: round 1 is dealt
    log = ctx.store.events_after(game_id, opened.seq, 100)
    assert [e["type"] for e in log] == ["seat_left", "seat_claimed", "seat_claimed", "round_started"]

    following = Audience.of(ctx.store, opened, 0, token)
    assert [e["type"] for e in following.admit(log)] == ["seat_left"] and following.ended
    skipped = Audience.of(ctx.store, opened, 0, token)  # started after the claims: read the store, stopped
    assert skipped.admit(log[3:]) == [] and skipped.ended
    seat1 = Audience.of(ctx.store, opened, 1, created["seats"][1]["token"])
    assert seat1.admit(log)[-1]["data"]["hand"] and not seat1.ended, "another seat's change ends nothing"
