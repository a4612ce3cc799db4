"""Where numba keeps the compiled kernels: one directory per version of this package's sources.

numba's on-disk cache (``@njit(cache=True)``) checks a function against its own file only: a caller
compiled against a callee in another file keeps the callee's old machine code after that file
changes.  Keying the cache directory by a hash of every source file of this package gives each
version of the kernels a cache of its own, so an edit or a ``git pull`` never runs stale code.
:func:`use_kernel_cache` runs when the package is imported, before any kernel is defined (numba
fixes a function's cache path when it is decorated).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
DEFAULT_BASE = PACKAGE / "__pycache__" / "numba"  # NUMBA_CACHE_DIR unset: beside the package's bytecode


def sources_digest(package: Path = PACKAGE) -> str:
    """A short hash of every ``.py`` file under ``package``, by relative path and content."""
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def kernel_cache_dir(base: str | os.PathLike[str] | None, package: Path = PACKAGE) -> Path:
    """The cache directory for this version of the sources: ``base`` (or :data:`DEFAULT_BASE`) / digest."""
    return Path(base or DEFAULT_BASE) / sources_digest(package)


def use_kernel_cache() -> Path:
    """Point numba's cache at :func:`kernel_cache_dir` of ``NUMBA_CACHE_DIR``; returns the directory."""
    from numba.core import config

    path = kernel_cache_dir(os.environ.get("NUMBA_CACHE_DIR"))
    config.CACHE_DIR = str(path)
    return path
