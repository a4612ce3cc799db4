"""``benchmarks.fair_play --quick``: a small population and its rings play through the matchmaker, the fair-play
rules and the real ``apply_record`` on SQLite; the JSON has its figures and the rings are caught."""

from __future__ import annotations

import json

from benchmarks import fair_play as fp
from benchmarks.fair_play_games import FAST_THROW, SLOW_THROW, key_of, keys, play_state, thrower

RING_FIGURES = {
    "members", "games", "games_held", "in_top50", "flagged", "held", "highest_shown", "banned", "hours_to_first_flag",
    "ratings",
}  # fmt: skip


def test_a_quick_run_catches_every_ring(capsys, tmp_path):
    report = fp.main(["--quick", "--database", str(tmp_path / "records.sqlite3")])
    assert json.loads(capsys.readouterr().out) == report
    assert report["players"] == 120 and report["games_applied"] > 1000 and report["games_rated"] > 0
    assert set(report["rings"]) == set(fp.STRATEGIES)
    for figures in report["rings"].values():
        assert set(figures) == RING_FIGURES and figures["members"] == 5 and not figures["in_top50"]
        for member in figures["ratings"].values():
            assert not member["above_earned"]
    rings = report["rings"]
    for strategy in ("fast_throw_one_address", "fast_throw_addresses", "slow_throw_addresses"):
        assert rings[strategy]["flagged"] == 5 and rings[strategy]["hours_to_first_flag"] is not None
    assert rings["fast_throw_addresses"]["games_held"] > 0  # counted games, held once the ring is flagged
    assert rings["one_round"]["games"] == report["refused_by_may_count"] > 0  # never made to count
    assert all(m["display"] is None for m in rings["one_round"]["ratings"].values())
    assert rings["leave_when_losing"]["banned"] == 5 and rings["stand_in"]["banned"] == 5
    honest = report["honest"]
    assert 0 <= honest["ever_banned_share"] <= 1 and 0 <= honest["ever_flagged_share"] <= 1
    assert report["top50"]["ring_members"] == []
    after = report["after_operator"]  # every ring flag confirmed, every honest one cleared, as an operator would
    assert after["flags"]["confirmed"] > 0 and after["games_removed"] > 0
    assert set(after["rings"]) == set(fp.STRATEGIES)
    for strategy in ("fast_throw_one_address", "fast_throw_addresses", "slow_throw_addresses"):
        assert rings[strategy]["held"] == 5 and rings[strategy]["highest_shown"] is None, "held from the flag on"
        closed = after["rings"][strategy]
        assert (closed["held"]["closed"], closed["highest_shown"], closed["members_above_earned"]) == (5, None, 0)


def test_pool_keys_and_seatings_agree():
    assert len(keys(fp.BACKERS)) == 231  # 21 teams of six backers, every pair of them
    assert key_of(("pro", "easy", "basic", "easy")) == key_of(("easy", "basic", "easy", "pro"))
    seated = ["a", "b", "c", "d"]
    placed = fp._placed(seated, ["pro", "easy", "basic", "normal"], ["easy", "basic", "normal", "pro"])
    assert set(placed[0::2]) == {"b", "d"} and placed[1] == "c" and placed[3] == "a"  # teams kept, backers matched


def test_throwers_lose_fast_or_slowly():
    fast = play_state((("easy", "easy", "easy", "easy"), 3, FAST_THROW, 60))["document"]
    assert fast["result"]["winner"] == [0, 2] and len(fast["rounds"]) == 1
    slow = play_state((("easy", "easy", "easy", "easy"), 3, SLOW_THROW, 60))["document"]
    assert slow["result"]["winner"] == [0, 2] and len(slow["rounds"]) > 3
    bid = thrower(SLOW_THROW)({"phase": "bidding", "legal": list(range(14))})
    assert bid == {"bid": 3}
