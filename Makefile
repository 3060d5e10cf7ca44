# The two commands of the README. Each sets itself up: a virtual environment in .venv and the
# packages it needs, reinstalled only when pyproject.toml changes.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PYTEST_ARGS ?=

.PHONY: test conformance vectors check-vectors capture-tables bench clean fuzz

test: $(VENV)/.test-deps
	$(BIN)/python -m pytest tests/ $(PYTEST_ARGS)

conformance: $(VENV)/.engine-deps
	$(BIN)/python -m pytest conformance/ --compliance-report reports $(PYTEST_ARGS)

vectors: $(VENV)/.test-deps
	$(BIN)/iceberg-vectors generate

check-vectors: $(VENV)/.test-deps
	$(BIN)/iceberg-vectors check

# Golden tables written by Iceberg Java through Spark (about 4 minutes): every scenario with a
# `golden` section, captured again, then the tables set regenerated.
capture-tables: $(VENV)/.engine-deps
	$(BIN)/iceberg-writer-harness capture $$(grep -l '"golden"' conformance/writer_harness/coverage/*.json conformance/writer_harness/scenarios/*.json)
	$(BIN)/iceberg-vectors --set tables generate

bench: $(VENV)/.engine-deps
	$(BIN)/python -m pip install --quiet -e '.[test,engines,bench]'
	$(BIN)/python benchmarks/bench_bucket.py
	$(BIN)/python benchmarks/bench_planning.py
	$(BIN)/python benchmarks/v4_bitvector_sizes.py
	$(BIN)/python benchmarks/v4_write_amplification.py  # about 6 minutes
	$(BIN)/python benchmarks/bench_writer_harness.py    # about 5 minutes (Spark)
	$(BIN)/python benchmarks/bench_audit.py             # about 3 minutes (Spark; 2 more the first time, to write the table)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.test-deps: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

$(VENV)/.engine-deps: pyproject.toml $(VENV)/.test-deps
	$(BIN)/python -m pip install --quiet -e '.[test,engines]'
	touch $@

# A deep fuzzing campaign of every parser family (tests/fuzz/README.md); FUZZ_ARGS e.g. --inputs 1000 --families scan
FUZZ_ARGS ?= --inputs 100000 --families all
fuzz: $(VENV)/.test-deps
	$(BIN)/python -m tests.fuzz $(FUZZ_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis reports
