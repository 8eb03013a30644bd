"""What the two local backends share: a database JVM run as a child process on loopback, with its
log in the data directory, that dies with the service (PR_SET_PDEATHSIG) even when the service is
killed outright, and a secret kept in a 0600 file instead of on a command line."""
from __future__ import annotations

import ctypes
import logging
import os
import secrets
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from graph.core.errors import StartupError

log = logging.getLogger(__name__)
_PR_SET_PDEATHSIG = 1


def free_port(requested: int, what: str, setting: str) -> int:
    """The requested port if it is free, or a free one when 0; a taken port stops the start."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind(("127.0.0.1", requested))
        except OSError:
            raise StartupError(f"port {requested} for the {what} is already taken; "
                               f"free it or set {setting} (0 picks a free one)") from None
        return s.getsockname()[1]


def die_with_parent() -> None:
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def secret_file(path: Path, exists_already: bool) -> str:
    """The database password kept in `path` (mode 0600), made on first use. A database that exists
    without its secret cannot be opened again, so that is an error, not a new password."""
    if path.exists():
        return path.read_text().strip()
    if exists_already:
        raise StartupError(f"{path} is missing but {path.parent} already holds a database; restore the file")
    path.parent.mkdir(parents=True, exist_ok=True)
    password = secrets.token_hex(24)  # hex: never starts with "-", which a CLI parser reads as an option
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(password)
    return password


def _still_free(port: int | None) -> int:
    if port is None:
        return 0
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        # As the JVM binds (SO_REUSEADDR): the dead process's connections in TIME_WAIT do not count.
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return 0
    return port


@dataclass(frozen=True)
class Endpoint:
    bolt_uri: str
    user: str
    password: str
    database: str


class ChildDatabase:
    """A database server process owned by the service. Subclasses build the command line."""

    name = "database"

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.log_path = self.root / "server.log"
        self.process: subprocess.Popen | None = None
        self.bolt_port: int | None = None
        self.http_port: int | None = None
        self.bolt_port_requested: int = 0
        self.http_port_requested: int | None = None

    def reuse_ports(self) -> None:
        """Before a restart: ask for the ports the last process had again, or for free ones if
        something took them meanwhile."""
        self.bolt_port_requested = _still_free(self.bolt_port)
        if self.http_port is not None:
            self.http_port_requested = _still_free(self.http_port)

    def start(self, inherit_fds: tuple[int, ...] = ()) -> Endpoint:
        """Launch the server and return where it listens; each backend builds its own command line."""
        raise NotImplementedError

    def _spawn(self, cmd: list[str], inherit_fds: tuple[int, ...], stdin_text: str | None = None) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "ab") as logfile:
            self.process = subprocess.Popen(
                cmd, stdout=logfile, stderr=subprocess.STDOUT, cwd=self.root,
                stdin=subprocess.PIPE if stdin_text is not None else subprocess.DEVNULL,
                preexec_fn=die_with_parent, pass_fds=inherit_fds, start_new_session=True)
        if stdin_text is not None:
            assert self.process.stdin is not None
            # The pipe stays open for the child's lifetime: its end (EOF) tells the child to stop.
            self.process.stdin.write(stdin_text.encode())
            self.process.stdin.flush()

    def check_alive(self) -> None:
        if self.process is not None and self.process.poll() is not None:
            raise StartupError(
                f"the {self.name} exited with code {self.process.returncode} during start-up; "
                f"last lines of {self.log_path}:\n{self.log_tail()}")

    def log_tail(self, lines: int = 15) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def wait_port(self, timeout: float) -> None:
        """Block until the Bolt port accepts connections, the process dies, or time runs out."""
        assert self.bolt_port is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.check_alive()
            with socket.socket() as s:
                s.settimeout(0.5)
                if s.connect_ex(("127.0.0.1", self.bolt_port)) == 0:
                    return
            time.sleep(0.1)
        raise StartupError(f"the {self.name} did not open Bolt within {timeout:.0f}s; see {self.log_path}")

    def stop(self, timeout: float = 30.0) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()  # the JVM's shutdown hook closes the database cleanly
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            log.warning("%s did not stop in %.0fs; killing it", self.name, timeout)
            self.process.kill()
            self.process.wait(5)
        if self.process.stdin is not None:
            self.process.stdin.close()
        log.info("%s stopped", self.name)
