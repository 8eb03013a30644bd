"""Writes a benchmark's table into docs/benchmarks.md between markers, replacing the last run. A
table recorded for the first time goes at the end of its benchmark's section (the `## ` heading
that names the script), not at the end of the file, where it would sit under another benchmark."""
from __future__ import annotations

import re
import sys
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"


def record(key: str, section: str, script: str | None = None, doc: Path = DOC) -> None:
    """`script`: the benchmark's file name (default: the running script's)."""
    begin, end = f"<!-- bench:{key} -->", f"<!-- /bench:{key} -->"
    text = doc.read_text() if doc.exists() else "# Benchmarks\n"
    block = f"{begin}\n{section}{end}"
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _: block, text)
    else:
        text = _append_to_section(text, block, script or Path(sys.argv[0]).name)
    doc.write_text(text)


def _append_to_section(text: str, block: str, script: str) -> str:
    heading = re.search(rf"^## .*`bench/{re.escape(script)}.*$", text, re.M)
    if heading is None:
        return text.rstrip("\n") + f"\n\n{block}\n"
    following = re.search(r"^## ", text[heading.end():], re.M)
    cut = heading.end() + following.start() if following else len(text)
    return text[:cut].rstrip("\n") + f"\n\n{block}\n\n" + text[cut:].lstrip("\n")
