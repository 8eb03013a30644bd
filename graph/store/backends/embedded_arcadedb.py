"""The embedded backend: ArcadeDB from the arcadedb-embedded wheel, run as a child process that
speaks Bolt on loopback. A subprocess keeps its JVM apart from torch; it dies with the service
(PR_SET_PDEATHSIG), even when the service is killed outright."""
from __future__ import annotations

import base64
import ctypes
import json
import logging
import os
import secrets
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from graph.core.errors import StartupError

log = logging.getLogger(__name__)
DATABASE = "credence"
_PR_SET_PDEATHSIG = 1


@dataclass(frozen=True)
class EmbeddedEndpoint:
    bolt_uri: str
    http_url: str
    user: str
    password: str
    database: str = DATABASE


def _package_dir() -> Path:
    import arcadedb_embedded  # imported lazily: only the embedded backend needs it

    return Path(arcadedb_embedded.__file__).resolve().parent


def _port(requested: int, what: str) -> int:
    """The requested port if it is free, or a free one when 0; a taken port stops the start."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind(("127.0.0.1", requested))
        except OSError:
            raise StartupError(
                f"port {requested} for the embedded backend's {what} is already taken; "
                f"free it or set CREDENCE_EMBEDDED_{what.upper()}_PORT (0 picks a free one)") from None
        return s.getsockname()[1]


def _die_with_parent() -> None:
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


class EmbeddedArcadeDB:
    def __init__(self, data_dir: Path, *, bolt_port: int = 0, http_port: int = 0, heap: str = "2g") -> None:
        self.root = (data_dir / "arcadedb").resolve()
        self.bolt_port_requested, self.http_port_requested, self.heap = bolt_port, http_port, heap
        self.process: subprocess.Popen | None = None
        self.endpoint: EmbeddedEndpoint | None = None

    def _password(self) -> str:
        secret = self.root / "root.secret"
        if secret.exists():
            return secret.read_text().strip()
        if (self.root / "config" / "server-users.jsonl").exists():
            raise StartupError(f"{secret} is missing but {self.root} already holds a database; restore the file")
        self.root.mkdir(parents=True, exist_ok=True)
        password = secrets.token_urlsafe(24)
        fd = os.open(secret, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(password)
        return password

    def start(self, inherit_fds: tuple[int, ...] = ()) -> EmbeddedEndpoint:
        """Launch the server; call from a thread that lives as long as the service (the main one)."""
        password = self._password()
        bolt, http = _port(self.bolt_port_requested, "bolt"), _port(self.http_port_requested, "http")
        pkg = _package_dir()
        cmd = [
            str(pkg / "jre" / "bin" / "java"), "-Xms256m", f"-Xmx{self.heap}",
            "--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
            f"-Darcadedb.server.rootPath={self.root}",
            f"-Darcadedb.server.databaseDirectory={self.root / 'databases'}",
            f"-Darcadedb.server.rootPassword={password}",
            "-Darcadedb.server.mode=development",
            "-Darcadedb.server.httpIncomingHost=127.0.0.1", f"-Darcadedb.server.httpIncomingPort={http}",
            f"-Darcadedb.server.defaultDatabases={DATABASE}[root]",
            "-Darcadedb.server.plugins=Bolt:com.arcadedb.bolt.BoltProtocolPlugin",
            "-Darcadedb.bolt.host=127.0.0.1", f"-Darcadedb.bolt.port={bolt}",
            f"-Darcadedb.bolt.defaultDatabase={DATABASE}",
            "-cp", f"{pkg / 'jars'}/*", "com.arcadedb.server.ArcadeDBServer",
        ]
        self.log_path = self.root / "server.log"
        logfile = open(self.log_path, "ab")
        log.info("starting embedded ArcadeDB: data in %s, log in %s, bolt on 127.0.0.1:%d", self.root, self.log_path, bolt)
        self.process = subprocess.Popen(
            cmd, stdout=logfile, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=self.root,
            preexec_fn=_die_with_parent, pass_fds=inherit_fds, start_new_session=True)
        logfile.close()
        self.endpoint = EmbeddedEndpoint(
            bolt_uri=f"bolt://127.0.0.1:{bolt}", http_url=f"http://127.0.0.1:{http}", user="root", password=password)
        return self.endpoint

    def check_alive(self) -> None:
        if self.process is not None and self.process.poll() is not None:
            raise StartupError(
                f"the embedded backend exited with code {self.process.returncode} during start-up; "
                f"last lines of {self.log_path}:\n{self.log_tail()}")

    def log_tail(self, lines: int = 15) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def sql(self, command: str) -> dict:
        """Run one ArcadeDB SQL statement (only index DDL needs this: backends.md §2.1)."""
        assert self.endpoint is not None
        auth = base64.b64encode(f"{self.endpoint.user}:{self.endpoint.password}".encode()).decode()
        request = urllib.request.Request(
            f"{self.endpoint.http_url}/api/v1/command/{DATABASE}", method="POST",
            data=json.dumps({"language": "sql", "command": command}).encode(),
            headers={"Content-Type": "application/json", "Authorization": f"Basic {auth}"})
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as exc:
            raise StartupError(f"ArcadeDB rejected `{command}`: {exc.read().decode(errors='replace')[:500]}") from exc

    def stop(self, timeout: float = 30.0) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()  # the JVM's shutdown hook closes the database cleanly
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            log.warning("embedded backend did not stop in %.0fs; killing it", timeout)
            self.process.kill()
            self.process.wait(5)
        log.info("embedded backend stopped")

    def wait_port(self, timeout: float) -> None:
        """Block until the Bolt port accepts connections, the process dies, or time runs out."""
        assert self.endpoint is not None
        port = int(self.endpoint.bolt_uri.rsplit(":", 1)[1])
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.check_alive()
            with socket.socket() as s:
                s.settimeout(0.5)
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    return
            time.sleep(0.1)
        raise StartupError(f"the embedded backend did not open Bolt within {timeout:.0f}s; see {self.log_path}")
