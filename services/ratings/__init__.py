"""Ratings: the rating model (openskill's Weng-Lin models), which games are rated and what a game adds to a
player's stats — pure functions over plain data, like the engine; the records database applies them
(:mod:`services.api.ratings`)."""
