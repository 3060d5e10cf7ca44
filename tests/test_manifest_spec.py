"""Rule tree.manifest-partition-spec: a manifest's partition-spec key-value metadata is the JSON
fields of the spec the manifest list names (spec_impl.manifests.manifest_spec)."""

from __future__ import annotations

import json

from spec_impl.manifests.manifest_spec import partition_spec_difference
from spec_impl.metadata.partitioning import parse_partition_spec

FIELD = {"source-id": 1, "field-id": 1000, "name": "id_bucket", "transform": "bucket[4]"}
SPEC = parse_partition_spec({"spec-id": 3, "fields": [FIELD]}, 2)


def test_the_named_spec_s_fields_agree():
    assert partition_spec_difference(json.dumps([FIELD]), SPEC, 2) is None


def test_a_v1_manifest_may_leave_field_ids_to_their_default():
    v1 = parse_partition_spec({"spec-id": 0, "fields": [FIELD]}, 1)
    assert partition_spec_difference(json.dumps([{k: v for k, v in FIELD.items() if k != "field-id"}]), v1, 1) is None


def test_another_transform_name_source_or_field_count_differs():
    for change in ({"transform": "bucket[8]"}, {"name": "b"}, {"source-id": 2}, {"field-id": 1001}):
        why = partition_spec_difference(json.dumps([dict(FIELD, **change)]), SPEC, 2)
        assert why is not None and "spec 3" in why
    assert "0 field(s)" in partition_spec_difference("[]", SPEC, 2)


def test_text_that_is_not_a_field_list_differs_and_text_that_is_not_json_is_left_to_manifest_metadata():
    assert "not a list of partition fields" in partition_spec_difference('{"fields": []}', SPEC, 2)
    assert partition_spec_difference("[{", SPEC, 2) is None
