"""Scan predicates ("Scan Planning"): the expression model and its truth on a row
(`predicates`), inclusive and strict projection through partition transforms (`projection`), and
file and manifest pruning with column metrics and partition summaries (`evaluators`)."""

from spec_impl.expressions import evaluators, manifest_spec, predicates, projection  # noqa: F401  (registers their rules)
