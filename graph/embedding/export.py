"""Export a sentence-transformers model to ONNX, and prove the export equal to the model.

    .venv/bin/python -m graph.embedding.export [--model DIR] [--out DIR]

sentence-transformers is the component that knows the model: this program loads it on torch,
checks that its pipeline is one the export covers (transformer, mean pooling, normalisation),
exports that pipeline as one ONNX graph, saves the model's own tokenizer (`tokenizer.json`, as
the model's fast tokenizer runs it), then runs the export exactly as the service will
(`graph/embedding/onnx_encoder.py`: ONNX Runtime and the `tokenizers` library, no torch) on probe
sentences and compares it with `SentenceTransformer.encode`: the token ids must be equal, the
vectors within `TOLERANCE` per component. Only then does it write `manifest.json`, with the
probes' reference vectors, which the service checks again at every start without torch.

It runs as its own short-lived process (at install, `make model`, or at a service's first start
when the export is missing: graph/embedding/exports.py), so the service never imports torch, and
the exporter's memory (torch and the tracer keep hundreds of MB they never give back) ends with
it. Without arguments it exports the model the settings name (CREDENCE_EMBEDDING_MODEL) into
CREDENCE_DATA_DIR/models. Exit status 0: exported and verified; 3: this model cannot be exported
(the message says why and what to do); anything else: an unexpected failure."""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import warnings
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from graph.embedding.exports import CANNOT_EXPORT, EXPORTER_PACKAGES, export_dir, model_location, model_name
from graph.embedding.onnx_encoder import MANIFEST, MODEL_FILE, PROBES, TOKENIZER_FILE, TOLERANCE, OnnxEmbedder


class CannotExport(Exception):
    """The model is one the export does not cover, or its export is not equal to it."""


def export(model_path: str, name: str, out: Path) -> dict[str, Any]:
    """Write model.onnx, tokenizer.json and manifest.json into `out` (a new directory); the manifest,
    written last, is the mark of a verified export."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the model is on disk; never reach for a hub
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    import torch
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()
    model = SentenceTransformer(model_path, device="cpu")
    pipeline = _check_pipeline(model)
    tokenizer = model.tokenizer
    if not getattr(tokenizer, "is_fast", False):
        raise CannotExport("its tokenizer has no fast (`tokenizers`) form, which the service runs without torch")
    out.mkdir(parents=True, exist_ok=False)
    tokenizer.backend_tokenizer.save(str(out / TOKENIZER_FILE))
    if model.max_seq_length is None:
        raise CannotExport("it declares no maximum sequence length")
    max_tokens = int(model.max_seq_length)
    auto_model = model[0].auto_model
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
        torch.onnx.export(Pipeline().eval(), tuple(sample[n] for n in names), str(out / MODEL_FILE),
                          input_names=names, output_names=["embedding"], opset_version=17, dynamo=False,
                          dynamic_axes={n: {0: "batch", 1: "tokens"} for n in names})

    reference = model.encode(list(PROBES), batch_size=len(PROBES), normalize_embeddings=True,
                             convert_to_numpy=True, show_progress_bar=False).astype(np.float32)
    dimensions = int(reference.shape[1])
    manifest: dict[str, Any] = {
        "model": name, "model_path": str(Path(model_path).resolve()), "dimensions": dimensions,
        "max_tokens": max_tokens, "inputs": names, "pad_id": int(tokenizer.pad_token_id or 0),
        "pad_token": str(tokenizer.pad_token or "[PAD]"), "pipeline": pipeline, "tolerance": TOLERANCE,
        "versions": {p: _version(p) for p in EXPORTER_PACKAGES}, "probes": list(PROBES),
        "reference": reference.tolist(),
    }
    onnx = OnnxEmbedder(out, manifest, threads=1)
    theirs = (getattr(model, "preprocess", None) or model.tokenize)(list(PROBES))  # tokenize: before 6.x
    expected = [[int(i) for i, keep in zip(row, mask, strict=True) if keep]
                for row, mask in zip(theirs["input_ids"].tolist(), theirs["attention_mask"].tolist(), strict=True)]
    if onnx.token_ids(list(PROBES)) != expected:
        raise CannotExport("the saved tokenizer does not reproduce the model's token ids on the probe sentences")
    gap = max(float(np.abs(onnx.encode(list(PROBES)) - reference).max()),  # one padded batch
              max(float(np.abs(onnx.encode([p])[0] - r).max()) for p, r in zip(PROBES, reference, strict=True)))
    if gap > TOLERANCE:
        raise CannotExport(f"the ONNX export differs from the model by {gap:.2g} (more than {TOLERANCE:g})")
    manifest["max_difference"] = gap
    (out / MANIFEST).write_text(json.dumps(manifest))
    return manifest


def _check_pipeline(model: Any) -> list[str]:
    modules = [type(m).__name__ for m in model]
    if modules != ["Transformer", "Pooling", "Normalize"]:
        raise CannotExport(f"its pipeline is {' + '.join(modules)}; the export covers Transformer + Pooling (mean) "
                           f"+ Normalize")
    config = model[1].get_config_dict()
    mean = (config["pooling_mode"] == "mean" if "pooling_mode" in config else  # older releases: one flag per mode
            bool(config.get("pooling_mode_mean_tokens"))
            and sum(bool(v) for k, v in config.items() if k.startswith("pooling_mode_")) == 1)
    if not mean:
        raise CannotExport("its pooling is not the mean of the token embeddings, the one the export covers")
    return modules


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "none"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", help="a local sentence-transformers model (default: CREDENCE_EMBEDDING_MODEL, "
                                        "else the shipped all-MiniLM-L6-v2)")
    parser.add_argument("--name", help="the name the graph records for it (default: the model's own)")
    parser.add_argument("--out", type=Path, help="where to write the export (default: its place under "
                                                 "CREDENCE_DATA_DIR/models, skipped when already there)")
    args = parser.parse_args(argv)
    if args.model is None or args.out is None:
        from graph.settings import Settings

        settings = Settings.from_env()
        model = args.model or model_location(settings.embedding_model)
        out = args.out or export_dir(model, settings.data_dir / "models")
        if args.out is None and (out / MANIFEST).exists():
            print(f"already exported: {out}")
            return 0
    else:
        model, out = args.model, args.out
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(f"{out.name}.{os.getpid()}.partial")
    shutil.rmtree(partial, ignore_errors=True)
    try:
        manifest = export(model, args.name or model_name(model), partial)
    except CannotExport as exc:
        shutil.rmtree(partial, ignore_errors=True)
        print(f"cannot export {model}: {exc}", file=sys.stderr)
        return CANNOT_EXPORT
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    try:
        os.rename(partial, out)  # atomic: a concurrent start sees the whole export or none
    except OSError:  # another process exported the same model first: theirs is as good
        shutil.rmtree(partial, ignore_errors=True)
        if not (out / MANIFEST).exists():
            raise
    print(f"exported {manifest['model']} to {out} ({manifest['dimensions']} dims, max difference from the model "
          f"{manifest['max_difference']:.1g})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
