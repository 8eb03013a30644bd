"""`credence export` and `credence import` (client/credence_client/transfer.py) against the real
service: the file round-trips, a failed import says where to resume and resumes from its state
file without duplicates, and a mem0 JSON document loads. The CLI is handed the app's TestClient."""
from __future__ import annotations

import json

import pytest

from credence_client import Credence
from credence_client.cli import main
from tests.helpers import list_all
from tests.integration.test_transfer_api import MEM0, body_of, export, seed, wipe, without_wipe_records


@pytest.fixture
def api(client) -> Credence:
    return Credence(http=client, actor="transfer-test")


def cli(api, capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv), api=api)
    out, err = capsys.readouterr()
    return code, out, err


def test_export_to_a_file_wipe_import_is_the_same_tenant(client, api, agent, capsys, tmp_path):
    seed(client, agent)
    code, out, err = cli(api, capsys, "export", "--agent", agent)
    assert code == 0 and "export:" in err
    path = tmp_path / "tenant.jsonl"
    path.write_text(out)
    first = [json.loads(line) for line in out.splitlines()]
    assert first[-1]["kind"] == "end"
    wipe(client, agent)
    code, out, err = cli(api, capsys, "import", str(path), "--agent", agent, "--batch", "4")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["created"]["memory"] == 10 and summary["lines"] == len(first)
    assert f"line {len(first)}/{len(first)} (100%)" in err  # the progress line, on stderr
    assert not (tmp_path / "tenant.jsonl.import-state").exists()
    assert body_of(without_wipe_records(export(client, agent))[:-1]) == body_of(first[:-1])


def test_a_failed_import_names_the_line_to_resume_from_and_resumes_without_duplicates(
        client, api, agent, capsys, tmp_path):
    seed(client, agent)
    first = export(client, agent)
    wipe(client, agent)
    lines = [json.dumps(line) for line in first]
    broken = 9  # a memory line, in the third batch of four
    assert first[broken - 1]["kind"] == "memory"
    good = lines[broken - 1]
    lines[broken - 1] = json.dumps({**first[broken - 1], "status": "lost"})
    path = tmp_path / "tenant.jsonl"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = cli(api, capsys, "import", str(path), "--agent", agent, "--batch", "4", "-q")
    assert code == 1
    assert f"line {broken}: memory.status" in err and "--resume-from 9" in err
    state = json.loads((tmp_path / "tenant.jsonl.import-state").read_text())
    assert state["next_line"] == 9 and state["agent"] == agent
    # Fixed in place (same size, so the state file still applies): the rerun picks up at line 9.
    lines[broken - 1] = good
    path.write_text("\n".join(lines) + "\n")
    state["file_size"] = path.stat().st_size
    (tmp_path / "tenant.jsonl.import-state").write_text(json.dumps(state))
    code, out, err = cli(api, capsys, "import", str(path), "--agent", agent, "--batch", "4")
    assert code == 0, err
    assert "resuming at line 9" in err and json.loads(out)["started_at_line"] == 9
    again = without_wipe_records(export(client, agent))
    assert body_of(again)[:-1] == body_of(first)[:-1]
    # Running the whole file again from the start changes nothing either.
    code, out, _ = cli(api, capsys, "import", str(path), "--agent", agent, "--resume-from", "1", "-q")
    assert code == 0 and sum(json.loads(out)["created"].values()) == 0


def test_a_mem0_json_document_imports(client, api, agent, capsys, tmp_path):
    path = tmp_path / "mem0.json"
    path.write_text(json.dumps(MEM0, indent=2))
    code, out, err = cli(api, capsys, "import", str(path), "--agent", agent, "-q")
    assert code == 0, err
    assert json.loads(out)["created"]["memory"] == 2
    assert len(list_all(client, agent)) == 2


def test_a_file_that_is_not_json_is_refused_before_anything_is_sent(client, api, agent, capsys, tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text('{"kind": "header", "format": "credence-export", "version": 1}\nnot json\n')
    code, _, err = cli(api, capsys, "import", str(path), "--agent", agent, "-q")
    assert code == 1 and "line 2 is not valid JSON" in err
