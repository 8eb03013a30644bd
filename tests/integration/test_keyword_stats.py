"""What keyword scores are computed against, a tenant's KeywordStats (memories/keyword_stats), stays
equal to a count of its memories through every change."""
from __future__ import annotations

from tests.helpers import store_many


def test_keyword_statistics_follow_every_change(client, agent, cypher):
    def stats():
        [row] = cypher("OPTIONAL MATCH (k:KeywordStats {agent: $a}) "
                       "OPTIONAL MATCH (m:Memory {agent: $a}) "
                       "RETURN k.memories AS memories, k.words AS words, count(m) AS n, "
                       "sum(size(split(m.text, ' '))) AS counted", a=agent)
        assert (row["memories"] or 0, row["words"] or 0) == (row["n"], row["counted"]), row
        return row["n"], row["counted"]

    ids = [m["id"] for m in store_many(client, agent, ["one two three", "four five", "six"])]
    assert stats() == (3, 6)
    patched = client.patch(f"/v1/memories/{ids[2]}", params={"agent": agent}, json={"text": "six seven eight nine"})
    assert patched.status_code == 200, patched.text
    assert stats() == (3, 9)
    client.delete(f"/v1/memories/{ids[0]}", params={"agent": agent, "hard": True}).raise_for_status()
    assert stats() == (2, 6)
    lines = client.get("/v1/export", params={"agent": agent}).text
    for id_ in ids[1:]:
        client.delete(f"/v1/memories/{id_}", params={"agent": agent, "hard": True}).raise_for_status()
    assert stats() == (0, 0)
    # A tenant without memories keeps no statistics.
    assert cypher("MATCH (k:KeywordStats {agent: $a}) RETURN count(k) AS n", a=agent) == [{"n": 0}]
    answer = client.post("/v1/import", params={"agent": agent}, content=lines.encode(),
                         headers={"content-type": "application/x-ndjson"})
    assert answer.status_code == 200, answer.text
    assert stats() == (2, 6)
