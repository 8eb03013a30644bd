"""The audit trail: every change to a memory, an entity or a link leaves an (:Operation) with its
actor, time, operation (graph/core/vocab.py: AUDIT_OPS) and the state before and after. Every
package that changes the graph writes it through `record`; reads go through `AuditService`."""
from graph.audit.records import (
    DEFAULT_ACTOR,
    MAX_ACTOR_CHARS,
    MAX_JOB_ID_CHARS,
    Entry,
    Operation,
    OperationPage,
    audit_json,
    record,
    record_all,
)
from graph.audit.trail import DEFAULT_AUDIT_PAGE, DEFAULT_TRAIL_PAGE, MAX_AUDIT_PAGE, AuditService

__all__ = ["DEFAULT_ACTOR", "DEFAULT_AUDIT_PAGE", "DEFAULT_TRAIL_PAGE", "MAX_ACTOR_CHARS", "MAX_AUDIT_PAGE",
           "MAX_JOB_ID_CHARS", "AuditService", "Entry", "Operation", "OperationPage", "audit_json", "record",
           "record_all"]
