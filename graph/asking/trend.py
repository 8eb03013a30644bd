"""Where a feeling is heading, from the sentiment stored on each memory at write time (VADER's
compound score, -1..1). Pure.

The readings are split in two: before and inside the question's window when it has one ("lately":
the last 30 days), else the earlier and the later half. The trend is the change of the mean
across the split: improving at +0.15 or more, declining at -0.15 or less, stable between; unknown
with fewer than two readings or an empty side. 0.15 is three times VADER's neutral band (0.05): a
move a single mildly worded sentence does not make."""
from __future__ import annotations

from datetime import datetime
from statistics import fmean

from graph.asking.model import Feeling, Reading

THRESHOLD = 0.15


def trend_of(about: str, readings: list[Reading], since: datetime | None = None) -> Feeling:
    readings = sorted(readings, key=lambda r: (r.at, r.memory_id))
    split: datetime | None
    if since is not None:
        earlier = [r for r in readings if r.at < since]
        recent = [r for r in readings if r.at >= since]
        split = since
    else:
        half = len(readings) // 2
        earlier, recent = readings[:half], readings[half:]
        split = recent[0].at if recent and earlier else None
    if len(readings) < 2 or not earlier or not recent:
        mean = fmean(r.score for r in readings) if readings else None
        return Feeling(about, tuple(readings), "unknown", None, mean, None, split)
    before, after = fmean(r.score for r in earlier), fmean(r.score for r in recent)
    change = after - before
    trend = "improving" if change >= THRESHOLD else "declining" if change <= -THRESHOLD else "stable"
    return Feeling(about, tuple(readings), trend, round(before, 4), round(after, 4), round(change, 4), split)
