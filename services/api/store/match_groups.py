"""Who quick match seats together, pure: a bucket's waiting requests made into tables, a blocked pair never at one.

Each request carries the ids its player blocked (``avoid``, :attr:`MatchRequest.avoid`), so a pair is kept apart
when either blocked the other (:func:`kept_apart`) without a request carrying who blocked *it*.  A table is built
greedily (:func:`table_from`): its first request, then every later-arrived or earlier one in arrival order that
is kept apart from none chosen, up to four.  :func:`four` is the first full table from a first request among the
first :data:`SEEDS` waiting (with no blocks: the first four, as ever).  The memory store calls these;
``lua/matches/prelude.lua`` says the same rule in Lua, step for step (``tests/api/store/test_lobby_store.py`` runs
both on the same requests).
"""

from __future__ import annotations

from collections.abc import Sequence

from services.api.store.matches import MatchRequest

TABLE = 4
SEEDS = 16  # first requests a look tries for a table of four: bounds a script's work on a long queue


def kept_apart(a: MatchRequest, b: MatchRequest) -> bool:
    """Whether ``a`` and ``b`` never share a table: one's player blocked the other's."""
    if a.player is None or b.player is None:
        return False
    return a.player[0] in b.avoid or b.player[0] in a.avoid


def table_from(live: Sequence[MatchRequest], first: int, size: int = TABLE) -> list[int]:
    """The indexes (ascending: seats by arrival) of a table of up to ``size`` that seats ``live[first]``."""
    pick = [first]
    for index, request in enumerate(live):
        if len(pick) >= size:
            break
        if index != first and not any(kept_apart(request, live[chosen]) for chosen in pick):
            pick.append(index)
    return sorted(pick)


def four(live: Sequence[MatchRequest]) -> list[int] | None:
    """The first table of four among ``live`` (in arrival order), or None."""
    if len(live) < TABLE:
        return None
    for first in range(min(len(live), SEEDS)):
        pick = table_from(live, first)
        if len(pick) == TABLE:
            return pick
    return None
