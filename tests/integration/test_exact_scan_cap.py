"""The exact scans of a small tenant stop at their cap without scoring anyone.

A tenant's first search in a process does not yet know whether the tenant is small, so both
retrievers try the exact scan (`retrieval/exact`, `retrieval/keyword_exact`) with a cap of
`CREDENCE_EXACT_SCAN_MAX + 1`. A larger tenant answers `candidates` equal to the cap and goes to the
indexes; the scan's cosines and keyword matches over the capped memories would be thrown away.
They used to be computed anyway (the keyword scan then ran regular expressions, which on ArcadeDB
share a one-second budget per statement, so a large tenant's first keyword search could fail on
busy cores)."""
from __future__ import annotations

from graph.retrieval import SearchQuery, Visibility, keywords
from tests.helpers import store_many

TEXTS = [f"the heron by the mill pond, sighting {i}" for i in range(5)]


def scan(client, services, agent: str, statement: str, scan_cap: int) -> dict:
    params = Visibility.of(SearchQuery(agent=agent, text="heron mill"), explain=False).params()
    extra = ({"embedding": client.portal.call(services.encoder.encode_one, "heron mill").tolist(), "limit": 10}
             if statement == "retrieval/exact" else
             {"needles": keywords.needles(["heron", "mill"])})
    rows = client.portal.call(lambda: services.runner.read(statement, scan_cap=scan_cap, **extra, **params))
    assert len(rows) == 1
    return rows[0]


def test_a_tenant_larger_than_the_cap_is_counted_not_scored(client, services, agent):
    stored = {m["id"] for m in store_many(client, agent, TEXTS)}
    for statement in ("retrieval/exact", "retrieval/keyword_exact"):
        capped = scan(client, services, agent, statement, scan_cap=3)
        assert capped["candidates"] == 3, statement
        assert capped["hits"] == [], statement
        # Below the cap the same statement ranks every memory, as before.
        whole = scan(client, services, agent, statement, scan_cap=6)
        assert whole["candidates"] == 5, statement
        assert {h["id"] for h in whole["hits"]} == stored, statement
