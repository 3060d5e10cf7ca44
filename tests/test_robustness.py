"""Bad input gets a SpecError naming a rule, never a traceback from deep inside the reference.

Hypothesis mutates valid documents (drops keys, swaps values for other JSON values, nests them)
and feeds arbitrary JSON to the readers; anything but a result or a SpecError is a bug.
"""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spec_impl import from_json, parse_type
from spec_impl.errors import SpecError
from spec_impl.metadata.table_metadata import parse_table_metadata
from spec_impl.metadata.view_metadata import parse_view_metadata
from spec_impl.vectors.families.table_metadata import v1_legacy, v2, v3

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
VIEW = {
    "view-uuid": "fa6506c3-7681-40c8-86dc-e36561f83385",
    "format-version": 1,
    "location": "s3://b/v",
    "schemas": [
        {"schema-id": 1, "type": "struct", "fields": [{"id": 1, "name": "x", "required": False, "type": "int"}]}
    ],
    "current-version-id": 1,
    "versions": [
        {
            "version-id": 1,
            "schema-id": 1,
            "timestamp-ms": 1,
            "summary": {},
            "representations": [{"type": "sql", "sql": "select 1", "dialect": "spark"}],
            "default-namespace": ["d"],
        }
    ],
    "version-log": [{"timestamp-ms": 1, "version-id": 1}],
}


@st.composite
def mutated(draw, base: dict) -> dict:
    """`base` with a few nested values replaced by arbitrary JSON or removed."""
    doc = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        node, path = doc, []
        while isinstance(node, (dict, list)) and node and draw(st.booleans()):
            key = draw(st.sampled_from(sorted(node) if isinstance(node, dict) else list(range(len(node)))))
            path.append((node, key))
            node = node[key]
        if not path:
            continue
        parent, key = path[-1]
        if isinstance(parent, dict) and draw(st.booleans()):
            del parent[key]
        else:
            parent[key] = draw(JSON)
    return doc


def _only_spec_errors(fn, *args) -> None:
    try:
        fn(*args)
    except SpecError:
        pass


@settings(max_examples=300, suppress_health_check=list(HealthCheck), deadline=None)
@given(st.sampled_from([v1_legacy, v2, v3]).flatmap(lambda make: mutated(make())))
def test_table_metadata_reader_raises_only_spec_errors(doc):
    _only_spec_errors(parse_table_metadata, doc)


@settings(max_examples=200, suppress_health_check=list(HealthCheck), deadline=None)
@given(mutated(VIEW))
def test_view_metadata_reader_raises_only_spec_errors(doc):
    _only_spec_errors(parse_view_metadata, doc)


@settings(max_examples=300, suppress_health_check=list(HealthCheck), deadline=None)
@given(
    JSON,
    st.sampled_from(
        [
            "int",
            "long",
            "decimal(9,2)",
            "date",
            "timestamptz_ns",
            "uuid",
            "fixed[2]",
            "binary",
            {"type": "struct", "fields": [{"id": 1, "name": "a", "required": True, "type": "int"}]},
            {"type": "map", "key-id": 1, "key": "string", "value-id": 2, "value-required": False, "value": "long"},
            {"type": "list", "element-id": 1, "element-required": True, "element": "double"},
        ]
    ),
)
def test_json_values_and_types_raise_only_spec_errors(obj, type_json):
    _only_spec_errors(from_json, type_json, obj)
    _only_spec_errors(parse_type, obj)


# --- decisions of the fuzzing campaign (tests/fuzz), each with its spec basis ------------------------

import gzip  # noqa: E402
import json  # noqa: E402

import pytest  # noqa: E402

from spec_impl.metadata.table_metadata import read_metadata_file  # noqa: E402
from spec_impl.scan.arrow_values import read_parquet  # noqa: E402


def _bytes(doc: dict) -> bytes:
    return json.dumps(doc).encode()


@pytest.mark.parametrize(
    "text, what",
    [
        (b'{"format-version": 2, "format-version": 2}', "twice"),  # RFC 8259 §4: duplicate names are ambiguous
        (_bytes(v2()).replace(b'"last-updated-ms": ', b'"last-updated-ms": NaN, "x": ', 1), "NaN"),  # RFC 8259 §6
        (_bytes(v2()).replace(b'"last-updated-ms": ', b'"last-updated-ms": -Infinity, "x": ', 1), "Infinity"),
        (b'{"a":' + b"[" * 100_000, "nests deeper"),  # a bound, not a RecursionError
        (
            _bytes(v2()).replace(b'"last-updated-ms": ', b'"x": ' + b"9" * 5000 + b', "last-updated-ms": ', 1),
            "5000 digits",
        ),  # not ValueError
        (
            _bytes(v2()).replace(b'"last-updated-ms": ', b'"x": 1e400, "last-updated-ms": ', 1),
            "range of a double",
        ),  # not a silent inf
    ],
)
def test_metadata_files_are_strict_bounded_json(text, what):
    """json.document: duplicate keys, NaN/Infinity tokens, runaway nesting, integers past the digit bound and numbers
    beyond a double are rejected with the rule."""
    with pytest.raises(SpecError, match=what) as e:
        read_metadata_file(text)
    assert e.value.rule == "json.document"


def test_corrupt_gzip_and_gzip_bombs_are_rejected():
    """table.gzip: a damaged stream is rejected (not zlib.error); json.document bounds what it expands to."""
    whole = gzip.compress(_bytes(v2()), mtime=0)
    for damaged in (whole[:30], whole[:20] + b"\xff" * 20 + whole[40:], whole + b"junk"):
        with pytest.raises(SpecError) as e:
            read_metadata_file(damaged)
        assert e.value.rule == "table.gzip"


def test_v2_table_uuid_null_is_rejected_not_invented():
    """table.table-uuid: required from v2 ("Table Metadata Fields"); a null one is not replaced by a new UUID."""
    with pytest.raises(SpecError) as e:
        parse_table_metadata(dict(v2(), **{"table-uuid": None}))
    assert e.value.rule == "table.table-uuid"


def test_unreadable_parquet_is_a_spec_error():
    """scan.data-file: bytes Parquet cannot read are rejected with the rule, not an Arrow exception."""
    with pytest.raises(SpecError) as e:
        read_parquet(b"PAR1 not really")
    assert e.value.rule == "scan.data-file"


@pytest.mark.parametrize("fv", [0, 4, "2", 2.0, None, True])
def test_unknown_format_version_arguments_are_spec_errors(fv):
    """table.format-version: a caller's version is checked like a document's."""
    from spec_impl.metadata.schema import parse_schema

    with pytest.raises(SpecError) as e:
        parse_schema({"type": "struct", "schema-id": 0, "fields": []}, fv)
    assert e.value.rule == "table.format-version"
