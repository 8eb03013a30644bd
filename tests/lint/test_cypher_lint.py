"""Every Cypher file passes Neo4j's own linter (grammar + semantic analysis), with its declared
parameters, so an undeclared or misspelt $param is a failure."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from graph.store.registry import QueryRegistry

LINTER = Path(__file__).resolve().parents[2] / "tools" / "cypher-lint"


def _lint(folder: Path) -> dict[str, list[dict]]:
    if not shutil.which("node") or not (LINTER / "node_modules").is_dir():
        pytest.fail("Neo4j's Cypher linter is not installed: run `make setup` (needs node and npm)")
    out = subprocess.run(["node", str(LINTER / "lint.js"), str(folder)], capture_output=True, text=True,
                         timeout=300, check=True)
    return json.loads(out.stdout)


def test_every_cypher_file_is_clean_under_neo4js_linter(tmp_path):
    """Linted as the service runs them: with their includes expanded."""
    registry = QueryRegistry()
    for name in registry.names():
        target = tmp_path / f"{name}.cypher"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(registry[name].source)
    report = _lint(tmp_path)
    assert set(report) == {f"{name}.cypher" for name in registry.names()}
    dirty = {file: diags for file, diags in report.items() if diags}
    assert dirty == {}


def test_the_linter_catches_what_it_must(tmp_path):
    """Guards the guard: a broken statement and an undeclared parameter are both reported."""
    (tmp_path / "broken.cypher").write_text("MATCH (m:Memory RETURN m\n")
    (tmp_path / "undeclared.cypher").write_text("// params: agent\nMATCH (m:Memory {agent: $agent}) RETURN $oops\n")
    (tmp_path / "clean.cypher").write_text("// params: agent\nMATCH (m:Memory {agent: $agent}) RETURN m.id AS id\n")
    report = _lint(tmp_path)
    assert report["broken.cypher"] and report["clean.cypher"] == []
    assert any("$oops" in d["message"] for d in report["undeclared.cypher"])
