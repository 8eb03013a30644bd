"""The audit trail: every change to a memory, an entity or a link leaves an (:Operation) with its
actor, time, operation and the state before and after. Every package that changes the graph
writes it through `record`; reads go through `trail`."""
from graph.audit.records import DEFAULT_ACTOR, Entry, Operation, audit_json, record, record_all

__all__ = ["DEFAULT_ACTOR", "Entry", "Operation", "audit_json", "record", "record_all"]
