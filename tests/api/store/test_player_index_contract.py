"""The player-index contract (:class:`services.api.store.player_index.PlayerIndex`): each player's games, the most
lately noted first, kept to the newest ``MOST_GAMES``, forgotten one by one, with the same results on the memory
store, one Redis and the Redis Cluster."""

from __future__ import annotations

import pytest

from services.api.store.player_index import MOST_GAMES


def test_games_come_most_lately_noted_first_and_a_note_again_moves_one_up(store, ids):
    player, one, two = ids("p"), ids("g1"), ids("g2")
    assert store.player_games(player) == []
    store.note_player_game(player, one, 1000)
    store.note_player_game(player, two, 2000)
    assert store.player_games(player) == [two, one]
    store.note_player_game(player, one, 3000)
    assert store.player_games(player) == [one, two]


def test_players_are_apart_and_forgetting_drops_only_the_games_named(store, ids):
    ada, bea, game, other = ids("ada"), ids("bea"), ids("g"), ids("other")
    store.note_player_game(ada, game, 1000)
    store.note_player_game(ada, other, 1000)
    store.note_player_game(bea, game, 1000)
    store.forget_player_games(ada, [game, ids("never-noted")])
    assert store.player_games(ada) == [other]
    assert store.player_games(bea) == [game]
    store.forget_player_games(ada, [])
    store.forget_player_games(ada, [other])
    assert store.player_games(ada) == []


@pytest.mark.parametrize("extra", [1, 3])
def test_a_player_keeps_only_the_newest_games(store, ids, extra):
    player = ids("p")
    games = [ids(f"g{n}") for n in range(MOST_GAMES + extra)]
    for n, game in enumerate(games):
        store.note_player_game(player, game, 1000 + n)
    assert store.player_games(player) == games[::-1][:MOST_GAMES]
