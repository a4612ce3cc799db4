"""A game's rules as the lobby names them: the preset nearest to them and the house rules that differ.

A game keeps its rules resolved (every option), not the preset it was asked with, so the lobby derives one:
the preset from which the fewest options differ (ties: the default preset, then by name).  The same pair
rebuilds the rules (:func:`rules_request`), which is how a quick match's group is created from its bucket's
resolved rules.  Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

from services.engine import DEFAULT_PRESET, PRESETS

_PRESET_DICTS = {name: rules.to_dict() for name, rules in PRESETS.items()}


def _differences(rules: dict[str, Any], preset: str) -> dict[str, Any]:
    base = _PRESET_DICTS[preset]
    return {name: value for name, value in rules.items() if base.get(name) != value}


def nearest_preset(rules: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The preset nearest to ``rules`` (every option, resolved) and the options that differ from it."""
    order = sorted(_PRESET_DICTS, key=lambda name: (len(_differences(rules, name)), name != DEFAULT_PRESET, name))
    return order[0], _differences(rules, order[0])


def rules_summary(rules: dict[str, Any]) -> dict[str, Any]:
    """``{"preset": …, "house_rules": [the names of the options that differ from it]}``."""
    preset, changes = nearest_preset(rules)
    return {"preset": preset, "house_rules": sorted(changes)}


def rules_request(rules: dict[str, Any]) -> dict[str, Any]:
    """``rules`` as a create request's ``rules`` (the nearest preset and its overrides): they resolve to ``rules``."""
    preset, changes = nearest_preset(rules)
    return {"preset": preset, **changes}
