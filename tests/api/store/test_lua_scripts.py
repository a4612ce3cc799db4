"""The store's Lua scripts (services/api/store/lua): each one as Redis runs it is luacheck-clean, names the keys it
reads in a header, and every file is part of a script.  luacheck is Debian's lua-check (scripts/test.sh installs
it: scripts/ensure_luacheck.sh)."""

from __future__ import annotations

import importlib
import re
import shutil
import subprocess
from pathlib import Path

STORE = Path(__file__).resolve().parents[3] / "services" / "api" / "store"
LUA = STORE / "lua"
MODULES = sorted(path.stem for path in STORE.glob("redis_*.py"))


def scripts() -> dict[str, str]:
    """Every script a Redis module sends (its ``*_LUA`` constants), by ``module.NAME``."""
    found = {}
    for name in MODULES:
        module = importlib.import_module(f"services.api.store.{name}")
        found |= {f"{name}.{key}": value for key, value in vars(module).items() if key.endswith("_LUA")}
    return found


def luacheck(paths: list[Path]) -> subprocess.CompletedProcess[str]:
    binary = shutil.which("luacheck")
    assert binary, "luacheck is missing: scripts/ensure_luacheck.sh installs Debian's lua-check"
    command = [binary, "--config", str(LUA / ".luacheckrc"), "--no-color", "--formatter", "plain", *map(str, paths)]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def test_every_script_as_sent_is_luacheck_clean(tmp_path: Path):
    sent = scripts()
    assert len(sent) >= 20, "the store's scripts were not found"
    paths = []
    for name, text in sent.items():
        paths.append(tmp_path / f"{name}.lua")
        paths[-1].write_text(text)
    checked = luacheck(paths)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_luacheck_really_checks(tmp_path: Path):
    broken = tmp_path / "broken.lua"
    broken.write_text("local unused = redis.call('GET', KEYS[1])\nreturn undefined_name\n")
    checked = luacheck([broken])
    assert checked.returncode != 0 and "unused" in checked.stdout and "undefined_name" in checked.stdout


def test_a_script_that_reads_keys_names_them_in_a_header():
    for name, text in scripts().items():
        assert text.startswith("-- "), f"{name} starts without its header"
        if "KEYS[" in text:
            assert re.search(r"^-- KEYS:", text, re.M), f"{name} reads KEYS without naming them in a header"


def named_files() -> set[str]:
    """The files of ``lua/`` the Redis modules name (``lua("commit/commit.lua")``)."""
    named = set()
    for module in MODULES:
        for call in re.findall(r"\blua\(([^)]*)\)", (STORE / f"{module}.py").read_text()):
            named |= set(re.findall(r'"([^"]+)"', call))
    return named


def test_every_file_named_exists_and_every_file_is_part_of_a_script():
    on_disk = {path.relative_to(LUA).as_posix() for path in LUA.rglob("*.lua")}
    assert on_disk and on_disk == named_files(), sorted(on_disk ^ named_files())
