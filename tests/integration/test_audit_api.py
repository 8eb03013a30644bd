"""The audit trail you can query (issue 23 item 4, docs/audit.md): every change to a memory is a
record with its actor, time and reason; an update records the changed fields before and after."""
from __future__ import annotations

from tests.helpers import store


def history(client, agent, memory_id, **params) -> dict:
    response = client.get(f"/v1/memories/{memory_id}/history", params={"agent": agent, **params})
    assert response.status_code == 200, response.text
    return response.json()


def test_an_update_records_the_changed_fields_before_and_after(client, agent):
    memory = store(client, agent, "The user prefers tea", tags=["drinks"], importance=0.4,
                   event_at="2026-01-02T03:04:05Z", metadata={"from": "chat"})
    response = client.patch(f"/v1/memories/{memory['id']}", params={"agent": agent},
                            headers={"X-Credence-Actor": "editor"},
                            json={"text": "The user prefers coffee", "importance": 0.7, "metadata": {"from": "form"},
                                  "event_at": "2026-02-03T04:05:06Z"})
    assert response.status_code == 200, response.text
    [update] = [o for o in history(client, agent, memory["id"])["operations"] if o["op"] == "update"]
    assert update["actor"] == "editor"
    assert update["before"] == {"text": "The user prefers tea", "importance": 0.4, "metadata": {"from": "chat"},
                                "event_at": "2026-01-02T03:04:05Z", "version": 1}
    assert update["after"] == {"text": "The user prefers coffee", "importance": 0.7, "metadata": {"from": "form"},
                               "event_at": "2026-02-03T04:05:06Z", "version": 2}
    # Only what the patch changed: the tags it left alone are in neither.
    assert "tags" not in update["before"] and "tags" not in update["after"]
