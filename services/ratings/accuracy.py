"""Accuracy: a player's moves scored against expert's evaluation of the same position from the player's seat.

Pure, no I/O.  Expert's analysis of a decision (``ai.hint``'s answer, :func:`services.ai_worker.levels.hard.analysis`)
gives each candidate move its expected worth to the seat's side (``value``: the round's points for its side
against the other's, bags charged, the end of the game weighed) as expert sees it from that seat's view alone.
For the move made:

- **points given away** = the best candidate's value − the made move's value (never below 0);
- **accurate** = given away at most :data:`MARGIN` points.

A decision with one legal move, or whose made move expert did not weigh (a nil exchange's set outside its
shortlist), is not scored.  A game's (or a player's) accuracy is the share of its scored decisions that were
accurate and the mean points given away per scored decision.

The margin is what one expert analysis cannot tell apart: expert's own moves, scored by an analysis of the same
view with another seed, give away a little by sampling alone (``docs/ai.md``, "Accuracy"); half a bag's charge
(5 points) is above that noise for most decisions and below any real mistake (a trick is 10 points).

**Tricks beyond the view** (a card's ``trick_excess``): whether the card's side took the trick (1 or 0) minus expert's
chance, from the seat's view, that the side takes it with that card (the candidate's ``trick_chance``).  Whatever a
player's strength, a player who sees only its view takes, on average, the tricks its view gives it: the levels' mean
excess stays near 0 (``docs/ai.md``, "Accuracy").  A player who sees the other hands picks the cards that do take
the trick, and its excess is well above.  The share of accurate moves can't tell it: a card-seer plays moves
expert's view rates below its best (a finesse that wins only because it knows where the king is), so its share is
below the strong levels'.

**The flag** (:func:`beyond_levels`): after at least :data:`FLAG_MIN_GAMES` scored rated games, a player whose pooled
mean excess per scored card is above :data:`LEVEL_CEILING_EXCESS` (the highest any level reaches from its own view,
``python -m benchmarks.accuracy``) by more than :data:`FLAG_Z` standard errors (a card's excess has a variance of at
most 1/4) is flagged: its cards take more tricks than any view explains.

**True-deal agreement**: once a round is over its deal is public, so a card decision whose value on the true deal
is exact is also scored against it (a card's ``true_agrees``): a partnership game's card with at most
:data:`TRUE_DEAL_FROM` tricks left (:func:`true_deal_scored`), each legal card valued with the rest of the round
solved exactly on the true deal (:mod:`services.ai_worker.true_deal`, which values no other card; an individual
game's cards are never scored).  The card agrees when its true-deal value is within :data:`TRUE_MARGIN` of the best
legal card's; a decision whose legal cards are all worth the same on the true deal (within the margin) tells nothing
and is not scored.  A player who sees only its view picks from sampled deals and agrees with the true deal only as
far as its view guesses it; a player who sees the other hands agrees more.  After at least :data:`FLAG_MIN_GAMES`
scored rated games, a player whose pooled agreement is above :data:`LEVEL_CEILING_AGREEMENT` (the best level's,
``python -m benchmarks.accuracy``) by more than :data:`FLAG_Z` standard errors (of a share of that many cards at
the ceiling) is flagged (:func:`beyond_levels`: either rule flags).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

MARGIN = 5.0  # points a move may give away and still be accurate (half a bag's 10-point charge)
FIGURES = ("value", "make_chance", "trick_chance")  # a candidate's figures; the rest of it is the move
# The levels' ceiling and the flag rule: docs/ai.md ("Accuracy") has the table these come from.
LEVEL_CEILING_EXCESS = 0.03  # the highest mean trick excess per card a level reaches from its own view
FLAG_MIN_GAMES = 5  # scored rated games before a player can be flagged
FLAG_Z = 3.0  # standard errors above the ceiling: about one chance in 740 for a player at the ceiling
# True-deal agreement (module doc): docs/ai.md ("Accuracy") has the table these come from.
TRUE_MARGIN = 5.0  # points a card may give away on the true deal and still agree (as MARGIN)
# The best level's share of its cards from 8 tricks left agreeing with the true deal, p = 0.727 over n = 956 cards
# (expert), plus two standard errors of that figure, rounded up: ceil(100 * (p + 2 * sqrt(p * (1 - p) / n))) / 100.
LEVEL_CEILING_AGREEMENT = 0.76
TRUE_DEAL_FROM = 8  # tricks left from which a card is scored on the true deal (services.ai_worker.true_deal)
LEAN_MIN = 0.01  # a card's trick chance this close to the candidates' mean leans no way
KIND = "accuracy"  # the flag's kind


@dataclass(frozen=True, slots=True)
class Scored:
    """One scored decision."""

    given_away: float
    accurate: bool
    trick_excess: float | None = None  # a card: its side took the trick (1/0) − expert's chance it would


@dataclass(frozen=True, slots=True)
class Accuracy:
    """Scored decisions added up: ``decisions`` scored, ``accurate`` of them, ``given_away`` in all; ``cards`` with a
    trick excess and its sum (``trick_excess``); ``true_cards`` scored on the true deal, ``true_agreed`` of them."""

    decisions: int = 0
    accurate: int = 0
    given_away: float = 0.0
    cards: int = 0
    trick_excess: float = 0.0
    true_cards: int = 0
    true_agreed: int = 0

    @property
    def share(self) -> float | None:
        return self.accurate / self.decisions if self.decisions else None

    @property
    def mean_given_away(self) -> float | None:
        return self.given_away / self.decisions if self.decisions else None

    @property
    def mean_trick_excess(self) -> float | None:
        return self.trick_excess / self.cards if self.cards else None

    @property
    def true_agreement(self) -> float | None:
        return self.true_agreed / self.true_cards if self.true_cards else None

    def __add__(self, other: Accuracy) -> Accuracy:
        return Accuracy(
            self.decisions + other.decisions,
            self.accurate + other.accurate,
            self.given_away + other.given_away,
            self.cards + other.cards,
            self.trick_excess + other.trick_excess,
            self.true_cards + other.true_cards,
            self.true_agreed + other.true_agreed,
        )

    def figures(self) -> dict[str, Any]:
        """As JSON: decisions, share accurate and mean points given away, trick excess, true-deal agreement
        (rounded)."""
        share, mean, excess, agreement = self.share, self.mean_given_away, self.mean_trick_excess, self.true_agreement
        return {
            "decisions": self.decisions,
            "accurate_share": None if share is None else round(share, 4),
            "mean_given_away": None if mean is None else round(mean, 3),
            "cards": self.cards,
            "mean_trick_excess": None if excess is None else round(excess, 4),
            "true_cards": self.true_cards,
            "true_agreement": None if agreement is None else round(agreement, 4),
        }


def move_of(candidate: Mapping[str, Any]) -> dict[str, Any]:
    """A candidate's move (its figures left out), normalised for comparison (a pass's cards as a sorted list)."""
    move = {key: value for key, value in candidate.items() if key not in FIGURES}
    if "pass" in move:
        move["pass"] = sorted(move["pass"])
    if move.get("blind") is False:
        del move["blind"]
    return move


def score(
    candidates: Sequence[Mapping[str, Any]], made: Mapping[str, Any], took_trick: bool | None = None
) -> Scored | None:
    """The made move scored against expert's ``candidates``; None when not scored (see the module doc).
    ``took_trick``: for a card, whether its side took the trick (None: not known, no excess)."""
    valued = [c for c in candidates if isinstance(c.get("value"), int | float)]
    if len(valued) < 2:
        return None
    wanted = move_of(made)
    mine = next((c for c in valued if move_of(c) == wanted), None)
    if mine is None:
        return None
    given = max(0.0, max(float(c["value"]) for c in valued) - float(mine["value"]))
    return Scored(round(given, 2), given <= MARGIN, trick_excess(valued, mine, took_trick))


def trick_excess(
    candidates: Sequence[Mapping[str, Any]], mine: Mapping[str, Any], took_trick: bool | None
) -> float | None:
    """A card's trick excess (module doc): (took − its chance), signed by which way the card leaned among the
    candidates (+ for a card likelier than their mean to take the trick, − for one less likely); None when the
    outcome or the chances are unknown or every candidate has the same chance (the card leaned no way)."""
    chances = [c.get("trick_chance") for c in candidates]
    if took_trick is None or not all(isinstance(c, int | float) for c in chances):
        return None
    mean = sum(chances) / len(chances)
    lean = float(mine["trick_chance"]) - mean
    if abs(lean) < LEAN_MIN:
        return None
    return round((float(took_trick) - float(mine["trick_chance"])) * (1 if lean > 0 else -1), 3)


def true_deal_scored(view: Mapping[str, Any]) -> bool:
    """Whether a card decision of this view (the seat's, with more than one legal card) is scored on the true deal
    (module doc): a partnership game's, with at most :data:`TRUE_DEAL_FROM` tricks left."""
    return len(view["hand"]) <= TRUE_DEAL_FROM and view["rules"]["scoring"] == "partnership"


def true_agrees(candidates: Sequence[Mapping[str, Any]], made: Mapping[str, Any]) -> bool | None:
    """Whether the made card agrees with the true deal (module doc), given the true-deal ``candidates`` (each legal
    card with its ``value``); None when not scored: fewer than two valued cards, the made card not among them, or
    every card within :data:`TRUE_MARGIN` of the best."""
    values = {c.get("card"): c.get("value") for c in candidates}
    valued = [v for v in values.values() if isinstance(v, int | float) and not isinstance(v, bool)]
    mine = values.get(made.get("card"))
    if len(valued) < 2 or len(valued) != len(values) or mine is None:
        return None
    best = max(valued)
    if min(valued) >= best - TRUE_MARGIN:
        return None
    return float(mine) >= best - TRUE_MARGIN


def total(scored: Iterable[Scored | None], true: Iterable[bool | None] = ()) -> Accuracy:
    """The scored decisions (None: not scored) added up, with ``true``: cards' true-deal agreement (:func:`true_agrees`;
    None: not scored)."""
    decisions = accurate = cards = true_cards = true_agreed = 0
    given = excess = 0.0
    for each in scored:
        if each is not None:
            decisions += 1
            accurate += each.accurate
            given += each.given_away
            if each.trick_excess is not None:
                cards += 1
                excess += each.trick_excess
    for agrees in true:
        if agrees is not None:
            true_cards += 1
            true_agreed += agrees
    return Accuracy(decisions, accurate, round(given, 2), cards, round(excess, 3), true_cards, true_agreed)


def flag_threshold(cards: int, ceiling: float = LEVEL_CEILING_EXCESS, z: float = FLAG_Z) -> float:
    """The mean trick excess over ``cards`` cards above which a player is beyond the levels: the ceiling plus ``z``
    standard errors of a mean of that many cards (each of variance at most 1/4)."""
    return ceiling + z * 0.5 / math.sqrt(max(cards, 1))


def agreement_threshold(cards: int, ceiling: float = LEVEL_CEILING_AGREEMENT, z: float = FLAG_Z) -> float:
    """The true-deal agreement over ``cards`` scored cards above which a player is beyond the levels: the ceiling
    plus ``z`` standard errors of a share of that many cards at the ceiling."""
    return ceiling + z * math.sqrt(ceiling * (1 - ceiling) / max(cards, 1))


def beyond_levels(
    games: Sequence[Accuracy],
    min_games: int = FLAG_MIN_GAMES,
    ceiling: float = LEVEL_CEILING_EXCESS,
    z: float = FLAG_Z,
    agreement_ceiling: float = LEVEL_CEILING_AGREEMENT,
) -> bool:
    """Whether a player's scored rated games (``games``, one :class:`Accuracy` each) flag them (module doc): its
    pooled trick excess or its pooled true-deal agreement beyond the levels'."""
    if len(games) < min_games:
        return False
    pooled = sum(games, Accuracy())
    if pooled.cards and pooled.trick_excess / pooled.cards > flag_threshold(pooled.cards, ceiling, z):
        return True
    return bool(pooled.true_cards) and pooled.true_agreed / pooled.true_cards > agreement_threshold(
        pooled.true_cards, agreement_ceiling, z
    )
