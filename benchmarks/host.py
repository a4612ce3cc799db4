"""The machine a benchmark ran on, for its JSON (the docs quote figures with their machine)."""

from __future__ import annotations

import platform
from pathlib import Path


def machine() -> str:
    """The CPU model (``/proc/cpuinfo``), else what the platform module knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()
