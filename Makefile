# The two commands of the README. Each sets itself up: a virtual environment in .venv and the
# packages it needs, reinstalled only when pyproject.toml changes.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PYTEST_ARGS ?=
SPARK4_VENV ?= .venv-spark4
SHELL  := /bin/bash

.PHONY: test conformance conformance-matrix native-engines lint vectors check-vectors capture-tables bench clean fuzz writer-deep

test: $(VENV)/.test-deps
	$(BIN)/python -m pytest tests/ $(PYTEST_ARGS)

conformance: $(VENV)/.engine-deps $(SPARK4_VENV)/.deps native-engines
	$(BIN)/python -m pytest conformance/ --compliance-report reports $(PYTEST_ARGS)

# ruff's lint rules and its formatter over the whole code base (configured in pyproject.toml).
lint: $(VENV)/.lint-deps
	$(BIN)/ruff check spec_impl conformance tests benchmarks
	$(BIN)/ruff format --check spec_impl conformance tests benchmarks

vectors: $(VENV)/.test-deps
	$(BIN)/iceberg-vectors generate

check-vectors: $(VENV)/.test-deps
	$(BIN)/iceberg-vectors check

# Golden tables written by Iceberg Java through Spark (about 4 minutes): every scenario with a
# `golden` section, captured again, then the tables set regenerated.
capture-tables: $(VENV)/.engine-deps
	$(BIN)/iceberg-writer-harness capture $$(grep -l '"golden"' conformance/writer_harness/coverage/*.json conformance/writer_harness/scenarios/*.json)
	$(BIN)/iceberg-vectors --set tables generate

# A deep writer-harness run: make writer-deep SEED=7 EXAMPLES=200 (WRITER=pyiceberg|chdb|duckdb, STEPS, MIN_STEPS).
# Without SEED the harness draws one and prints it; every finding is printed with its seed, and each new
# one's smallest history is saved under $(WRITER_DEEP_OUT) for `iceberg-writer-harness replay`.
SEED ?=
EXAMPLES ?= 200
STEPS ?= 10
MIN_STEPS ?= 6
WRITER ?= spark
WRITER_DEEP_OUT ?= reports/writer-deep/$(WRITER)-seed-$(or $(SEED),drawn)
writer-deep: $(VENV)/.engine-deps
	$(BIN)/iceberg-writer-harness run --writer $(WRITER) $(if $(SEED),--seed $(SEED)) --examples $(EXAMPLES) --min-steps $(MIN_STEPS) --steps $(STEPS) --out $(WRITER_DEEP_OUT)

# Every benchmark, its figures written to $(BENCH_OUT) (the published figures under
# benchmarks/results/ change only when a script is run by hand without an output option).
BENCH_OUT ?= reports/bench
bench: $(VENV)/.engine-deps native-engines
	@echo "installing the bench extra (matplotlib)"
	set -o pipefail; $(PIP_INSTALL) -e '.[test,engines,bench]' | { $(SHOW_NEW); }
	mkdir -p $(BENCH_OUT)
	$(BIN)/python benchmarks/bench_bucket.py --json $(BENCH_OUT)/bench_bucket.json
	$(BIN)/python benchmarks/bench_planning.py --json $(BENCH_OUT)/bench_planning.json
	$(BIN)/python benchmarks/bench_engines.py --json $(BENCH_OUT)/bench_engines.json  # about 5 minutes (each engine judged twice)
	$(BIN)/python benchmarks/bench_scale.py --json $(BENCH_OUT)/bench_scale.json --png $(BENCH_OUT)/bench_scale.png  # about 17 minutes (Spark for the audit)
	$(BIN)/python benchmarks/v4_bitvector_sizes.py --json $(BENCH_OUT)/v4_bitvector_sizes.json --png $(BENCH_OUT)/v4_bitvector_sizes.png
	$(BIN)/python benchmarks/v4_write_amplification.py --json $(BENCH_OUT)/v4_write_amplification.json --png $(BENCH_OUT)/v4_write_amplification.png --growth-png $(BENCH_OUT)/v4_write_amplification_root_growth.png  # about 6 minutes
	$(BIN)/python benchmarks/bench_writer_harness.py --out $(BENCH_OUT)/bench_writer_harness.json  # about 5 minutes (Spark)
	$(BIN)/python benchmarks/bench_audit.py --out $(BENCH_OUT)/bench_audit.json  # about 3 minutes (Spark; 2 more the first time, to write the table)

ICEBIRD = conformance/examples/icebird_engine

# Setting up prints what it installs (one line per package; the engines take a few minutes).
PIP_INSTALL = $(BIN)/python -m pip install --progress-bar off --disable-pip-version-check
SHOW_NEW = grep -v '^Requirement already satisfied' || true

$(BIN)/python:
	@echo "creating $(VENV) with $(PYTHON)"
	$(PYTHON) -m venv $(VENV)
	$(PIP_INSTALL) --quiet --upgrade pip

$(VENV)/.test-deps: pyproject.toml | $(BIN)/python
	@echo "installing the project and its test dependencies into $(VENV)"
	set -o pipefail; $(PIP_INSTALL) -e '.[test]' | { $(SHOW_NEW); }
	touch $@

$(VENV)/.lint-deps: pyproject.toml | $(BIN)/python
	@echo "installing ruff (the project's lint extra) into $(VENV)"
	set -o pipefail; $(PIP_INSTALL) -e '.[lint]' | { $(SHOW_NEW); }
	touch $@

$(VENV)/.engine-deps: pyproject.toml $(ICEBIRD)/package-lock.json $(VENV)/.test-deps
	@echo "installing the engines (PyIceberg, pyiceberg-core, DuckDB, Polars, chDB, Daft, PySpark with Iceberg Java): a few minutes the first time"
	set -o pipefail; $(PIP_INSTALL) -e '.[test,engines]' | { $(SHOW_NEW); }
	@if command -v npm >/dev/null; then echo "installing the JavaScript reader's npm packages (icebird, pinned by its package-lock.json)"; \
	  npm ci --prefix $(ICEBIRD) --ignore-scripts --no-audit --no-fund; \
	else echo "npm not found: the icebird engine will be reported unavailable"; fi
	touch $@

# Iceberg Java judged at every release of its matrix (1.7 to 1.12, from Maven Central), and the release
# view of its findings: reports/matrix/releases.html (about a minute per release).
conformance-matrix: $(VENV)/.test-deps
	$(BIN)/python -m conformance.release_matrix --out reports/matrix

# The native engines (engines/iceberg_go/, engines/iceberg_rust/): built from their lock files into
# ~/.cache/iceberg-conformance/native/, found there on the next run. A module or crate that cannot be
# fetched fails here, with the build's own message naming it.
native-engines: $(VENV)/.test-deps
	$(BIN)/python -m conformance.engines.native_programs

# PySpark 4 for the iceberg-spark4 engine, in an environment of its own (one process holds one PySpark).
$(SPARK4_VENV)/.deps: pyproject.toml
	@echo "installing PySpark 4.1.4 and the project into $(SPARK4_VENV) (the iceberg-spark4 engine)"
	$(PYTHON) -m venv $(SPARK4_VENV)
	set -o pipefail; $(SPARK4_VENV)/bin/python -m pip install --progress-bar off --disable-pip-version-check -e . pyspark==4.1.4 | { $(SHOW_NEW); }
	touch $@

# A deep fuzzing campaign of every parser family (tests/fuzz/README.md); FUZZ_ARGS e.g. --inputs 1000 --families scan
FUZZ_ARGS ?= --inputs 100000 --families all
fuzz: $(VENV)/.test-deps
	$(BIN)/python -m tests.fuzz $(FUZZ_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis reports
