"""The fair-play watch's rules (docs/api.md, "Fair play"): each player's outcome in a game made to count, the
pairing bans bad outcomes earn, and the patterns that flag a player for an operator's review.

Plain functions over plain data; :mod:`services.api.ratings.watch` keeps the outcomes, bans and flags in the
records database and calls them as each finished game is applied.

- **Outcomes** (:func:`outcome`): a person's game made to count ends as *played* (played out), *aborted* (they
  left or were away before the first card), *left* or *timed_out* (a forfeit after it, by leaving or by the
  clock) or *lost_fast* (played out, but their side lost within :data:`FAST_ROUNDS` rounds per 500 points of
  the winning score: a 500-point game takes many more, and one lost that fast is thrown or hopeless).  A player's last :data:`KEPT_OUTCOMES` are
  kept.
- **Pairing bans** (:func:`ban_ms`): after a bad outcome (aborted, left, timed out), a player with at least
  :data:`BAN_MIN_BAD` of them among their outcomes since their last ban (within :data:`OUTCOME_WINDOW_MS`, at most
  :data:`KEPT_OUTCOMES`), making at least :data:`BAN_MIN_SHARE` of them, is banned from quick matches and public
  tables: :data:`FIRST_BAN_MS`, times :data:`ESCALATION` for each ban that started within
  :data:`ESCALATION_WINDOW_MS` (decay: older bans are forgotten), twice as long for a new account (fewer than
  :data:`NEW_ACCOUNT_GAMES` outcomes), never more than :data:`MAX_BAN_MS`.  An honest player who drops a game
  now and then (7 % bad outcomes) is banned with a probability under 1 % over 30 games (binomial tail of 4 in
  30 at 25 %+ share, measured by ``benchmarks.fair_play``).
- **Flags**: *sandbagging* (:func:`sandbagging`): :data:`FLAG_FAST` games lost fast within :data:`FAST_WINDOW_MS`;
  *boosting* (:func:`boosting`), over people only (a computer level is the same opponent to everyone):
  :data:`FLAG_FAST` fast wins over one opponent within :data:`FAST_WINDOW_MS`; :data:`FLAG_REPEATED` wins over
  one opponent, with none lost to them, within :data:`REPEAT_WINDOW_MS`; or a *closed group*: within
  :data:`OUTCOME_WINDOW_MS`, :data:`FLAG_GROUP_GAMES` games against none but *regulars* (opponents met
  :data:`FLAG_GROUP_MEETINGS` times or more), at most :data:`FLAG_GROUP_SIZE` of them, whoever won — strangers
  meet again rarely, and a ring that meets to trade results meets often, however it spreads its wins; a ring
  playing only itself keeps its ratings at the population's middle whatever its play, so it is flagged even when
  its results are even.  A flag stops the player's games counting until an
  operator clears or confirms it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from services.ratings.model import board_sides
from services.ratings.policy import is_computer

PLAYED, ABORTED, LEFT, TIMED_OUT, LOST_FAST = "played", "aborted", "left", "timed_out", "lost_fast"
OUTCOMES = (PLAYED, ABORTED, LEFT, TIMED_OUT, LOST_FAST)
BAD = frozenset({ABORTED, LEFT, TIMED_OUT})
SANDBAGGING, BOOSTING = "sandbagging", "boosting"

FAST_ROUNDS, FAST_PER_POINTS = 3, 500
KEPT_OUTCOMES = 30
MINUTE_MS, HOUR_MS = 60_000, 3_600_000
OUTCOME_WINDOW_MS = 7 * 24 * HOUR_MS
BAN_MIN_BAD, BAN_MIN_SHARE = 4, 0.25
FIRST_BAN_MS, ESCALATION, MAX_BAN_MS = 10 * MINUTE_MS, 3, 3 * 24 * HOUR_MS
ESCALATION_WINDOW_MS = 72 * HOUR_MS
NEW_ACCOUNT_GAMES = 10
FLAG_FAST, FAST_WINDOW_MS = 4, 24 * HOUR_MS
FLAG_REPEATED, REPEAT_WINDOW_MS = 6, 72 * HOUR_MS
FLAG_GROUP_GAMES, FLAG_GROUP_SIZE, FLAG_GROUP_MEETINGS = 10, 8, 3


@dataclass(frozen=True, slots=True)
class Outcome:
    """One player's outcome in one game made to count: when it ended, what it was, and the result against each
    opponent (``beat``: the opponents their side placed above; ``lost_to``: below)."""

    game_id: str
    ended_ms: int
    outcome: str
    fast: bool  # the game ended within FAST_ROUNDS rounds (per 500 points of its winning score)
    beat: tuple[str, ...] = ()
    lost_to: tuple[str, ...] = ()


def outcome(document: Mapping[str, Any], seat: int, places: Sequence[int]) -> str | None:
    """The outcome of ``seat``'s player in a finished game's record (``places``: each side's place, 1 = best);
    None for a game not made to count."""
    fair = document.get("fair_play")
    if fair is None:
        return None
    if fair.get("aborted_by") == seat:
        return ABORTED
    if seat in fair.get("forfeits", ()):
        return TIMED_OUT if seat in fair.get("timed_out", ()) else LEFT
    side = _side_of(document, seat)
    lost = places[side] > min(places)
    return LOST_FAST if lost and fast(document) else PLAYED


def fast(document: Mapping[str, Any]) -> bool:
    """The game ended within :data:`FAST_ROUNDS` rounds per :data:`FAST_PER_POINTS` points of its winning score."""
    return len(document["rounds"]) <= FAST_ROUNDS * int(document["rules"]["win_score"]) // FAST_PER_POINTS


def results(
    document: Mapping[str, Any], seat: int, places: Sequence[int], players: Sequence[str | None]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(beat, lost_to): the other players ``seat``'s side placed above, and below (partners are neither)."""
    sides = board_sides(str(document["rules"]["scoring"]))
    mine = _side_of(document, seat)
    beat: list[str] = []
    lost_to: list[str] = []
    for index, side in enumerate(sides):
        if index == mine:
            continue
        for other in side:
            player = players[other]
            if player is None:
                continue
            if places[mine] < places[index]:
                beat.append(player)
            elif places[mine] > places[index]:
                lost_to.append(player)
    return tuple(sorted(set(beat))), tuple(sorted(set(lost_to)))


def ban_ms(recent: Sequence[Outcome], bans_started: Sequence[int], last_ban_ms: int | None, now_ms: int) -> int:
    """How long a ban the player earns now (0: none): ``recent`` their kept outcomes, newest last, the newest the
    one just recorded; ``bans_started`` when their bans started; ``last_ban_ms`` their latest ban's start."""
    if not recent or recent[-1].outcome not in BAD:
        return 0
    since = max(now_ms - OUTCOME_WINDOW_MS, last_ban_ms if last_ban_ms is not None else -1)
    window = [each for each in recent[-KEPT_OUTCOMES:] if each.ended_ms > since]
    bad = sum(each.outcome in BAD for each in window)
    if bad < BAN_MIN_BAD or bad < BAN_MIN_SHARE * len(window):
        return 0
    escalations = sum(started > now_ms - ESCALATION_WINDOW_MS for started in bans_started)
    length = FIRST_BAN_MS * ESCALATION**escalations
    if len(recent) < NEW_ACCOUNT_GAMES:
        length *= 2
    return min(length, MAX_BAN_MS)


def sandbagging(recent: Sequence[Outcome], now_ms: int) -> list[str]:
    """The games that flag a sandbagger (empty: no flag): :data:`FLAG_FAST` lost fast within the window."""
    lost = [each.game_id for each in recent if each.outcome == LOST_FAST and each.ended_ms > now_ms - FAST_WINDOW_MS]
    return lost if len(lost) >= FLAG_FAST else []


def boosting(recent: Sequence[Outcome], now_ms: int) -> tuple[tuple[str, ...], list[str]] | None:
    """The opponents and games that flag a booster (None: no flag), people only: :data:`FLAG_FAST` fast wins over
    one opponent within :data:`FAST_WINDOW_MS`; :data:`FLAG_REPEATED` wins over one, none lost to them, within
    :data:`REPEAT_WINDOW_MS`; or a closed group (see the module doc)."""
    fast_wins: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    losses: Counter[str] = Counter()
    met: Counter[str] = Counter()
    for each in recent:
        age = now_ms - each.ended_ms
        beat = [p for p in each.beat if not is_computer(p)]
        lost_to = [p for p in each.lost_to if not is_computer(p)]
        if age < OUTCOME_WINDOW_MS:
            met.update(set(beat) | set(lost_to))
        if age >= REPEAT_WINDOW_MS:
            continue
        wins.update(beat)
        losses.update(lost_to)
        if each.fast and age < FAST_WINDOW_MS:
            fast_wins.update(beat)
    for opponent in sorted(wins):
        if fast_wins[opponent] >= FLAG_FAST or (wins[opponent] >= FLAG_REPEATED and not losses[opponent]):
            return (opponent,), _games_over(recent, {opponent}, now_ms - REPEAT_WINDOW_MS)
    regulars = {p for p, n in met.items() if n >= FLAG_GROUP_MEETINGS}
    if 0 < len(regulars) <= FLAG_GROUP_SIZE:
        games = [each.game_id for each in recent if _among(each, regulars, now_ms - OUTCOME_WINDOW_MS)]
        if len(games) >= FLAG_GROUP_GAMES:
            return tuple(sorted(regulars)), games
    return None


def _games_over(recent: Sequence[Outcome], opponents: set[str], since_ms: int) -> list[str]:
    """The games since ``since_ms`` won over any of ``opponents``."""
    return [each.game_id for each in recent if each.ended_ms > since_ms and opponents & set(each.beat)]


def _among(each: Outcome, regulars: set[str], since_ms: int) -> bool:
    """A game since ``since_ms`` against people, all of them ``regulars``."""
    people = {p for p in (*each.beat, *each.lost_to) if not is_computer(p)}
    return each.ended_ms > since_ms and bool(people) and people <= regulars


def _side_of(document: Mapping[str, Any], seat: int) -> int:
    sides = board_sides(str(document["rules"]["scoring"]))
    return next(index for index, side in enumerate(sides) if seat in side)
