"""Fits the router's intent classifier (graph/asking/intents.py) on the tuning half of the labelled
questions, and writes it beside the module as graph/asking/intents.json, which the service ships.

    .venv/bin/python bench/fit_intents.py            # write the file
    .venv/bin/python bench/fit_intents.py --check    # exit 1 when the shipped file differs from a fresh fit

Only `tune` lines are read: the test half stays unread, so bench/routing_quality.py measures the
blend on questions neither the rules nor the classifier saw. Each question is embedded as the router
embeds it (graph/asking/blend.py: names and the window replaced by stand-ins) with the service's
default model; the fit is deterministic (lbfgs from zero), so the same lines give the same file up to
the rounding of the floats."""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from graph.asking import intents  # noqa: E402
from graph.asking.blend import for_classifier  # noqa: E402
from graph.language import classifier  # noqa: E402

DATA = ROOT / "bench" / "datasets" / "questions_labelled.jsonl"


def tune_rows() -> list[dict]:
    rows = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
    return [r for r in rows if r["split"] == "tune"]


def fitted() -> classifier.Classifier:
    from graph.embedding.encoder import SentenceTransformerEmbedder

    rows = tune_rows()
    embedder = SentenceTransformerEmbedder()
    texts = [for_classifier(r["question"]) for r in rows]
    return intents.fit(embedder.encode(texts), [intents.label(r["intent"], r["also"]) for r in rows],
                       name=embedder.name, texts=texts)


def ship(path: Path, head: str, shipped: classifier.Classifier | None, model: classifier.Classifier,
         check: bool, what: str) -> None:
    """Write `model` as the file at `path`, or (`check`) exit 1 when the shipped one differs from it."""
    if check:
        same = shipped is not None and classifier.same({head: shipped}, {head: model})
        print("the shipped classifier matches a fresh fit" if same else "the shipped classifier is stale")
        sys.exit(0 if same else 1)
    classifier.save(path, {head: model})
    print(f"wrote {path.relative_to(ROOT)}: {len(model.labels)} {what} x {model.dimensions} dims, "
          f"with {model.name}")


def fit_main(doc: str, path: Path, head: str, shipped: Callable[[], classifier.Classifier | None],
             fit: Callable[[], classifier.Classifier], what: str) -> None:
    """A fit script's main: write the fresh fit as the shipped file at `path`, or (--check) compare."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare a fresh fit with the shipped file")
    args = parser.parse_args()
    ship(path, head, shipped(), fit(), args.check, what)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare a fresh fit with the shipped file")
    args = parser.parse_args()
    ship(intents.SHIPPED, intents.HEAD, intents.shipped(), fitted(), args.check,
         f"intents, fitted on {len(tune_rows())} tuning lines,")


if __name__ == "__main__":
    main()
