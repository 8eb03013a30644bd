"""A local Neo4j 5.26 Community, started from Maven artifacts by the small launcher in tools/neo4j
(no Docker): a child process with Bolt on loopback, its store in the data directory, its password
handed over on standard input. Closing that pipe (the service died) stops it, as does SIGTERM."""
from __future__ import annotations

import logging
import shutil
from pathlib import Path

from graph.core.errors import StartupError
from graph.store.backends.child_process import ChildDatabase, Endpoint, free_port, secret_file

log = logging.getLogger(__name__)
LAUNCHER_DIR = Path(__file__).resolve().parents[3] / "tools" / "neo4j"
LAUNCHER_JAR = LAUNCHER_DIR / "target" / "credence-neo4j-launcher.jar"
DATABASE = "neo4j"
# From Neo4j's own neo4j.conf: without them the page cache and transaction logs take slower
# fallback paths (tools/neo4j/README.md).
JVM_FLAGS = [
    "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
    "-Dio.netty.tryReflectionSetAccessible=true", "-XX:+UseG1GC", "-XX:-OmitStackTraceInFastThrow",
    "-XX:+ExitOnOutOfMemoryError",
    # Neo4j writes a Lucene index's small new segments into heap buffers (NRTCachingDirectory, up to
    # 50 MB), and its searchers read them from there until they are merged away or Neo4j restarts;
    # reading a vector that straddles two of those buffers throws and catches an exception, so after a
    # bulk load each vector-index query cost ~10x more (docs/backends.md §2.22). 0 and 0: every segment
    # is written to and read from its file. Neo4j feature toggles (internal, like those in the launcher).
    "-Dorg.neo4j.kernel.api.impl.index.storage.DirectoryFactory.max_cached_mb=0",
    "-Dorg.neo4j.kernel.api.impl.index.storage.DirectoryFactory.max_merge_size_mb=0",
]


def java_executable() -> str:
    java = shutil.which("java")
    if java is None:
        raise StartupError("CREDENCE_BACKEND=neo4j needs Java 17 or 21 on the PATH (Neo4j 5.26 runs on those); "
                           "install OpenJDK 17, or use the embedded backend")
    return java


def launcher_classpath() -> str:
    if not LAUNCHER_JAR.exists():
        hint = "run `make neo4j`" if shutil.which("mvn") else "install Maven, then run `make neo4j`"
        raise StartupError(f"the Neo4j launcher is not built ({LAUNCHER_JAR} is missing): {hint}, which "
                           "fetches Neo4j 5.26 Community from Maven Central")
    return f"{LAUNCHER_JAR}:{LAUNCHER_DIR / 'target' / 'lib'}/*"


class LocalNeo4j(ChildDatabase):
    name = "local Neo4j"

    def __init__(self, data_dir: Path, *, bolt_port: int = 0, http_port: int | None = None,
                 heap: str = "1g", pagecache: str = "256m") -> None:
        super().__init__(data_dir / "neo4j")
        self.bolt_port_requested, self.http_port_requested = bolt_port, http_port
        self.heap, self.pagecache = heap, pagecache
        self.browser_url: str | None = None

    def start(self, inherit_fds: tuple[int, ...] = ()) -> Endpoint:
        java, classpath = java_executable(), launcher_classpath()
        password = secret_file(self.root / "neo4j.secret", (self.root / "data").exists())
        self.bolt_port = free_port(self.bolt_port_requested, "local Neo4j's bolt", "CREDENCE_LOCAL_NEO4J_BOLT_PORT")
        cmd = [java, "-Xms256m", f"-Xmx{self.heap}", *JVM_FLAGS, "-cp", classpath, "credence.neo4j.Launcher",
               "--home", str(self.root), "--bolt-port", str(self.bolt_port), "--pagecache", self.pagecache]
        if self.http_port_requested is not None:
            http = self.http_port = free_port(self.http_port_requested, "local Neo4j's http",
                                              "CREDENCE_LOCAL_NEO4J_HTTP_PORT")
            cmd += ["--http-port", str(http)]
            self.browser_url = f"http://127.0.0.1:{http}/browser/"
        log.info("starting local Neo4j: data in %s, log in %s, bolt on 127.0.0.1:%d%s", self.root, self.log_path,
                 self.bolt_port, f", Browser at {self.browser_url}" if self.browser_url else "")
        self._spawn(cmd, inherit_fds, stdin_text=password + "\n")
        return Endpoint(f"bolt://127.0.0.1:{self.bolt_port}", "neo4j", password, DATABASE)
