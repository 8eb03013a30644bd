"""The jobs from the client and the command line (client/credence_client): enqueue, list, follow a
job to its end with `credence job --wait` and its progress bar, cancel, retry, restore; against the
real service (the CLI is handed the app's TestClient, a worker of the test runs the jobs)."""
from __future__ import annotations

import asyncio
import json
import uuid

import pytest

from credence_client import Credence, JobTimeout
from credence_client.cli import main
from graph.maintenance import JobContext
from tests.conftest import TEST_ADMIN_KEY
from tests.helpers import store
from tests.integration.test_jobs_api import kind, make_worker


@pytest.fixture
def api(client) -> Credence:
    return Credence(http=client, actor="cli-test")


def cli(api, capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv), api=api)
    out, err = capsys.readouterr()
    return code, out, err


def test_enqueue_list_wait_with_a_progress_bar_cancel_retry_and_restore(client, services, run, api, agent, capsys):
    steps = kind("steps")
    fail = {"on": False}

    async def handler(ctx: JobContext, params: dict) -> dict:
        if fail["on"]:
            raise RuntimeError("no disk")
        for i in range(1, 6):
            await asyncio.sleep(0.05)
            await ctx.progress(i, 5)
        return {"steps": 5, "label": params["label"]}

    worker = make_worker(services, {steps: handler})
    code, out, err = cli(api, capsys, "enqueue", agent, steps, "--param", "label=first", "--priority", "2",
                         "--key", "k-1")
    assert code == 0, err
    queued = json.loads(out)
    assert (queued["status"], queued["priority"], queued["params"], queued["actor"]) == \
        ("queued", 2, {"label": "first"}, "cli-test")
    assert json.loads(cli(api, capsys, "enqueue", agent, steps, "--param", "label=first", "--key", "k-1")[1])["id"] \
        == queued["id"]  # the same key: the same job
    with pytest.raises(SystemExit) as refused:  # argparse: NAME=VALUE
        cli(api, capsys, "enqueue", agent, steps, "--param", "nolabel")
    assert refused.value.code == 2 and "is not NAME=VALUE" in capsys.readouterr().err

    run(worker.start)
    try:
        code, out, err = cli(api, capsys, "job", agent, queued["id"], "--wait", "--interval", "0.05")
        assert code == 0, err
        done = json.loads(out)
        assert (done["status"], done["result"], done["progress"]) == ("succeeded", {"steps": 5, "label": "first"},
                                                                      {"done": 5, "total": 5})
        assert f"job {steps}: step 5/5 (100%)" in err and "succeeded" in err  # the bar, on stderr

        # A job that fails to the dead letter: --wait ends with status 1, and the job says why.
        fail["on"] = True
        doomed = api.enqueue(agent, steps, params={"label": "second"}, max_attempts=1)
        code, out, err = cli(api, capsys, "job", agent, doomed.id, "--wait", "--interval", "0.05", "--quiet")
        assert code == 1 and err == ""
        assert (json.loads(out)["status"], json.loads(out)["last_error"]) == ("dead", "RuntimeError: no disk")
        fail["on"] = False
        assert json.loads(cli(api, capsys, "retry-job", agent, doomed.id)[1])["status"] == "queued"
        assert api.wait_job(agent, doomed.id, interval=0.05).status == "succeeded"
    finally:
        run(worker.stop)

    # Nothing runs now: a wait gives up when told to, and a cancel ends the job.
    later = api.enqueue(agent, steps, params={"label": "third"})
    with pytest.raises(JobTimeout):
        api.wait_job(agent, later.id, interval=0.05, timeout=0.2)
    assert json.loads(cli(api, capsys, "cancel-job", agent, later.id)[1])["status"] == "cancelled"
    listed = json.loads(cli(api, capsys, "jobs", agent, "--kind", steps, "--status", "succeeded")[1])
    assert [j["id"] for j in listed] == [doomed.id, queued["id"]]  # newest first
    assert [j.id for j in api.jobs(agent, status="cancelled")] == [later.id]
    code, _, err = cli(api, capsys, "job", agent, str(uuid.uuid4()))
    assert code == 1 and "404" in err

    # Restore from the command line.
    memory = store(client, agent, "An archived note about the old office")
    api.archive(agent, memory["id"])
    restored = json.loads(cli(api, capsys, "restore", agent, memory["id"], "--reason", "undo")[1])
    assert restored["status"] == "active"
    [record] = list(api.audit(agent, op="restore"))
    assert (record.actor, record.after) == ("cli-test", {"status": "active", "reason": "undo"})


def test_system_jobs_need_the_administrator_key(client, capsys):
    operator = Credence(http=client, api_key=TEST_ADMIN_KEY)
    code, out, err = cli(operator, capsys, "enqueue", "_system", "expire", "--key", f"now-{uuid.uuid4().hex}")
    assert code == 0, err
    system = json.loads(out)
    assert system["agent"] == "_system"
    assert json.loads(cli(operator, capsys, "job", "_system", system["id"])[1])["id"] == system["id"]
    assert system["id"] in {j["id"] for j in json.loads(cli(operator, capsys, "jobs", "_system", "--kind",
                                                            "expire")[1])}
    assert json.loads(cli(operator, capsys, "cancel-job", "_system", system["id"])[1])["status"] == "cancelled"
    code, _, err = cli(Credence(http=client), capsys, "jobs", "_system")
    assert code == 1 and "401" in err
