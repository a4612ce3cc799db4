"""Provisional ratings: a rating the model is not yet sure of, shown with a "?" and kept off the leaderboards.

A rating is provisional while its uncertainty ``sigma`` is above :data:`PROVISIONAL_SIGMA` or it has fewer than
:data:`PROVISIONAL_GAMES` rated games on its board.  The numbers come from the rating run of the levels
(``python -m benchmarks.ratings``; docs/ai.md, "How sigma falls with games"):

- **sigma 4.0**, about half the starting 8.33.  The shown rating is ``1500 + 40 × (mu − 3·sigma)``, so it rises
  as sigma falls; an active player's sigma settles near 1.7 (the run's bot, which takes the drift people take),
  and from 4.0 the rise still to come, 3 × 40 × (4.0 − 1.7) ≈ 280, is about one step between the run's levels
  (262 from standard to normal, 283 from normal to hard).  Every player who keeps playing gets under it: in
  the run a partnership player's sigma reaches it after 72 to 86 games, every player new at the start.
- **30 games**, lichess's count for its leaderboards.  In partnership sigma is still above 4.0 after 30 games
  (5.5 in the run), but on the individual board three opponents a game bring four new players' sigma under
  4.0 in about a dozen games, and a dozen lucky games should not put anyone on a leaderboard.

The leaderboards' buckets count only ratings that are not provisional (:mod:`services.ratings.buckets`), so a
provisional player is in nobody's rank; a stored flag and the buckets are counted again when :data:`RULE`
changes (:mod:`services.api.ratings.recount`).
"""

from __future__ import annotations

from services.ratings.model import Rating

PROVISIONAL_SIGMA = 4.0  # provisional while sigma is above this
PROVISIONAL_GAMES = 30  # ... or while the rating has fewer rated games than this
RULE = f"sigma<={PROVISIONAL_SIGMA:g},games>={PROVISIONAL_GAMES}"  # what a stored flag was computed by


def provisional(rating: Rating, games: int) -> bool:
    """Whether a rating after ``games`` rated games is provisional (see the module doc)."""
    return rating.sigma > PROVISIONAL_SIGMA or games < PROVISIONAL_GAMES


def off_board(rating: Rating, games: int, held: bool) -> bool:
    """Whether a rating is on no leaderboard (the stored ``provisional`` flag): provisional, or its player held by
    the fair-play watch (``services.api.ratings.watch.holds``)."""
    return held or provisional(rating, games)
