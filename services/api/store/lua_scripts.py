"""The store's Lua scripts, kept as files in ``lua/`` (a folder per concern; each file's header names the keys and
the arguments it takes, and what it returns) and read once, when the Redis module that runs them is imported."""

from __future__ import annotations

from importlib.resources import files

LUA = files(__package__) / "lua"


def lua(*names: str) -> str:
    """The script made of the named files of ``lua/``, in order (a prelude the steps share comes first)."""
    return "".join((LUA / name).read_text() for name in names)
