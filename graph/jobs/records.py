"""Jobs as the graph holds them, turned into records."""
from __future__ import annotations

from typing import Any

from graph.core.timeutil import from_graph, from_graph_required
from graph.core.values import MAX_METADATA_DEPTH, loads_readable
from graph.jobs.model import Job

MAX_JOB_JSON_DEPTH = MAX_METADATA_DEPTH + 2


def job_of(row: dict[str, Any]) -> Job:
    j = row["job"]
    return Job(id=j["id"], agent=j["agent"], kind=j["kind"], status=j["status"], priority=j["priority"],
               params=loads_readable(j.get("params"), MAX_JOB_JSON_DEPTH) or {}, attempts=j["attempts"],
               max_attempts=j["max_attempts"], created_at=from_graph_required(j["created_at"]),
               updated_at=from_graph_required(j["updated_at"]), run_at=from_graph_required(j["run_at"]),
               actor=j["actor"], key=j.get("idempotency_key"),
               depends_on=tuple(sorted(row.get("depends_on") or ())),
               waiting_for=tuple(sorted(row.get("waiting_for") or ())),
               started_at=from_graph(j.get("started_at")), finished_at=from_graph(j.get("finished_at")),
               lease_owner=j.get("lease_owner"), lease_until=from_graph(j.get("lease_until")),
               cancel_requested=bool(j.get("cancel_requested")), done=j.get("done") or 0, total=j.get("total"),
               result=loads_readable(j.get("result"), MAX_JOB_JSON_DEPTH), last_error=j.get("last_error"),
               parent_id=j.get("parent_id"))


def state_of(row: dict[str, Any]) -> dict[str, Any]:
    """The checkpoint state a job resumes from: empty before its first checkpoint."""
    return loads_readable(row["job"].get("state"), MAX_JOB_JSON_DEPTH) or {}
