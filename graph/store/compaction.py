"""Forcing out of the files what hard deletes left there (docs/operations.md).

A hard delete removes a memory from the graph at once, but the databases keep bytes of it on disk
for a while: in their write-ahead logs, in index files, in the free space of their pages. What an
operator can force depends on the backend, and `compact` says what it did and what remains.

- Embedded ArcadeDB: `CHECK DATABASE COMPRESS` gives pages' holes back; `REBUILD INDEX memory_stems_by_tenant`
  writes the full-text index anew, without the keys of deleted texts' stems (its LSM tree keeps them until
  it compacts itself); closing and opening the database flushes every page and retires the
  write-ahead files (`txlog_*.wal`). Measured: a deleted memory's text is in no file of the data
  directory afterwards. The database is closed for well under a second; a request caught in that
  moment is retried by the gateway or answers 503.
- Neo4j 5 Community (the local one, or a server at NEO4J_URI): no compaction can be forced online.
  `db.checkpoint()` is an Enterprise procedure and `neo4j-admin database copy`, which rewrites the
  store without deleted records, is Enterprise too. What stays, and until when, is returned."""
from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from graph.store.backends.connect import Backend
from graph.store.backends.embedded_arcadedb import DATABASE

ARCADEDB_STEPS = (
    ("sql", "CHECK DATABASE COMPRESS"),
    ("sql", "REBUILD INDEX memory_stems_by_tenant"),
    ("server", f"close database {DATABASE}"),
    ("server", f"open database {DATABASE}"),
)
NEO4J_REMAINS = (
    ("transaction logs (data/transactions): kept to two files of 32 MB after the current one "
     "(db.tx_log.rotation.*), so a deleted text leaves them after about 64 MB of later writes"),
    ("store files (neostore.propertystore.db.strings and others): deleted records are marked unused and "
     "their bytes stay until Neo4j reuses the space for new records"),
    ("the full-text index (schema/index/fulltext-*): Lucene keeps deleted documents until it merges "
     "their segments"),
    ("to remove all of it now: export every tenant (`credence export`), start a service on a fresh data "
     "directory, import them (`credence import`), and delete the old directory"),
)


@dataclass(frozen=True)
class CompactionStep:
    command: str
    seconds: float


@dataclass(frozen=True)
class Compaction:
    backend: str
    complete: bool  # after it, no file of the data directory holds what hard deletes removed
    steps: tuple[CompactionStep, ...]
    remains: tuple[str, ...]
    seconds: float


async def compact(backend: Backend) -> Compaction:
    started = time.monotonic()
    if backend.kind != "arcadedb-embedded":
        return Compaction(backend=backend.kind, complete=False, steps=(), remains=NEO4J_REMAINS, seconds=0.0)
    arcadedb, steps = backend.arcadedb, []
    for kind, command in ARCADEDB_STEPS:
        began = time.monotonic()
        run = arcadedb.sql if kind == "sql" else arcadedb.server_command
        await asyncio.to_thread(run, command)
        steps.append(CompactionStep(command=command, seconds=round(time.monotonic() - began, 3)))
    return Compaction(backend=backend.kind, complete=True, steps=tuple(steps), remains=(),
                      seconds=round(time.monotonic() - started, 3))
