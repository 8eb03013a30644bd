"""The package order of graph/ holds (pyproject.toml [tool.importlinter], drawn in
docs/architecture.md): no capability package imports one above it or a sibling, so no import
cycle can come back; the domain imports nothing of HTTP. A second run proves the contracts bite:
a module that imports upwards, added to a copy of the tree, breaks them."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _lint_imports(cwd: Path) -> subprocess.CompletedProcess[str]:
    command = "from importlinter.cli import lint_imports_command; lint_imports_command()"
    return subprocess.run([sys.executable, "-c", command], cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(cwd), "PATH": "/usr/bin:/bin"})


def test_the_package_order_holds():
    out = _lint_imports(ROOT)
    assert out.returncode == 0, out.stdout + out.stderr


def test_an_upward_import_breaks_the_contracts(tmp_path):
    for part in ("graph", "api", "pyproject.toml"):
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, tmp_path / part, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, tmp_path / part)
    (tmp_path / "graph" / "core" / "upward.py").write_text("from graph.memories import model  # noqa: F401\n")
    out = _lint_imports(tmp_path)
    assert out.returncode != 0 and "graph.core.upward -> graph.memories.model" in out.stdout, out.stdout
