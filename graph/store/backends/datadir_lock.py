"""An exclusive lock on the data directory, so two services never open the same database."""
from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path

from graph.core.errors import StartupError


class DataDirLock:
    def __init__(self, directory: Path, wait_seconds: float = 5.0) -> None:
        self.path = directory / "credence.lock"
        self.wait_seconds = wait_seconds
        self.fd: int | None = None

    def acquire(self) -> int:
        """Take the lock or fail with a clear message; returns the fd for child processes to inherit."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        # A killed service's backend can hold the inherited lock for a moment while it shuts down.
        deadline = time.monotonic() + self.wait_seconds
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "unknown"
                    os.close(fd)
                    raise StartupError(
                        f"data directory {self.path.parent} is in use by another Credence process (pid {holder}); "
                        "stop it or set CREDENCE_DATA_DIR to another directory") from None
                time.sleep(0.1)
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        self.fd = fd
        return fd

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
