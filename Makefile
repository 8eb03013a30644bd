# Everything a fresh machine needs comes from here: the venv, torch (pinned CPU build),
# the project, ArcadeDB (a PyPI wheel), Neo4j's Cypher linter (npm) and Neo4j 5.26 Community
# with its launcher (Maven Central), and Debian's chromium for the Neo4j Browser test.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMPS  := .stamps
LINTDIR := tools/cypher-lint
NEO4JDIR := tools/neo4j

.PHONY: setup model neo4j chromium run run-neo4j test bench bench-load bench-quality bench-conversations lint-cypher lint-python clean

setup: $(STAMPS)/python $(STAMPS)/lint $(STAMPS)/neo4j $(STAMPS)/chromium model

$(STAMPS)/python: pyproject.toml client/pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	# torch first and pinned: an unpinned resolve pulls a multi-GB CUDA build.
	$(BIN)/python -m pip install --quiet "torch==2.13.0"
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	# The light client (its own distribution, client/): the tests drive it, and its MCP server.
	$(BIN)/python -m pip install --quiet -e "./client[mcp]"
	mkdir -p $(STAMPS) && touch $@

$(STAMPS)/lint: $(LINTDIR)/package.json $(LINTDIR)/package-lock.json
	cd $(LINTDIR) && npm ci --silent --no-audit --no-fund
	mkdir -p $(STAMPS) && touch $@

# The local Neo4j backend: the launcher and Neo4j's jars into $(NEO4JDIR)/target. Without Java
# and Maven the Neo4j half of the tests skips, except on CI, where that is a failure.
$(STAMPS)/neo4j: $(NEO4JDIR)/pom.xml $(wildcard $(NEO4JDIR)/src/main/java/credence/neo4j/*.java)
	@if command -v java >/dev/null && command -v mvn >/dev/null; then \
	  mvn -q -B -f $(NEO4JDIR)/pom.xml -DskipTests package && mkdir -p $(STAMPS) && touch $@; \
	elif [ "$$CI" = "true" ]; then \
	  echo "CI must run the Neo4j half of the suite: install Java 17 and Maven" >&2; exit 1; \
	else \
	  echo "note: no Java 17 or Maven here, so the Neo4j half of the tests will be skipped"; \
	fi

neo4j: $(STAMPS)/neo4j

# The Neo4j Browser test drives Debian's chromium with Playwright (the `playwright` Python package
# from the dev extra; never `playwright install`, which downloads a browser build of its own).
# apt-get runs only when /usr/bin/chromium is missing, and needs root; without it the test skips,
# except on CI, where that is a failure.
$(STAMPS)/chromium:
	@if [ ! -x /usr/bin/chromium ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
	    chromium fonts-liberation || echo "apt-get install chromium failed" >&2; \
	fi
	@if [ -x /usr/bin/chromium ]; then \
	  mkdir -p $(STAMPS) && touch $@; \
	elif [ "$$CI" = "true" ]; then \
	  echo "CI must run the Neo4j Browser test: install Debian's chromium (apt-get install chromium, as root)" >&2; exit 1; \
	else \
	  echo "note: no /usr/bin/chromium (apt-get install chromium, as root), so the Neo4j Browser test will be skipped"; \
	fi

chromium: $(STAMPS)/chromium

# The embedding model's ONNX export, made and verified against the model by sentence-transformers in
# a process of its own, into CREDENCE_DATA_DIR/models (default ./data/models): the service embeds on
# it and never loads torch. A service that finds no export makes it at its first start.
model: $(STAMPS)/python
	$(BIN)/python -m graph.embedding.export

run: $(STAMPS)/python model
	$(BIN)/python -m api

# The service on a local Neo4j 5.26 Community, with Neo4j Browser at http://127.0.0.1:7474/browser/
run-neo4j: $(STAMPS)/python $(STAMPS)/neo4j model
	CREDENCE_BACKEND=neo4j CREDENCE_LOCAL_NEO4J_HTTP_PORT=$${CREDENCE_LOCAL_NEO4J_HTTP_PORT:-7474} $(BIN)/python -m api

test: setup
	$(BIN)/python -m pytest $(PYTEST_ARGS)

$(STAMPS)/bench: $(STAMPS)/python $(STAMPS)/neo4j
	$(BIN)/python -m pip install --quiet -e ".[dev,bench]"
	mkdir -p $(STAMPS) && touch $@

# Both local backends side by side, with a plain vector store and the exact floor as references.
bench: $(STAMPS)/bench
	$(BIN)/python bench/ingest_search.py $(BENCH_ARGS)

# 50 clients over loopback HTTP against `python -m api` for five minutes (issue 13): 5xx, p99 per
# operation, and what the run promised (acknowledged writes readable, one active value per slot).
bench-load: $(STAMPS)/python
	$(BIN)/python bench/load_test.py $(BENCH_ARGS)

bench-quality: $(STAMPS)/python
	$(BIN)/python bench/retrieval_quality.py $(BENCH_ARGS)

# Real conversations (issue 12): fetches REALTALK, RealMem and MADial-Bench into bench/data/
# (git-ignored) when absent, then measures; a dataset that cannot be fetched is skipped, saying so.
# MADial runs on its own: the shipped fusion is fitted on the other two.
bench-conversations: $(STAMPS)/python
	test -d bench/data/realtalk || $(BIN)/python -m bench.datasets.fetch_realtalk || true
	test -d bench/data/realmem || $(BIN)/python -m bench.datasets.fetch_realmem || true
	test -d bench/data/madial || $(BIN)/python -m bench.datasets.fetch_madial || true
	$(BIN)/python bench/conversation_quality.py $(BENCH_ARGS)
	$(BIN)/python bench/conversation_quality.py --datasets madial $(BENCH_ARGS)

lint-cypher: $(STAMPS)/lint
	node $(LINTDIR)/lint.js cypher

# What the suite's tests/lint/test_python_lint.py runs: ruff (lint only) and mypy, configured in pyproject.toml.
lint-python: $(STAMPS)/python
	$(BIN)/python -m ruff check api graph client tests bench tools
	$(BIN)/python -m mypy api graph client

clean:
	rm -rf $(VENV) $(STAMPS) $(LINTDIR)/node_modules $(NEO4JDIR)/target
