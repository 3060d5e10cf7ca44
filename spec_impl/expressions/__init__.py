"""Scan predicates ("Scan Planning"): the expression model and its truth on a row
(`predicates`) and inclusive and strict projection through partition transforms (`projection`).
Pruning with column metrics and partition summaries sits above the metrics, in `spec_impl.pruning`."""

from spec_impl.expressions import predicates, projection  # noqa: F401  (registers their rules)
