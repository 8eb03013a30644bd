"""The light client installs and runs alone: credence-client from client/ into a fresh venv, with its
real dependencies (pip may take them from its cache), and then neither importing it nor running the
`credence` command loads any of the service's packages, even where they are importable."""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
SERVER_PACKAGES = {"api", "graph", "cypher", "torch", "neo4j", "fastapi", "sentence_transformers", "onnxruntime",
                   "arcadedb_embedded", "starlette", "numpy"}
# Imports the client, runs `credence --help` in-process, then prints every top-level module loaded.
PROBE = """
import json, sys
import credence_client
from credence_client.cli import main
try:
    main(["--help"])
except SystemExit:
    pass
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})), file=sys.stderr)
"""


def loaded_by_probe(python: str, cwd: Path) -> set[str]:
    done = subprocess.run([python, "-c", PROBE], cwd=cwd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "usage: credence" in done.stdout
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def test_the_client_loads_none_of_the_service_s_packages_even_beside_them():
    # This venv has the service installed, and the repository root is the working directory.
    assert subprocess.run([sys.executable, "-c", "import api, graph"], cwd=ROOT, timeout=120).returncode == 0
    assert loaded_by_probe(sys.executable, ROOT) & SERVER_PACKAGES == set()


def test_the_light_client_installs_alone_in_a_fresh_venv(tmp_path):
    venv = tmp_path / "venv"
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = str(venv / "bin" / "python")
    created = time.monotonic()
    install = subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                              str(ROOT / "client")], capture_output=True, text=True, timeout=600)
    assert install.returncode == 0, install.stdout + install.stderr
    installed = time.monotonic()
    # Reported, not asserted (no timing assertions): `pytest -s` shows it.
    print(f"\nfresh venv {created - started:.1f} s; pip install ./client {installed - created:.1f} s")

    listed = subprocess.run([python, "-m", "pip", "list", "--format=json", "--disable-pip-version-check"],
                            capture_output=True, text=True, check=True).stdout
    distributions = {d["name"].lower() for d in json.loads(listed)}
    assert "credence-client" in distributions
    assert distributions & {"credence", "torch", "neo4j", "fastapi", "sentence-transformers", "mcp"} == set()

    assert loaded_by_probe(python, tmp_path) & SERVER_PACKAGES == set()
    cli = subprocess.run([str(venv / "bin" / "credence"), "--help"], capture_output=True, text=True, timeout=60)
    assert cli.returncode == 0 and "remember" in cli.stdout
    # Without the [mcp] extra, credence-mcp says how to get it.
    mcp = subprocess.run([str(venv / "bin" / "credence-mcp"), "--help"], capture_output=True, text=True, timeout=60)
    assert mcp.returncode != 0 and 'pip install "credence-client[mcp]"' in mcp.stderr
