"""The service's embedder: the model's ONNX export on ONNX Runtime, with the model's own tokenizer.

It needs onnxruntime, `tokenizers` and numpy, never torch: importing torch and
sentence-transformers alone costs the service about 720 MB of resident memory. The export and
its proof of equality come from sentence-transformers, in a process of their own
(graph/embedding/export.py); this module only runs what that process wrote and verified, and at
every load checks the probe sentences against the reference vectors the model gave there.

One session serves both kinds of call, so the weights are held once. A query or two runs on the
calling thread; a batch is sorted by length (as sentence-transformers does, so little of it is
padding), cut into sub-batches, and the sub-batches run on `workers` threads at once, each on
the session's own `threads` (session.run is thread-safe and releases the GIL). The defaults
were chosen by bench/embedding_runtime.py on two cores (docs/benchmarks.md)."""
from __future__ import annotations

import ctypes
import json
import logging
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

MODEL_FILE, TOKENIZER_FILE, MANIFEST = "model.onnx", "tokenizer.json", "manifest.json"
# Short, long (truncated), punctuated, accented, CJK and emoji, with padding between them in a batch,
# and white space at the ends: what the tokenizer and the pooling must get right.
PROBES = ("hello", "What did the user say about the Lisbon trip budget?",
          "A longer memory, with punctuation: dates (3 June 2026), codes like INV-4471, and names.",
          "  Où habite l'utilisateur ? 東京 🙂 c++ (v2) [draft] a:b \"unbalanced  ",
          " ".join(["a very long memory that the tokenizer must truncate at the model's limit"] * 40))
TOLERANCE = 1e-4  # most any component of a unit vector may differ from the model's own (float32 export)
SINGLE_THREAD_MAX = 2  # texts per call that count as a query: run on the calling thread, at once
BATCH_SIZE = 32  # texts per sub-batch of a larger call
THREADS = 1  # ONNX Runtime's intra-op threads per run
WORKERS = 2  # sub-batches run at once
MMAP_THRESHOLD = 128 << 10  # bytes; see _return_freed_memory

log = logging.getLogger(__name__)


class ExportMismatch(Exception):
    """The export on disk does not give the vectors its manifest recorded from the model."""


class OnnxEmbedder:
    runtime = "onnx"

    def __init__(self, directory: Path, manifest: dict[str, Any] | None = None, *, threads: int = THREADS,
                 workers: int = WORKERS, batch_size: int = BATCH_SIZE) -> None:
        import onnxruntime
        from tokenizers import Tokenizer

        self.directory = directory
        self.manifest = manifest or json.loads((directory / MANIFEST).read_text())
        self.name, self.dimensions = str(self.manifest["model"]), int(self.manifest["dimensions"])
        self.max_tokens, self.inputs = int(self.manifest["max_tokens"]), list(self.manifest["inputs"])
        self.pad_id = int(self.manifest["pad_id"])
        self.batch_size, self.threads, self.workers = batch_size, threads, workers
        self.tokenizer = Tokenizer.from_file(str(directory / TOKENIZER_FILE))
        self.tokenizer.no_padding()  # padded here, per sub-batch, after sorting by length
        self.tokenizer.enable_truncation(max_length=self.max_tokens)
        self.counter = Tokenizer.from_file(str(directory / TOKENIZER_FILE))  # counts whole texts
        self.counter.no_padding()
        self.counter.no_truncation()
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
        # No spinning: the graph database shares the machine's cores, and an idle spin steals them.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.enable_cpu_mem_arena = False  # an arena keeps the largest batch's buffers for good
        _return_freed_memory()
        self.session = onnxruntime.InferenceSession(str(directory / MODEL_FILE), options,
                                                    providers=["CPUExecutionProvider"])
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="onnx") if workers > 1 else None

    def verify(self) -> float:
        """The largest difference from the model's own vectors on the probe sentences; raises
        ExportMismatch beyond the tolerance."""
        probes, reference = list(self.manifest["probes"]), np.asarray(self.manifest["reference"], dtype=np.float32)
        gap = max(float(np.abs(self.encode(probes) - reference).max()),
                  max(float(np.abs(self.encode([p])[0] - r).max()) for p, r in zip(probes, reference, strict=True)))
        if not gap <= float(self.manifest["tolerance"]):  # NaN fails too
            raise ExportMismatch(f"the ONNX export differs from the model's own vectors by {gap:.2g}")
        return gap

    def token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        """The ids the model sees (special tokens included, truncated at its limit)."""
        return [e.ids for e in self.tokenizer.encode_batch(list(texts))]

    def count_tokens(self, text: str) -> int:
        """Tokens of the model's own tokenizer, without truncation or special tokens."""
        return len(self.counter.encode(text, add_special_tokens=False).ids)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length float32 rows, one per text, in the order given."""
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        encodings = self.tokenizer.encode_batch(list(texts))
        if len(texts) <= SINGLE_THREAD_MAX:
            return self._run(encodings)
        order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
        chunks = [order[i:i + self.batch_size] for i in range(0, len(order), self.batch_size)]
        parts = (self._pool.map(lambda c: self._run([encodings[i] for i in c]), chunks) if self._pool
                 else (self._run([encodings[i] for i in c]) for c in chunks))
        out = np.empty((len(texts), self.dimensions), dtype=np.float32)
        for chunk, vectors in zip(chunks, parts, strict=True):
            out[chunk] = vectors
        return out

    def _run(self, encodings: list[Any]) -> np.ndarray:
        width = max(len(e.ids) for e in encodings)
        arrays = {"input_ids": np.full((len(encodings), width), self.pad_id, dtype=np.int64),
                  "attention_mask": np.zeros((len(encodings), width), dtype=np.int64),
                  "token_type_ids": np.zeros((len(encodings), width), dtype=np.int64)}
        for row, e in enumerate(encodings):
            n = len(e.ids)
            arrays["input_ids"][row, :n] = e.ids
            arrays["attention_mask"][row, :n] = e.attention_mask
            arrays["token_type_ids"][row, :n] = e.type_ids
        return self.session.run(None, {name: arrays[name] for name in self.inputs})[0].astype(np.float32, copy=False)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False)


def _return_freed_memory() -> None:
    """Have glibc map every allocation of 128 kB or more on its own, so that freeing it returns it.

    A batch's activations are megabytes per sub-batch, run on several threads. glibc's default
    raises its mmap threshold to the largest block freed (up to 32 MB), after which such blocks come
    from per-thread heaps that keep them. Measured on 4,096 corpus texts in calls of 256: 204 MB
    resident before, 332 MB after (341 MB peak) by default; 183 MB after (219 MB peak) with the
    threshold fixed at 128 kB (at 1 MB: 266 MB, 301 MB peak). Elsewhere than glibc nothing changes."""
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return
    if mallopt(-3, MMAP_THRESHOLD) != 1:  # -3: M_MMAP_THRESHOLD; setting it also stops its growth
        log.debug("mallopt(M_MMAP_THRESHOLD) was refused")
