"""Pruning ("Scan Planning"): file pruning with column metrics (`evaluators`) and manifest pruning
with partition summaries and manifest-spec bounds (`manifest_spec`), above `metrics` and `expressions`."""

from spec_impl.pruning import evaluators, manifest_spec  # noqa: F401  (registers their rules)
