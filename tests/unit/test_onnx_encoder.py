"""Search queries on ONNX Runtime: the same vectors as torch, and torch for anything it cannot cover."""
from __future__ import annotations

import shutil

import numpy as np

from graph.embedding.encoder import SINGLE_THREAD_MAX, SentenceTransformerEmbedder
from graph.embedding.onnx_encoder import _fingerprint, load

QUERIES = ["Which city is home?", "c++ (v2) [draft] a:b \"unbalanced", "Où habite l'utilisateur ? 東京 🙂",
           " ".join(["a very long query that the tokenizer must truncate"] * 60)]


def cached_export(embedder, model_cache, tmp_path):
    """A copy of the session's export under tmp_path, named as load() looks for it."""
    name = f"query-{_fingerprint(embedder.model_path)}.onnx"
    return shutil.copy(model_cache / name, tmp_path / name)


def test_queries_on_onnx_runtime_get_the_vectors_torch_gives(embedder):
    assert embedder.query_encoder is not None  # the shipped model is exported and checked at start-up
    for query in QUERIES:
        onnx = embedder.encode([query])
        assert onnx.dtype == np.float32 and onnx.shape == (1, embedder.dimensions)
        np.testing.assert_allclose(onnx, embedder._on_torch([query]), atol=1e-5)
        assert abs(float(np.linalg.norm(onnx)) - 1) < 1e-5
    # Two texts of different lengths in one call: padding must not leak into the mean.
    pair = QUERIES[:SINGLE_THREAD_MAX]
    np.testing.assert_allclose(embedder.encode(pair), embedder._on_torch(pair), atol=1e-5)


def test_a_pipeline_the_export_does_not_cover_stays_on_torch(embedder, tmp_path):
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Dense

    base = embedder.model
    projected = SentenceTransformer(modules=[base[0], base[1], Dense(in_features=384, out_features=128)], device="cpu")
    assert load(projected, embedder.model_path, projected.encode, tmp_path) is None
    assert list(tmp_path.iterdir()) == []  # nothing was exported


def test_an_export_that_disagrees_with_torch_is_dropped(embedder, model_cache, tmp_path):
    copy = cached_export(embedder, model_cache, tmp_path)
    assert load(embedder.model, embedder.model_path, lambda texts: -embedder._on_torch(texts), tmp_path) is None
    assert not copy.exists()  # the next start exports again


def test_a_damaged_export_is_dropped(embedder, model_cache, tmp_path):
    copy = cached_export(embedder, model_cache, tmp_path)
    copy.write_bytes(b"not an onnx graph")
    assert load(embedder.model, embedder.model_path, embedder._on_torch, tmp_path) is None
    assert not copy.exists()


def test_the_torch_runtime_can_be_chosen(tmp_path):
    on_torch = SentenceTransformerEmbedder(query_runtime="torch", cache_dir=tmp_path)
    assert on_torch.query_encoder is None and list(tmp_path.iterdir()) == []
    assert on_torch.encode(["Which city is home?"]).shape == (1, on_torch.dimensions)
