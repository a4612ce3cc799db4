"""Ratings in the records database: each finished game applied once (:mod:`.apply`), a player's standing
(:mod:`.standing`), the leaderboards (:mod:`.leaderboard`) and a player's games (:mod:`.player_games`)."""
