"""Fits ingestion's classifier of claimless kinds (graph/ingestion/kind_classifier.py) on the whole
tuning half of the labelled utterances, and writes it beside the module as
graph/ingestion/kinds.json, which the service ships.

    .venv/bin/python bench/fit_ingest_kinds.py            # write the file
    .venv/bin/python bench/fit_ingest_kinds.py --check    # exit 1 when the shipped file differs from a fresh fit

Only `tune` lines are read (bench/ingestion_folds.py's labels: the kind of a line's claimless
memory, `none` for a user's line that expects nothing); each sentence embedded as written with the
service's default model. The fit is deterministic (lbfgs from zero)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.ingestion_folds import Encoder, examples, fitted  # noqa: E402
from bench.ingestion_quality import Similarity, load  # noqa: E402
from graph.ingestion import kind_classifier  # noqa: E402
from graph.language import classifier  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare a fresh fit with the shipped file")
    args = parser.parse_args()
    rows = load("tune")
    model = fitted(rows, Encoder(Similarity(lexical=False)))
    if args.check:
        shipped = kind_classifier.shipped()
        same = shipped is not None and classifier.same({kind_classifier.HEAD: shipped}, {kind_classifier.HEAD: model})
        print("the shipped classifier matches a fresh fit" if same else "the shipped classifier is stale")
        sys.exit(0 if same else 1)
    classifier.save(kind_classifier.SHIPPED, {kind_classifier.HEAD: model})
    print(f"wrote {kind_classifier.SHIPPED.relative_to(ROOT)}: {len(model.labels)} labels x {model.dimensions} dims, "
          f"fitted on {len(examples(rows))} sentences of the tuning half with {model.name}")


if __name__ == "__main__":
    main()
