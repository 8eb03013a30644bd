# Everything a fresh machine needs comes from here: the venv, torch (pinned CPU build),
# the project, ArcadeDB (a PyPI wheel) and Neo4j's Cypher linter (npm).
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMPS  := .stamps
LINTDIR := tools/cypher-lint

.PHONY: setup run test bench bench-quality lint-cypher clean

setup: $(STAMPS)/python $(STAMPS)/lint

$(STAMPS)/python: pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	# torch first and pinned: an unpinned resolve pulls a multi-GB CUDA build.
	$(BIN)/python -m pip install --quiet "torch==2.13.0"
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	mkdir -p $(STAMPS) && touch $@

$(STAMPS)/lint: $(LINTDIR)/package.json $(LINTDIR)/package-lock.json
	cd $(LINTDIR) && npm ci --silent --no-audit --no-fund
	mkdir -p $(STAMPS) && touch $@

run: $(STAMPS)/python
	$(BIN)/python -m api

test: setup
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMPS)/python
	$(BIN)/python bench/ingest_search.py $(BENCH_ARGS)

bench-quality: $(STAMPS)/python
	$(BIN)/python bench/retrieval_quality.py $(BENCH_ARGS)

lint-cypher: $(STAMPS)/lint
	node $(LINTDIR)/lint.js cypher

clean:
	rm -rf $(VENV) $(STAMPS) $(LINTDIR)/node_modules
