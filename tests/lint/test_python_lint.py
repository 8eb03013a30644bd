"""The Python passes ruff (lint only, never `ruff format`) and mypy, both configured in pyproject.toml,
so a lint or type error fails `make test` and CI. Alone, from the repository root:
`.venv/bin/python -m ruff check api graph client tests bench tools` and
`.venv/bin/python -m mypy api graph client`."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINTED = ("api", "graph", "client", "tests", "bench", "tools")
TYPED = ("api", "graph", "client")


def _run(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    if importlib.util.find_spec(tool) is None:
        pytest.fail(f"{tool} is not installed: run `make setup` (it is pinned in the dev extra)")
    return subprocess.run([sys.executable, "-m", tool, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


def test_ruff_finds_nothing():
    out = _run("ruff", "check", "--output-format", "concise", *LINTED)
    assert out.returncode == 0, f"ruff check {' '.join(LINTED)}:\n{out.stdout}{out.stderr}"


def test_mypy_finds_nothing():
    out = _run("mypy", *TYPED)
    assert out.returncode == 0, f"mypy {' '.join(TYPED)}:\n{out.stdout}{out.stderr}"


def test_the_checks_catch_what_they_must(tmp_path):
    """Guards the guards: with the project's settings, an unused import, an implicit Optional and an
    error inside an unannotated function are all reported."""
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n\n\ndef f(x: int = None) -> int:\n    return x\n\n\n"
                   "def g():\n    return 1 + 'a'\n")
    ruff = _run("ruff", "check", "--config", str(ROOT / "pyproject.toml"), "--output-format", "concise", str(bad))
    assert ruff.returncode == 1 and "F401" in ruff.stdout, ruff.stdout + ruff.stderr
    mypy = _run("mypy", "--config-file", str(ROOT / "pyproject.toml"), str(bad))
    assert mypy.returncode == 1, mypy.stdout + mypy.stderr
    assert "[assignment]" in mypy.stdout  # no_implicit_optional: the default None is no int
    assert "[operator]" in mypy.stdout  # check_untyped_defs: g has no annotations, and is checked anyway
