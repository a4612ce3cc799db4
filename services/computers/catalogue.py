"""The computer levels: the one list every layer reads.

Seed 000 describes easy, standard and pro (written for individual scoring);
seed 002 describes its own three for partnership play, named here basic,
normal and hard so that 002's "mudah" (easy) does not clash with 000's; expert is hard's
search given the time a person's opponent may take.
Each level is served by its own Celery queue, ``ai.<name>``, so cheap and
CPU-heavy levels scale apart; the turns of computer-only games (no person or
bot waiting on them) go to the level's bulk queue, ``ai.bulk.<name>``, which a
worker reads only when the level's own queue is empty (``WORKER_QUEUES``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Level:
    name: str
    seed: str  # the seed text that describes it
    description: str  # one line, for clients choosing an opponent: how it bids and plays
    simulates: bool  # decides by simulation: CPU-heavy, worth its own scaled workers
    strength: int  # 1 = weakest: the order of the partnership tournaments (docs/ai.md)
    summary: str  # one line in a player's words, no jargon


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level(
            "easy",
            "000",
            "Random: bids 1 to 4 at random and plays a random legal card.",
            False,
            1,
            "Plays any card at random: a gentle first game.",
        ),
        Level(
            "standard",
            "000",
            "Bids by simulating 100 deals; plays high to reach its bid, low once it is made.",
            True,
            3,
            "A steady player: bids carefully, plays high until its bid is made.",
        ),
        Level(
            "pro",
            "000",
            "Bids as standard; plays the card most (or least) likely to take the trick over 100 sampled deals.",
            True,
            4,
            "Like standard, and weighs each card by how likely it is to win the trick.",
        ),
        Level(
            "basic",
            "002",
            "Bids its aces and kings; plays its lowest legal card.",
            False,
            2,
            "Predictable: bids its aces and kings, always plays its lowest card.",
        ),
        Level(
            "normal",
            "002",
            "Counts tricks from high cards, suit length and spades; protects its partner's nil, attacks the "
            "opponents' nils and manages bags.",
            False,
            5,
            "A good partner: counts its tricks, covers a partner's nil, sets the other side's, avoids bags.",
        ),
        Level(
            "hard",
            "002",
            "Tracks the cards still out and searches the whole round for the best score for both teams' contracts.",
            True,
            6,
            "Remembers every card played and plans the whole round.",
        ),
        Level(
            "expert",
            "002",
            "Hard's search with four times the sampled deals, rollouts that attack nils, and the last five tricks "
            "of each sampled deal solved exactly.",
            True,
            7,
            "The strongest: plans like hard and thinks longer over every card.",
        ),
    )
}
LEVEL_NAMES: tuple[str, ...] = tuple(LEVELS)
DEFAULT_LEVEL = "standard"  # an AI seat without a level, and a leaver's stand-in by default
HINT_LEVEL = "expert"  # the strongest level answers hints and round reviews


def queue_of(level: str, bulk: bool = False) -> str:
    """The Celery queue that serves ``level``: ``ai.<level>`` for a game a person (or a bot) sits in,
    ``ai.bulk.<level>`` for a computer-only game (``bulk``)."""
    return f"ai.bulk.{level}" if bulk else f"ai.{level}"


QUEUES: tuple[str, ...] = tuple(queue_of(name) for name in LEVEL_NAMES)  # interactive: someone waits on them
BULK_QUEUES: tuple[str, ...] = tuple(queue_of(name, bulk=True) for name in LEVEL_NAMES)  # computer-only games
# What a worker serving every level consumes, in priority order (a worker polls them in this order):
# every interactive queue before any bulk one.
WORKER_QUEUES: tuple[str, ...] = QUEUES + BULK_QUEUES


def level_queues(level: str) -> tuple[str, str]:
    """The two queues a worker for ``level`` alone consumes, in priority order: interactive, then bulk."""
    return queue_of(level), queue_of(level, bulk=True)
