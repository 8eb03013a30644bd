"""Which constraint errors the gateway retries as concurrent MERGEs of one key (graph/store/gateway.py):
ArcadeDB's, whether the duplicate is found at commit or while the statement runs; not Neo4j's
report of a genuine duplicate."""
from __future__ import annotations

from neo4j.exceptions import ConstraintError

from graph.store.gateway import duplicate_key


def _error(message: str) -> ConstraintError:
    return ConstraintError._hydrate_neo4j(code="Neo.ClientError.Schema.ConstraintValidationFailed", message=message)


def test_arcadedbs_duplicates_are_retried_however_reported_and_neo4js_genuine_ones_are_not():
    assert duplicate_key(_error("Duplicated key [t-1 inference] found on index 'Source_0' already assigned to "
                                "record #80:13"))
    # Found while the statement ran: only the wrapper's message and the statement come back.
    assert duplicate_key(_error("Error executing Cypher command: UNWIND $rows AS row\nCREATE (m:Memory) ..."))
    assert not duplicate_key(_error("Node(12) already exists with label `Source` and property `key` = 't-1'"))
