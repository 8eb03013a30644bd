"""The embedded backend: ArcadeDB from the arcadedb-embedded wheel, run as a child process that
speaks Bolt on loopback. A subprocess keeps its JVM apart from torch."""
from __future__ import annotations

import base64
import json
import logging
import os
import time
import urllib.error
import urllib.request
from pathlib import Path

from graph.core.errors import StartupError
from graph.store.backends.child_process import ChildDatabase, Endpoint, free_port, secret_file

log = logging.getLogger(__name__)
DATABASE = "credence"
NEED_RETRY_SECONDS = 60


def _package_dir() -> Path:
    import arcadedb_embedded  # imported lazily: only the embedded backend needs it

    return Path(arcadedb_embedded.__file__).resolve().parent


class EmbeddedArcadeDB(ChildDatabase):
    name = "embedded backend"

    http_port_requested: int  # ArcadeDB always serves HTTP: never None here

    def __init__(self, data_dir: Path, *, bolt_port: int = 0, http_port: int = 0, heap: str = "2g") -> None:
        super().__init__(data_dir / "arcadedb")
        self.bolt_port_requested, self.http_port_requested, self.heap = bolt_port, http_port, heap
        self.endpoint: Endpoint | None = None
        self.http_url: str | None = None

    def start(self, inherit_fds: tuple[int, ...] = ()) -> Endpoint:
        """Launch the server; call from a thread that lives as long as the service (the main one)."""
        password = secret_file(self.root / "root.secret", (self.root / "config" / "server-users.jsonl").exists())
        self.bolt_port = free_port(self.bolt_port_requested, "embedded backend's bolt", "CREDENCE_EMBEDDED_BOLT_PORT")
        http = self.http_port = free_port(self.http_port_requested, "embedded backend's http",
                                          "CREDENCE_EMBEDDED_HTTP_PORT")
        pkg = _package_dir()
        # The password goes into a 0600 argument file, not onto the command line `ps` shows.
        argfile = self.root / "jvm.args"
        fd = os.open(argfile, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(f'"-Darcadedb.server.rootPassword={password}"\n')
        cmd = [
            str(pkg / "jre" / "bin" / "java"), "-Xms256m", f"-Xmx{self.heap}",
            "--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
            f"@{argfile}",
            f"-Darcadedb.server.rootPath={self.root}",
            f"-Darcadedb.server.databaseDirectory={self.root / 'databases'}",
            "-Darcadedb.server.mode=development",
            # The shared query heap budget leaks over Bolt: what a large tenant's keyword postings reserve is
            # not all given back, so searches run one at a time exhaust it (docs/backends.md §2.26). Every
            # statement here is bounded by its caps; the per-operation element limit still applies.
            "-Darcadedb.queryMaxHeapRAM=0",
            "-Darcadedb.server.httpIncomingHost=127.0.0.1", f"-Darcadedb.server.httpIncomingPort={http}",
            f"-Darcadedb.server.defaultDatabases={DATABASE}[root]",
            "-Darcadedb.server.plugins=Bolt:com.arcadedb.bolt.BoltProtocolPlugin",
            "-Darcadedb.bolt.host=127.0.0.1", f"-Darcadedb.bolt.port={self.bolt_port}",
            f"-Darcadedb.bolt.defaultDatabase={DATABASE}",
            "-cp", f"{pkg / 'jars'}/*", "com.arcadedb.server.ArcadeDBServer",
        ]
        log.info("starting embedded ArcadeDB: data in %s, log in %s, bolt on 127.0.0.1:%d",
                 self.root, self.log_path, self.bolt_port)
        self._spawn(cmd, inherit_fds)
        self.http_url = f"http://127.0.0.1:{http}"
        self.endpoint = Endpoint(f"bolt://127.0.0.1:{self.bolt_port}", "root", password, DATABASE)
        return self.endpoint

    def sql(self, command: str) -> dict:
        """Run one ArcadeDB SQL statement (index DDL and maintenance need this: docs/backends.md)."""
        return self._post(f"/api/v1/command/{DATABASE}", {"language": "sql", "command": command})

    def server_command(self, command: str) -> dict:
        """One command of ArcadeDB's server API, e.g. `close database credence`."""
        return self._post("/api/v1/server", {"command": command})

    def _post(self, path: str, payload: dict) -> dict:
        assert self.endpoint is not None
        auth = base64.b64encode(f"{self.endpoint.user}:{self.endpoint.password}".encode()).decode()
        request = urllib.request.Request(
            f"{self.http_url}{path}", method="POST", data=json.dumps(payload).encode(),
            headers={"Content-Type": "application/json", "Authorization": f"Basic {auth}"})
        # ArcadeDB answers NeedRetryException while an index it would drop or rebuild is being
        # compacted ("underlying files are not available": seen dropping the full-text index right
        # after 100k updates to it); it asks for a retry, so DDL retries for a while before failing.
        deadline = time.monotonic() + NEED_RETRY_SECONDS
        while True:
            try:
                with urllib.request.urlopen(request, timeout=120) as response:
                    return json.loads(response.read())
            except urllib.error.HTTPError as exc:
                body = exc.read().decode(errors="replace")
                if "NeedRetryException" in body and time.monotonic() < deadline:
                    log.info("ArcadeDB asked to retry `%s`: %s", payload.get("command"), body[:200])
                    time.sleep(0.5)
                    continue
                raise StartupError(f"ArcadeDB rejected `{payload.get('command')}`: {body[:500]}") from exc
