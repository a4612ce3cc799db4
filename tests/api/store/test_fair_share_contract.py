"""The fair-share contract (:class:`services.api.store.fair_share.FairShareStore`): creators' holds on their games
in play and the watched and paused marks of computer-only games, with the same results on the memory store, one
Redis and the Redis Cluster.  Hold times lie far past now: Redis keeps a creator's holds until their last one."""

from __future__ import annotations

from services.api.store.fair_share import COMPUTER_GAMES, GAMES

NOW = 4_000_000_000.0  # Unix seconds, in 2096
UNTIL = NOW + 3600


def test_a_creator_holds_games_up_to_its_limit_and_a_release_frees_a_place(store, ids):
    creator, one, two, three = ids("c"), ids("g1"), ids("g2"), ids("g3")
    assert store.hold_game(creator, one, False, (2, 0), NOW, UNTIL) is None
    assert store.hold_game(creator, two, False, (2, 0), NOW, UNTIL) is None
    assert store.hold_game(creator, three, False, (2, 0), NOW, UNTIL) == GAMES
    store.release_game([creator], one)
    assert store.hold_game(creator, three, False, (2, 0), NOW, UNTIL) is None


def test_computer_only_games_have_their_own_limit_within_the_games_in_play(store, ids):
    creator = ids("c")
    assert store.hold_game(creator, ids("cpu1"), True, (3, 1), NOW, UNTIL) is None
    assert store.hold_game(creator, ids("cpu2"), True, (3, 1), NOW, UNTIL) == COMPUTER_GAMES
    assert store.hold_game(creator, ids("people1"), False, (3, 1), NOW, UNTIL) is None, "the refused one holds nothing"
    assert store.hold_game(creator, ids("people2"), False, (3, 1), NOW, UNTIL) is None
    assert store.hold_game(creator, ids("cpu3"), True, (3, 0), NOW, UNTIL) == GAMES, "both count as games in play"


def test_a_limit_of_zero_is_no_limit(store, ids):
    creator = ids("c")
    for n in range(5):
        assert store.hold_game(creator, ids(f"g{n}"), n % 2 == 0, (0, 0), NOW, UNTIL) is None


def test_a_held_game_held_again_is_accepted_and_counted_once(store, ids):
    creator, game = ids("c"), ids("g")
    assert store.hold_game(creator, game, True, (1, 1), NOW, UNTIL) is None
    assert store.hold_game(creator, game, True, (1, 1), NOW, UNTIL) is None, "a re-sent hold, at the limit"
    assert store.hold_game(creator, ids("other"), False, (2, 0), NOW, UNTIL) is None


def test_a_refusal_holds_nothing(store, ids):
    creator, one, refused, three = ids("c"), ids("g1"), ids("g2"), ids("g3")
    store.hold_game(creator, one, False, (1, 0), NOW, UNTIL)
    assert store.hold_game(creator, refused, False, (1, 0), NOW, UNTIL) == GAMES
    store.release_game([creator], one)
    assert store.hold_game(creator, three, False, (1, 0), NOW, UNTIL) is None
    assert store.hold_game(creator, ids("g4"), False, (2, 0), NOW, UNTIL) is None, "only the third and this one"


def test_a_hold_counts_until_its_end_and_not_after(store, ids):
    creator = ids("c")
    store.hold_game(creator, ids("expiring"), True, (1, 1), NOW, NOW + 10)
    assert store.hold_game(creator, ids("g"), False, (1, 0), NOW + 10, UNTIL) == GAMES, "ends at NOW + 10: held then"
    assert store.hold_game(creator, ids("cpu"), True, (1, 1), NOW + 10.5, UNTIL) is None, "ended: dropped"


def test_creators_hold_apart_and_a_release_spans_several(store, ids):
    creator, partner, game = ids("c"), ids("p"), ids("g")
    assert store.hold_game(creator, game, False, (1, 0), NOW, UNTIL) is None
    assert store.hold_game(partner, game, False, (1, 0), NOW, UNTIL) is None
    assert store.hold_game(partner, ids("h"), False, (1, 0), NOW, UNTIL) == GAMES
    store.release_game([creator, partner], game)
    assert store.hold_game(creator, ids("g2"), False, (1, 0), NOW, UNTIL) is None
    assert store.hold_game(partner, ids("g3"), False, (1, 0), NOW, UNTIL) is None
    store.release_game([creator], ids("never-held"))


def test_an_unwatched_game_is_paused_and_the_next_read_takes_the_mark(store, ids):
    game = ids("g")
    assert not store.pause_unless_watched(game)
    assert store.watch(game, 60), "this read sends the turn"
    assert not store.watch(game, 60), "taken once"


def test_a_watched_game_is_not_paused(store, ids):
    game = ids("g")
    assert not store.watch(game, 60), "nothing paused"
    assert store.pause_unless_watched(game)
    assert not store.watch(game, 60), "no mark was left"
