"""The service's embedder: the model's ONNX export on ONNX Runtime with the model's own tokenizer gives the
vectors sentence-transformers gives (this test process may load torch; the service never does), is checked
at every load, is made again when damaged, and torch stays the runtime one can choose."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from graph.core.errors import StartupError
from graph.embedding.encoder import SINGLE_THREAD_MAX, load_embedder
from graph.embedding.onnx_encoder import MANIFEST, MODEL_FILE, TOLERANCE, ExportMismatch, OnnxEmbedder

ROOT = Path(__file__).resolve().parents[2]
QUERIES = ["Which city is home?", "c++ (v2) [draft] a:b \"unbalanced", "  Où habite l'utilisateur ? 東京 🙂  ",
           " ".join(["a very long query that the tokenizer must truncate"] * 60), "x"]


@pytest.fixture(scope="module")
def reference():
    """sentence-transformers on torch: the model itself."""
    from graph.embedding.encoder import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder()


def test_the_service_embedder_gives_the_models_own_vectors(embedder, reference):
    assert embedder.runtime == "onnx" and embedder.name == reference.name == "all-MiniLM-L6-v2"
    assert embedder.dimensions == reference.dimensions == 384
    for query in QUERIES:  # one at a time, as a search
        onnx = embedder.encode([query])
        assert onnx.dtype == np.float32 and onnx.shape == (1, 384)
        np.testing.assert_allclose(onnx, reference.encode([query]), atol=TOLERANCE)
        assert abs(float(np.linalg.norm(onnx)) - 1) < 1e-5
    # Two texts of different lengths in one call: padding must not leak into the mean.
    pair = QUERIES[2:2 + SINGLE_THREAD_MAX]
    np.testing.assert_allclose(embedder.encode(pair), reference.encode(pair), atol=TOLERANCE)
    # A batch: sorted by length into sub-batches run side by side, answered in the order given.
    batch = [f"{QUERIES[i % len(QUERIES)]} {'and more ' * (i % 17)}(note {i})" for i in range(75)]
    np.testing.assert_allclose(embedder.encode(batch), reference.encode(batch), atol=TOLERANCE)
    assert embedder.encode([]).shape == (0, 384)
    # The model's own tokenizer counts tokens for context budgets, untruncated.
    for text in QUERIES:
        assert embedder.count_tokens(text) == reference.count_tokens(text)


def test_every_load_checks_the_export_against_the_models_vectors(embedder):
    manifest = json.loads((embedder.directory / MANIFEST).read_text())
    assert manifest["max_difference"] <= manifest["tolerance"] == TOLERANCE
    assert OnnxEmbedder(embedder.directory).verify() <= TOLERANCE
    manifest["reference"] = (-np.asarray(manifest["reference"])).tolist()
    with pytest.raises(ExportMismatch, match="differs"):
        OnnxEmbedder(embedder.directory, manifest).verify()


def test_a_damaged_export_is_exported_again(embedder, tmp_path):
    copy = Path(shutil.copytree(embedder.directory, tmp_path / embedder.directory.name))
    (copy / MODEL_FILE).write_bytes(b"not an onnx graph")
    again = load_embedder(None, tmp_path)
    assert again.directory == copy and again.verify() <= TOLERANCE
    np.testing.assert_array_equal(again.encode(QUERIES), embedder.encode(QUERIES))


def test_a_model_the_export_does_not_cover_is_refused_with_what_to_do(model_128d, tmp_path):
    with pytest.raises(StartupError) as err:
        load_embedder(model_128d, tmp_path)
    assert "Transformer + Pooling + Dense" in str(err.value) and "CREDENCE_EMBEDDING_RUNTIME=torch" in str(err.value)
    assert list(tmp_path.iterdir()) == []  # nothing half-written is left to trust later
    with pytest.raises(StartupError, match="not a directory"):
        load_embedder(str(tmp_path / "absent"), tmp_path)


def test_the_torch_runtime_can_be_chosen(tmp_path):
    on_torch = load_embedder(None, tmp_path, "torch")
    assert on_torch.runtime == "torch" and list(tmp_path.iterdir()) == []  # nothing exported
    assert on_torch.encode(["Which city is home?"]).shape == (1, on_torch.dimensions)


def test_embedding_on_onnx_never_imports_torch(embedder):
    """In a fresh interpreter, as the service loads and uses it (the service process itself:
    tests/integration/test_service_process.py)."""
    code = ("import sys; from pathlib import Path; from graph.embedding.encoder import load_embedder; "
            f"e = load_embedder(None, Path({str(embedder.directory.parent)!r})); e.encode(['one']); "
            "e.encode(['a', 'b', 'c', 'd']); e.count_tokens('x'); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('torch', 'sentence_transformers', 'transformers', 'onnx')))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout
