"""The command line's progress bars (tqdm): an import's lines, a job's steps. On a stream (stderr),
or nothing at all without one (--quiet, or a caller that wants no output)."""
from __future__ import annotations

from typing import TextIO

from tqdm import tqdm

KNOWN = "{desc}: {unit} {n_fmt}/{total_fmt} ({percentage:.0f}%) |{bar:24}| {elapsed}<{remaining}{postfix}"
UNKNOWN = "{desc}: {unit} {n_fmt} | {elapsed}{postfix}"  # while the total is not known yet


class Bar:
    def __init__(self, out: TextIO | None, desc: str, unit: str, total: int | None = None) -> None:
        self._bar = None if out is None else tqdm(
            total=total, desc=desc, unit=unit, file=out, mininterval=0, dynamic_ncols=True, leave=True,
            bar_format=KNOWN if total is not None else UNKNOWN)

    def show(self, done: int, total: int | None = None, note: str | None = None) -> None:
        """Where the work stands: `done` of `total` (None: unknown, or unchanged), and a short note."""
        bar = self._bar
        if bar is None:
            return
        if total is not None and total != bar.total:
            bar.total, bar.bar_format = total, KNOWN
        bar.n = done
        if note is not None:
            bar.set_postfix_str(note, refresh=False)
        bar.refresh()

    def line(self, text: str) -> None:
        """A line of its own above the bar."""
        if self._bar is not None:
            self._bar.write(text, file=self._bar.fp)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
