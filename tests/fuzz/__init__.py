"""The fuzzing campaign of the reference: every parser family fed mutated vectors.

The project's contract is that bad input gets a `spec_impl.errors.SpecError` naming a rule of
`spec_impl.rules`: never another exception, a hang or runaway memory. This package checks it.

- `codec`: inputs as JSON-able values (bytes as {"$b64": ...}) and their reproducer files.
- `seeds`: seed inputs read from `vectors/**` (metadata files, Avro, Puffin, DV blobs, Parquet,
  v4 manifests, vector case files).
- `mutate_bytes`, `mutate_json`, `avro_records`: the mutators (binary, JSON structure, raw text,
  Avro records re-encoded with a schema inferred from the mutated records).
- `families`: one parser family per public entry point: its seeds, its mutation and its run.
- `worker`: runs one input under a time bound (interval timer) and a memory bound
  (`RLIMIT_AS`), in a forked worker process, and classifies the outcome.
- `pool`: the parent side: workers started, fed, killed and restarted on a hard deadline.
- `minimize`: shrinking a reproducer while it still escapes the same way.
- `corpus`: reproducers under `corpus/<family>/<hash>.{json,bin}`.
- `campaign`: a campaign (fixed seed, N inputs per family) and its summary table;
  `python -m tests.fuzz` is its command line (`make fuzz`).

Tests: `test_budget.py` (a fixed-seed budget of every family, in `make test`), `test_corpus.py`
(every reproducer of the corpus, forever). See README.md.
"""
