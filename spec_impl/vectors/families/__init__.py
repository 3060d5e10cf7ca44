"""The rule families of the vectors: one module, and one golden file, per family, grouped in sets
(one generated directory under vectors/ per set)."""

from __future__ import annotations

from types import ModuleType

from spec_impl.vectors.families import (
    binary,
    bucket,
    content_files,
    data_files,
    data_formats,
    parquet_schemas,
    delete_scoping,
    appendix_b_hashes,
    history,
    puffin_dv,
    random_planning_findings,
    random_value_findings,
    v4_root_manifests,
    json_single_values,
    manifest_trees,
    manifests,
    metadata_columns,
    partitioning,
    schemas,
    snapshots_and_views,
    statistics,
    table_metadata,
    temporal,
    transform_rules,
    truncate,
    type_edges,
    type_strings,
)
from spec_impl.vectors.families import (
    column_metrics,
    data_file_fields,
    file_counts,
    metrics_evaluation,
    partition_summaries,
    partition_tuples,
    position_delete_rows,
    predicate_projection,
    planning_type_edges,
    predicates,
)

SETS: dict[str, tuple[ModuleType, ...]] = {
    "values": (
        type_strings,
        appendix_b_hashes,
        bucket,
        truncate,
        temporal,
        transform_rules,
        type_edges,
        binary,
        json_single_values,
        random_value_findings,
    ),
    "metadata": (
        table_metadata,
        statistics,
        schemas,
        partitioning,
        snapshots_and_views,
        manifests,
        manifest_trees,
        history,
        content_files,
    ),
    "deletes": (delete_scoping, puffin_dv, position_delete_rows),
    "data": (data_files, data_formats, metadata_columns, parquet_schemas, data_file_fields),
    "tables": (),  # whole tables: spec_impl/vectors/tables.py
    "v4": (v4_root_manifests,),
    "planning": (
        column_metrics,
        partition_summaries,
        partition_tuples,
        file_counts,
        predicates,
        predicate_projection,
        metrics_evaluation,
        planning_type_edges,
        random_planning_findings,
    ),
}
