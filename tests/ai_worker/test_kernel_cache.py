"""numba's cache directory follows the kernels' sources: a changed file means a fresh cache."""

from __future__ import annotations

import shutil
from pathlib import Path

from numba.core import config

from services.ai_worker import kernel_cache


def copy_of_package(tmp_path: Path) -> Path:
    copy = tmp_path / "ai_worker"
    shutil.copytree(kernel_cache.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def test_any_edit_to_a_source_gives_another_directory(tmp_path):
    copy = copy_of_package(tmp_path)
    first = kernel_cache.kernel_cache_dir(tmp_path / "cache", copy)
    assert first == kernel_cache.kernel_cache_dir(tmp_path / "cache", copy), "same sources, same directory"
    normal = copy / "levels" / "normal.py"
    normal.write_text(normal.read_text() + "\n# an edit in a callee's file\n")
    edited = kernel_cache.kernel_cache_dir(tmp_path / "cache", copy)
    assert edited != first
    (copy / "levels" / "new_level.py").write_text("X = 1\n")
    assert kernel_cache.kernel_cache_dir(tmp_path / "cache", copy) not in {first, edited}, "a new file counts too"


def test_the_cache_sits_under_numba_cache_dir_or_the_packages_pycache(tmp_path, monkeypatch):
    digest = kernel_cache.sources_digest()
    assert kernel_cache.kernel_cache_dir(str(tmp_path)) == tmp_path / digest
    assert kernel_cache.kernel_cache_dir(None) == kernel_cache.PACKAGE / "__pycache__" / "numba" / digest
    monkeypatch.setattr(config, "CACHE_DIR", config.CACHE_DIR)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert kernel_cache.use_kernel_cache() == tmp_path / digest
    assert str(tmp_path / digest) == config.CACHE_DIR


def test_the_kernels_compiled_so_far_were_cached_in_this_versions_directory():
    from services.ai_worker.levels import hard

    assert kernel_cache.sources_digest() in Path(hard.play_values._cache._cache_path).parts
