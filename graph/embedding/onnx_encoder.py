"""Search queries through ONNX Runtime: the same model, exported from torch.

A single short text spends most of its torch time in per-operator overhead; ONNX Runtime runs
the same graph about three times faster on two cores (docs/benchmarks.md), and every search
waits for its query's embedding. Batches stay on torch, where sentence-transformers' length
sorting made it the faster of the two.

The export covers the pipeline most sentence-transformers models use (transformer, mean pooling,
normalisation). It runs once per model in a child process, because the exporter keeps about
150 MB it never gives back, and is cached under the data directory. Before use it is checked
against torch on probe sentences; any other model, a failed export or a mismatch keeps queries
on torch."""
from __future__ import annotations

import hashlib
import logging
import os
import subprocess
import sys
import warnings
from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

log = logging.getLogger(__name__)

EXPORT_VERSION = 1  # bump when the exported graph changes
PROBES = ("hello", "What did the user say about the Lisbon trip budget?",
          "A longer memory, with punctuation: dates (3 June 2026), codes like INV-4471, and names.")
TOLERANCE = 1e-4  # max absolute difference per component from torch's unit vector
EXPORT_TIMEOUT = 600


class OnnxQueryEncoder:
    def __init__(self, session: Any, tokenizer: Any, max_tokens: int) -> None:
        self.session, self.tokenizer, self.max_tokens = session, tokenizer, max_tokens
        self.inputs = [i.name for i in session.get_inputs()]

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        batch = self.tokenizer(list(texts), padding=True, truncation=True, max_length=self.max_tokens,
                               return_tensors="np")
        return self.session.run(None, {name: batch[name].astype(np.int64) for name in self.inputs})[0]


def load(model: Any, model_path: str, reference: Callable[[Sequence[str]], np.ndarray],
         cache_dir: Path) -> OnnxQueryEncoder | None:
    """An ONNX Runtime encoder equivalent to `reference` (texts -> unit vectors on torch), or None."""
    if not _mean_pooled_and_normalised(model):
        log.info("queries embed on torch: the model is not transformer + mean pooling + normalize")
        return None
    try:
        import onnxruntime
    except ImportError as exc:
        log.info("queries embed on torch: %s", exc)
        return None
    path = cache_dir / f"query-{_fingerprint(model_path)}.onnx"
    if not path.exists() and not _export_in_child(model_path, path):
        return None
    options = onnxruntime.SessionOptions()
    # One thread, and no spinning: the graph database shares the machine's cores.
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.enable_cpu_mem_arena = False  # one small input at a time: an arena only holds memory
    try:
        session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # a damaged cache file: torch still works, and the next start exports again
        log.warning("queries embed on torch: cannot load %s: %s", path, exc)
        path.unlink(missing_ok=True)
        return None
    encoder = OnnxQueryEncoder(session, model.tokenizer, int(model.max_seq_length))
    gap = max(float(np.abs(encoder.encode([p]) - reference([p])).max()) for p in PROBES)
    if gap > TOLERANCE:
        log.warning("queries embed on torch: the ONNX export differs from torch by %.2g", gap)
        path.unlink(missing_ok=True)
        return None
    log.info("queries embed on ONNX Runtime (max difference from torch %.1g)", gap)
    return encoder


def _mean_pooled_and_normalised(model: Any) -> bool:
    modules = list(model)
    if [type(m).__name__ for m in modules] != ["Transformer", "Pooling", "Normalize"]:
        return False
    config = modules[1].get_config_dict()
    if "pooling_mode" in config:
        return config["pooling_mode"] == "mean"
    # Older sentence-transformers: one flag per mode.
    return bool(config.get("pooling_mode_mean_tokens")) and sum(
        bool(v) for k, v in config.items() if k.startswith("pooling_mode_")) == 1


def _fingerprint(model_path: str) -> str:
    """The model's files (names, sizes, times) and the exporting versions: a change re-exports."""
    digest = hashlib.sha256(f"{EXPORT_VERSION} {Path(model_path).resolve()}".encode())
    for package in ("torch", "onnx", "onnxruntime", "transformers"):
        try:
            digest.update(f" {package}={metadata.version(package)}".encode())
        except metadata.PackageNotFoundError:  # the export then fails, and says why
            digest.update(f" {package}=none".encode())
    for file in sorted(p for p in Path(model_path).rglob("*") if p.is_file()):
        stat = file.stat()
        digest.update(f" {file.relative_to(model_path)}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:16]


def _export_in_child(model_path: str, path: Path) -> bool:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    try:
        done = subprocess.run([sys.executable, "-m", "graph.embedding.onnx_encoder", model_path, str(partial)],
                              capture_output=True, text=True, timeout=EXPORT_TIMEOUT)
        failure = None if done.returncode == 0 else (done.stderr.strip().splitlines() or ["no output"])[-1]
    except (OSError, subprocess.TimeoutExpired) as exc:
        failure = str(exc)
    if failure is not None:
        log.warning("queries embed on torch: the ONNX export failed: %s", failure)
        partial.unlink(missing_ok=True)
        return False
    os.replace(partial, path)  # atomic: a concurrent start sees the whole file or none
    return True


def export(model_path: str, out: str) -> None:
    """The child's work: load the model and write its ONNX graph (transformer, mean pool, normalise)."""
    import torch
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(model_path, device="cpu")
    tokenizer, auto_model = model.tokenizer, model[0].auto_model
    assert isinstance(auto_model, torch.nn.Module)  # torch types a module's attributes as Tensor | Module
    transformer = auto_model.eval()
    sample = tokenizer(["hello world"], return_tensors="pt")
    names = [n for n in tokenizer.model_input_names if n in sample]

    class Pipeline(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.transformer = transformer

        def forward(self, *inputs: torch.Tensor) -> torch.Tensor:
            named = dict(zip(names, inputs, strict=True))
            tokens = self.transformer(**named).last_hidden_state
            mask = named["attention_mask"].unsqueeze(-1).to(tokens.dtype)
            pooled = (tokens * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, dim=1)

    with warnings.catch_warnings(), torch.inference_mode():
        warnings.simplefilter("ignore")
        torch.onnx.export(Pipeline().eval(), tuple(sample[n] for n in names), out, input_names=names,
                          output_names=["embedding"], opset_version=17, dynamo=False,
                          dynamic_axes={n: {0: "batch", 1: "tokens"} for n in names})


if __name__ == "__main__":
    export(sys.argv[1], sys.argv[2])
