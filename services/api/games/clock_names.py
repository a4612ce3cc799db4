"""The names of the time controls a quick match may ask for (``clock``), in one place.

The time controls themselves (each one's move time and reserve) are the catalogue of
``services/api/games/clocks.py``; this tuple lists their names for what only needs the names (the match
request's validation, the lobby's ``clock`` filter) and is to be taken from that catalogue where it exists.
A game created without a clock shows ``none``.
"""

from __future__ import annotations

TIME_CONTROLS = ("none", "fast", "normal", "relaxed", "correspondence")
NO_CLOCK = "none"
MATCH_DEFAULT_CLOCK = "normal"  # a quick match seats people together: a clock unless the request says none
