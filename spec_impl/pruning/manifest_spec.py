"""Pruning a manifest with the scan predicate projected through the spec that wrote the manifest.

Spec: "Scan Planning": "For each manifest, scan predicates, which filter data rows, are converted to
partition predicates, which filter data and delete files." "This conversion uses the partition spec
used to write the manifest file." A manifest's summaries hold one field_summary per field of that
spec (the manifest list's partition_spec_id); projecting through another spec (the table's current
one) reads them as other fields and can skip a manifest that holds matching files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from spec_impl import revisions
from spec_impl.errors import InvalidInput
from spec_impl.pruning.evaluators import manifest_might_match
from spec_impl.expressions.predicates import Expr
from spec_impl.expressions.projection import INCLUSIVE, PartitionField, project
from spec_impl.metrics.summaries import FieldSummary
from spec_impl.rules import Rule, implements, register
from spec_impl.transforms import result_type
from spec_impl.types import IcebergType

register(
    Rule(
        "file-pruning.manifest-spec",
        "Scan Planning",
        "A manifest is pruned with the scan predicate projected through the partition spec used to write the "
        "manifest file (its partition_spec_id), whose fields its summaries describe, not through the table's "
        "current spec",
    ),
)


@implements("file-pruning.manifest-spec")
def manifest_might_match_in_its_spec(
    e: Expr,
    specs: Mapping[int, Sequence[PartitionField]],
    spec_id: int,
    types: Mapping[str, IcebergType],
    summaries: Sequence[FieldSummary] | None,
    revision: str = revisions.DEFAULT,
) -> bool:
    """Whether the manifest written with spec `spec_id` may hold a file matching `e` (a predicate on
    the table's columns); False means it may be skipped."""
    if spec_id not in specs:
        raise InvalidInput("file-pruning.manifest-spec", "partition_spec_id names no spec of the table", spec_id)
    spec = specs[spec_id]
    if summaries is not None and len(summaries) != len(spec):
        raise InvalidInput("file-pruning.manifest-spec", f"spec {spec_id} has {len(spec)} fields", len(summaries))
    fields = [(f.name, result_type(f.transform, types[f.source], revision)) for f in spec]
    return manifest_might_match(project(e, spec, types, INCLUSIVE, revision), fields, summaries, revision)
