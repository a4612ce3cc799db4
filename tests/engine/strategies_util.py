"""Random legal games and random rules requests for tests and properties."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from services.engine import PRESETS, GameState, apply, legal_moves, new_game, turn
from services.engine.rules import BOOLEAN_OPTIONS, DEFAULT_PRESET, NULLABLE, OPTION_CHOICES, OPTION_RANGES, Rules


def play_random_game(
    rules: Rules, seed: int, *, move_seed: int | None = None, max_rounds: int | None = None
) -> GameState:
    """Play uniformly random legal moves until the game ends (or after
    ``max_rounds`` finished rounds)."""
    rng = random.Random(seed if move_seed is None else move_seed)
    state = new_game(rules, seed=seed)
    while state.phase != "game_over" and (max_rounds is None or len(state.history) < max_rounds):
        seat = turn(state)
        state = apply(state, seat, rng.choice(legal_moves(state, seat)))
    return state


def rules_requests() -> st.SearchStrategy[dict[str, Any]]:
    """Random rules requests: a preset and overrides (any subset of the options),
    valid or not: each value is drawn in and just around the engine's range or choices,
    so both sides of every boundary and every combination rule come up."""
    values: dict[str, st.SearchStrategy[Any]] = {
        "preset": st.sampled_from(sorted(PRESETS)),
        **{name: st.sampled_from(choices) for name, choices in OPTION_CHOICES.items()},
        **{name: st.booleans() for name in sorted(BOOLEAN_OPTIONS)},
    }
    for name, (low, high) in OPTION_RANGES.items():
        values[name] = st.one_of(
            st.sampled_from([low - 1, low, high, high + 1]), st.integers(low - 2, min(high, 30) + 2)
        )
    for name in NULLABLE:
        values[name] = st.one_of(st.none(), values[name])
    return st.fixed_dictionaries({}, optional=values)


def rules_overrides(request: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A rules request as ``make_rules``'s arguments: the preset and the overrides."""
    overrides = dict(request)
    return overrides.pop("preset", DEFAULT_PRESET), overrides
