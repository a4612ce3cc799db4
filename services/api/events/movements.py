"""Movements as data: for each round, which pair sits North-South and which East-West at each table.

Every table of a round plays that round's deals (the same secret deals them), so a movement need only say who
meets whom where.  Pairs are numbered from 1, as a club's sheet numbers them.

* **Howell** (few pairs, up to :data:`HOWELL_MOST`): a complete round robin, every pair meets every other once
  in ``pairs - 1`` rounds, each pair sitting North-South in about half of them.  The tables below are the circle
  method's, each table's directions chosen to share North-South evenly, written out so a director reads them as the players will sit.
* **Mitchell** (more pairs): the North-South pairs stay at their tables, the East-West pairs move one table up
  each round, so ``pairs / 2`` rounds at most and no two pairs of one direction ever meet (results are ranked
  across both directions all the same: matchpoints compare a direction with itself).
"""

from __future__ import annotations

Table = tuple[int, int]  # (North-South pair, East-West pair)
Round = tuple[Table, ...]

HOWELL: dict[int, tuple[Round, ...]] = {
    4: (
        ((1, 4), (2, 3)),
        ((4, 2), (3, 1)),
        ((3, 4), (1, 2)),
    ),
    6: (
        ((1, 6), (2, 5), (3, 4)),
        ((6, 2), (1, 3), (4, 5)),
        ((3, 6), (2, 4), (5, 1)),
        ((4, 6), (5, 3), (1, 2)),
        ((6, 5), (4, 1), (2, 3)),
    ),
    8: (
        ((1, 8), (2, 7), (3, 6), (4, 5)),
        ((8, 2), (1, 3), (7, 4), (5, 6)),
        ((3, 8), (2, 4), (5, 1), (6, 7)),
        ((4, 8), (3, 5), (6, 2), (7, 1)),
        ((8, 5), (4, 6), (7, 3), (1, 2)),
        ((6, 8), (5, 7), (1, 4), (2, 3)),
        ((8, 7), (6, 1), (2, 5), (3, 4)),
    ),
}
HOWELL_MOST = max(HOWELL)
FEWEST_PAIRS = min(HOWELL)


def mitchell(pairs: int) -> tuple[Round, ...]:
    """Pairs 1..t sit North-South at tables 1..t for the whole event; East-West pair t + k starts at table k and
    moves one table up a round (``pairs`` even, t = pairs / 2)."""
    tables = pairs // 2
    return tuple(tuple((ns, tables + 1 + (ns - 1 - r) % tables) for ns in range(1, tables + 1)) for r in range(tables))


def movement(pairs: int) -> tuple[Round, ...]:
    """The movement for ``pairs`` pairs (an even count of at least :data:`FEWEST_PAIRS`)."""
    if pairs < FEWEST_PAIRS or pairs % 2:
        raise ValueError("a movement seats an even number of pairs, at least 4")
    return HOWELL[pairs] if pairs in HOWELL else mitchell(pairs)


def most_rounds(pairs: int) -> int:
    """How many rounds the movement for ``pairs`` has (an odd count is seated with a computer pair: one more)."""
    return len(movement(pairs + pairs % 2))
