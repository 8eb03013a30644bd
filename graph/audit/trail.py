"""Reading the audit trail back."""
from __future__ import annotations

from graph.audit.records import Operation
from graph.core.timeutil import from_graph_required
from graph.core.values import MAX_METADATA_DEPTH, loads_readable
from graph.store.gateway import GraphRunner

MAX_AUDIT_DEPTH = MAX_METADATA_DEPTH + 2  # a patch's metadata sits two levels inside its audit record


async def of_memory(runner: GraphRunner, agent: str, memory_id: str) -> list[Operation]:
    """The audit records that touched one memory, oldest first."""
    rows = await runner.read("audit/history", agent=agent, id=memory_id)
    # Audit payloads are read through repair too: older versions recorded patches as given.
    return [Operation(id=o["id"], op=o["op"], actor=o["actor"], at=from_graph_required(o["at"]),
                      before=loads_readable(o["before"], MAX_AUDIT_DEPTH),
                      after=loads_readable(o["after"], MAX_AUDIT_DEPTH))
            for o in (r["operation"] for r in rows)]
