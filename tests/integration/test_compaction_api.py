"""The operator can force out of the database files what a hard delete left there (issue 13 item
8): on the embedded ArcadeDB, after POST /v1/admin/compact no file of the data directory holds the
deleted text; Neo4j Community cannot be compacted online, and the answer says what stays and how
long. The service keeps working through it."""
from __future__ import annotations

import uuid
from pathlib import Path

from tests.conftest import TEST_ADMIN_KEY
from tests.helpers import search, store

ADMIN = {"Authorization": f"Bearer {TEST_ADMIN_KEY}"}


def files_holding(root: Path, needle: bytes) -> list[str]:
    found = []
    for path in root.rglob("*"):
        if path.is_file() and path.suffix not in (".onnx", ".json") and "models" not in path.parts:
            try:
                if needle in path.read_bytes():
                    found.append(str(path.relative_to(root)))
            except OSError:  # a file the database just retired
                continue
    return found


def test_compaction_forces_a_hard_deleted_text_out_of_the_files_where_the_backend_can(client, services, agent):
    marker = f"okapi{uuid.uuid4().hex}"
    secret = store(client, agent, f"The door code is {marker}, and this sentence is long enough to be stored "
                                  "as plain text by either database rather than in a packed short form.")
    kept = store(client, agent, "The user prefers aisle seats on long flights")
    deleted = client.delete(f"/v1/memories/{secret['id']}", params={"agent": agent, "hard": "true"})
    assert deleted.status_code == 200, deleted.text

    answer = client.post("/v1/admin/compact", headers=ADMIN)
    assert answer.status_code == 200, answer.text
    done = answer.json()
    data_dir = services.settings.data_dir
    if services.backend.kind == "arcadedb-embedded":
        assert done["complete"] is True and done["remains"] == []
        assert [s["command"] for s in done["steps"]] == [
            "CHECK DATABASE COMPRESS", "REBUILD INDEX memory_stems_by_tenant", "close database credence",
            "open database credence"]
        assert files_holding(data_dir / "arcadedb", marker.encode()) == []
    else:
        assert done["complete"] is False and done["steps"] == []
        assert any("transaction logs" in r for r in done["remains"])
        assert any("credence export" in r for r in done["remains"])

    # The service goes on: the kept memory is found by keyword and by meaning, a new one is stored.
    assert kept["id"] in [hit["id"] for hit in search(client, agent, "aisle seats")]
    fresh = store(client, agent, "The user books window seats on short flights")
    assert fresh["id"] in [hit["id"] for hit in search(client, agent, "window seats")]
    assert marker not in client.get("/v1/memories", params={"agent": agent}).text


def test_only_the_administrator_key_may_compact(client):
    assert client.post("/v1/admin/compact").status_code in (401, 403)
    assert client.post("/v1/admin/compact", headers={"Authorization": "Bearer not-the-key"}).status_code == 401
