"""Text embeddings: the service's embedder, and the lanes that run it off the event loop.

The service embeds on ONNX Runtime (graph/embedding/onnx_encoder.py): the model's verified export,
made by sentence-transformers in a process of its own (graph/embedding/exports.py), so torch never
loads in the service. CREDENCE_EMBEDDING_RUNTIME=torch runs sentence-transformers on torch here
instead: the fallback, for a model the export does not cover."""
from __future__ import annotations

import logging
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import anyio
import numpy as np

from graph.core.errors import StartupError
from graph.embedding.onnx_encoder import SINGLE_THREAD_MAX
from graph.observability.metrics import EMBEDDING_SECONDS, EMBEDDING_TEXTS, EMBEDDING_WAIT_SECONDS

log = logging.getLogger(__name__)


class Embedder(Protocol):
    name: str
    dimensions: int
    runtime: str  # "onnx" or "torch"

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length float32 rows, one per text."""


def load_embedder(model: str | None, cache_dir: Path, runtime: str = "onnx", batch_size: int | None = None
                  ) -> Embedder:
    """The configured model on the configured runtime; `cache_dir` holds ONNX exports (CREDENCE_DATA_DIR/models).
    `batch_size` None: each runtime's measured default."""
    if runtime == "torch":
        try:
            return SentenceTransformerEmbedder(model, batch_size or TORCH_BATCH_SIZE)
        except (OSError, ValueError) as exc:  # no model there, or not one sentence-transformers reads
            raise StartupError(f"CREDENCE_EMBEDDING_MODEL={model} could not be loaded on torch: {exc}") from exc
    from graph.embedding import exports

    return exports.load(model, cache_dir, batch_size)


TORCH_BATCH_SIZE = 64


class SentenceTransformerEmbedder:
    """sentence-transformers on torch, in this process: the fallback runtime, and the reference."""

    runtime = "torch"

    def __init__(self, model_path: str | None = None, batch_size: int = TORCH_BATCH_SIZE) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the model is on disk; never reach for a hub
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        import torch
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as transformers_logging

        from graph.embedding.exports import model_location, model_name

        # Its "Loading weights" bar is written straight to stderr, between the service's log lines
        # (and, with CREDENCE_LOG_FORMAT=json, as the only lines that are not JSON).
        transformers_logging.disable_progress_bar()
        self.model_path = model_location(model_path)
        self.name = model_name(self.model_path)
        self.model = SentenceTransformer(self.model_path, device="cpu")
        dimension_of = (getattr(self.model, "get_embedding_dimension", None)
                        or self.model.get_sentence_embedding_dimension)
        dimensions, max_tokens = dimension_of(), self.model.max_seq_length
        assert dimensions is not None and max_tokens is not None, "a sentence-embedding model declares both"
        self.dimensions = int(dimensions)
        self.batch_size = batch_size
        self.max_tokens = int(max_tokens)
        self._torch = torch
        self.threads = torch.get_num_threads()
        log.info("embedding model %s on torch (%d dims)", self.name, self.dimensions)

    def count_tokens(self, text: str) -> int:
        """Tokens of the model's own tokenizer, without truncation or special tokens."""
        return len(self.model.tokenizer(text, add_special_tokens=False, truncation=False)["input_ids"])

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        # A query or two runs on one thread: on a small machine the graph backend often holds a
        # core, and a two-thread matmul then waits for its slower half (search p95 72 -> 44 ms at
        # 10k, docs/benchmarks.md). Batches keep every thread, for ingest throughput.
        threads = 1 if len(texts) <= SINGLE_THREAD_MAX else self.threads
        if self._torch.get_num_threads() != threads:
            self._torch.set_num_threads(threads)
        return self.model.encode(list(texts), batch_size=self.batch_size, normalize_embeddings=True,
                                 convert_to_numpy=True, show_progress_bar=False).astype(np.float32)


class AsyncEncoder:
    """Runs encoding off the event loop in two lanes, each one call at a time (two cores gain
    nothing from two batches at once). Single texts on ONNX Runtime have a lane of their own, so a
    search's query never waits behind a whole 1,000-memory batch; on torch both share one lane,
    because torch's thread count is one global setting the two would fight over."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self.runtime = getattr(embedder, "runtime", "onnx")
        self._batches = anyio.CapacityLimiter(1)
        self._singles = anyio.CapacityLimiter(1) if self.runtime == "onnx" else self._batches

    def _lane(self, texts: Sequence[str]) -> anyio.CapacityLimiter:
        return self._singles if len(texts) <= SINGLE_THREAD_MAX else self._batches

    @property
    def dimensions(self) -> int:
        return self.embedder.dimensions

    async def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Every embedding of the service goes through here, so /metrics times them here: the model's
        own time by lane and runtime, and the wait for the lane before it."""
        lane = "single" if len(texts) <= SINGLE_THREAD_MAX else "batch"
        queued = time.perf_counter()

        def timed() -> np.ndarray:
            started = time.perf_counter()
            EMBEDDING_WAIT_SECONDS.labels(lane).observe(started - queued)
            try:
                return self.embedder.encode(texts)
            finally:
                EMBEDDING_SECONDS.labels(lane, self.runtime).observe(time.perf_counter() - started)
                EMBEDDING_TEXTS.labels(lane).inc(len(texts))

        return await anyio.to_thread.run_sync(timed, limiter=self._lane(texts))

    async def encode_one(self, text: str) -> np.ndarray:
        return (await self.encode([text]))[0]
