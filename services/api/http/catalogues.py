"""What ``GET /v1/rules`` and ``GET /v1/levels`` list: the engine's rule options and presets, and the
computer levels of :mod:`services.computers`, as the contract's catalogues."""

from __future__ import annotations

from typing import Any

from services.api.games import clocks
from services.computers import DEFAULT_LEVEL, HINT_LEVEL, LEVELS
from services.engine import (
    DEFAULT_PRESET,
    HOUSE_RULES,
    OPTION_CHOICES,
    OPTION_DOCS,
    OPTION_RANGES,
    PRESET_DOCS,
    PRESETS,
    option_type,
)


def rules_catalogue() -> dict[str, Any]:
    defaults = PRESETS[DEFAULT_PRESET].to_dict()
    options = [
        {
            "name": name,
            "type": option_type(name),
            "default": defaults[name],
            "choices": list(OPTION_CHOICES[name]) if name in OPTION_CHOICES else None,
            "minimum": OPTION_RANGES[name][0] if name in OPTION_RANGES else None,
            "maximum": OPTION_RANGES[name][1] if name in OPTION_RANGES else None,
            "description": text,
            "house": name in HOUSE_RULES,
        }
        for name, text in OPTION_DOCS.items()
    ]
    presets = {name: rules.to_dict() for name, rules in PRESETS.items()}
    return {
        "default_preset": DEFAULT_PRESET,
        "presets": presets,
        "preset_descriptions": dict(PRESET_DOCS),
        "options": options,
        "time_controls": clocks.catalogue(),
        "default_time_control": clocks.DEFAULT_RULE,
    }


def levels_catalogue() -> dict[str, Any]:
    """Every computer level a seat, ``options.ai_takeover`` or a hint can use (services.computers)."""
    levels = [
        {
            "name": lv.name,
            "seed": lv.seed,
            "description": lv.description,
            "strength": lv.strength,
            "summary": lv.summary,
        }
        for lv in LEVELS.values()
    ]
    return {"default_level": DEFAULT_LEVEL, "hint_level": HINT_LEVEL, "levels": levels}
