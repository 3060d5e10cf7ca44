"""A manifest's `partition-spec` key-value metadata against the partition spec it was written with.

Spec: "Manifests": "A manifest file must store the partition spec and other metadata as properties
in the Avro file's key-value metadata", where `partition-spec` is the "JSON fields representation
of the partition spec used to write the manifest". The spec used is the one the manifest list
names (`partition_spec_id`, which `partition-spec-id` repeats: rule tree.manifest-metadata), so
the JSON fields must be that spec's fields of the table metadata: the same source ids, field ids,
names and transforms, in the same order.
"""

from __future__ import annotations

from spec_impl import revisions
from spec_impl.errors import SpecError
from spec_impl.metadata import json_document
from spec_impl.metadata.partitioning import PartitionField, PartitionSpec, parse_partition_fields
from spec_impl.rules import Rule, implements, register

register(
    Rule(
        "tree.manifest-partition-spec",
        "Manifests (key-value metadata)",
        "A manifest's partition-spec key-value metadata is the JSON fields of the spec the manifest list names "
        "(partition_spec_id): the table's spec with that id, field by field (source ids, field id, name, transform)",
    ),
)


@implements("tree.manifest-partition-spec")
def partition_spec_difference(
    text: str, spec: PartitionSpec, format_version: int, revision: str = revisions.DEFAULT
) -> str | None:
    """How the `partition-spec` metadata `text` differs from `spec`, or None when it is that spec's
    fields. Text that is not JSON is rule tree.manifest-metadata's to report (None here)."""
    try:
        value = json_document.loads(text, "key-value metadata 'partition-spec'")
    except SpecError:
        return None
    try:
        written = parse_partition_fields(value, format_version, revision, spec.spec_id).fields
    except SpecError as e:
        return f"is not a list of partition fields: {e}"
    if len(written) != len(spec.fields):
        return (
            f"has {len(written)} field(s); spec {spec.spec_id}, which the manifest list names, has {len(spec.fields)}"
        )
    for i, (w, s) in enumerate(zip(written, spec.fields)):
        if _key(w) != _key(s):
            return (
                f"field {i} is {_describe(w)}; spec {spec.spec_id}, which the manifest list names, has {_describe(s)}"
            )
    return None


def _key(f: PartitionField) -> tuple:
    return f.source_ids, f.field_id, f.name, str(f.transform)


def _describe(f: PartitionField) -> str:
    return f"{f.name!r} ({f.transform} of source {', '.join(map(str, f.source_ids))}, field id {f.field_id})"
