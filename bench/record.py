"""Writes a benchmark's table into docs/benchmarks.md between markers, replacing the last run."""
from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"


def record(key: str, section: str) -> None:
    begin, end = f"<!-- bench:{key} -->", f"<!-- /bench:{key} -->"
    text = DOC.read_text() if DOC.exists() else "# Benchmarks\n"
    block = f"{begin}\n{section}{end}"
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
    text = pattern.sub(lambda _: block, text) if pattern.search(text) else text.rstrip("\n") + f"\n\n{block}\n"
    DOC.write_text(text)
