"""File pruning with column metrics (inclusive and strict) and manifest pruning with summaries.

An inclusive `false` means the metrics prove that no row matches: the file may be skipped (an
engine that reads it anyway is less selective, not wrong); `true` is forced whenever a row the
metrics allow matches. A strict `true` means the metrics prove that every row matches.
"""

from __future__ import annotations

from collections.abc import Iterator

from spec_impl.metrics.column_metrics import column_metrics
from spec_impl.types import parse_type
from spec_impl.vectors.cases import CaseSpec, case
from spec_impl.ops.encoding import decode

NAME = "metrics-evaluation"
DESCRIPTION = (
    "Scan Planning: skipping data files with column bounds and counts (inclusive and strict), and "
    "manifests with partition summaries"
)

SCHEMA = {
    "type": "struct",
    "fields": [
        {"id": 1, "name": "x", "required": False, "type": "long"},
        {"id": 2, "name": "f", "required": False, "type": "double"},
        {"id": 3, "name": "s", "required": False, "type": "string"},
    ],
}
TYPES = {"x": "long", "f": "double", "s": "string"}


def _schema(column: str) -> dict:
    """The schema reduced to one column (cases stay short)."""
    return {"type": "struct", "fields": [f for f in SCHEMA["fields"] if f["name"] == column]}


NAN, NEG_ZERO = {"ieee754": "7ff8000000000000"}, {"ieee754": "8000000000000000"}


def _metrics(column: str, values: list, policy: str = "exact", truncate: int | None = None) -> dict:
    """The metrics a writer records for a column: exact, truncated bounds, no bounds, or no counts."""
    t = parse_type(TYPES[column])
    m = column_metrics(t, [decode(t, v) for v in values], truncate)
    out = {
        "value_count": m.value_count,
        "null_value_count": m.null_value_count,
        "nan_value_count": m.nan_value_count,
        "lower_bound": None if m.lower_bound is None else m.lower_bound.hex(),
        "upper_bound": None if m.upper_bound is None else m.upper_bound.hex(),
    }
    if policy == "no-bounds":
        out = {k: v for k, v in out.items() if not k.endswith("_bound")}
    if policy == "no-counts":
        out = {k: v for k, v in out.items() if k.endswith("_bound")}
    return {k: v for k, v in out.items() if v is not None}


# (label, column, values, policy, truncate length)
FILES = [
    ("x-10-20", "x", [10, 15, 20], "exact", None),
    ("x-10-20-null", "x", [10, None, 20], "exact", None),
    ("x-nulls", "x", [None, None], "exact", None),
    ("x-no-bounds", "x", [10, 20], "no-bounds", None),
    ("x-no-counts", "x", [10, None, 20], "no-counts", None),
    ("x-single", "x", [10, 10], "exact", None),
    ("f-zeros", "f", [NEG_ZERO, 0.0], "exact", None),
    ("f-negative-zero", "f", [NEG_ZERO], "exact", None),
    ("f-nan", "f", [NAN, 1.0], "exact", None),
    ("f-nans", "f", [NAN, NAN], "exact", None),
    ("s-truncated", "s", ["iceberg", "icebox"], "exact", 3),
    ("s-abc", "s", ["abc", "abd"], "exact", None),
]
LITERALS = {"x": [9, 10, 11, 20, 21], "f": [-1.0, NEG_ZERO, 0.0, 1.0], "s": ["ice", "icf", "icebox", "icez"]}
PREFIXES = ["ic", "ice", "icebo", "icf", "ab", "abc"]


def _leaves(column: str):
    for i, lit in enumerate(LITERALS[column]):
        for op in ("lt", "lt-eq", "gt", "gt-eq", "eq", "not-eq"):
            yield f"{op}-{i}", {"type": op, "term": column, "value": lit}
    yield "in", {"type": "in", "term": column, "values": LITERALS[column][:2]}
    yield "not-in", {"type": "not-in", "term": column, "values": LITERALS[column][1:2]}
    yield "is-null", {"type": "is-null", "term": column}
    yield "not-null", {"type": "not-null", "term": column}
    if column == "f":
        yield "is-nan", {"type": "is-nan", "term": column}
        yield "not-nan", {"type": "not-nan", "term": column}
    if column == "s":
        for i, prefix in enumerate(PREFIXES):
            yield f"starts-with-{i}", {"type": "starts-with", "term": column, "value": prefix}
            yield f"not-starts-with-{i}", {"type": "not-starts-with", "term": column, "value": prefix}


def specs():
    for label, column, values, policy, truncate in FILES:
        metrics = {column: _metrics(column, values, policy, truncate)}
        for slug, predicate in _leaves(column):
            for mode in ("inclusive", "strict"):
                rule = "file-pruning.inclusive-metrics" if mode == "inclusive" else "file-pruning.strict-metrics"
                yield case(
                    rule,
                    f"{label}-{slug}",
                    f"{mode} evaluation of {predicate['type']} on a file of {column} = {values} ({policy} metrics)",
                    "evaluate-metrics",
                    schema=_schema(column),
                    predicate=predicate,
                    mode=mode,
                    record_count=len(values),
                    metrics=metrics,
                )
    two = {"x": _metrics("x", [10, 20]), "s": _metrics("s", ["abc", "abd"])}
    both = {
        "type": "and",
        "left": {"type": "gt", "term": "x", "value": 15},
        "right": {"type": "starts-with", "term": "s", "value": "abe"},
    }
    either = {
        "type": "or",
        "left": {"type": "gt", "term": "x", "value": 25},
        "right": {"type": "starts-with", "term": "s", "value": "ab"},
    }
    negated = {"type": "not", "child": {"type": "lt", "term": "x", "value": 10}}
    for slug, predicate in (("and", both), ("or", either), ("not", negated), ("true", True), ("false", False)):
        for mode in ("inclusive", "strict"):
            rule = "file-pruning.inclusive-metrics" if mode == "inclusive" else "file-pruning.strict-metrics"
            yield case(
                rule,
                f"two-columns-{slug}",
                f"{mode} evaluation of {slug} over two columns",
                "evaluate-metrics",
                schema=SCHEMA,
                predicate=predicate,
                mode=mode,
                record_count=2,
                metrics=two,
            )
    for mode, rule in (("inclusive", "file-pruning.inclusive-metrics"), ("strict", "file-pruning.strict-metrics")):
        yield case(
            rule,
            "empty-file",
            f"{mode}: a file without rows",
            "evaluate-metrics",
            schema=SCHEMA,
            predicate={"type": "eq", "term": "x", "value": 1},
            mode=mode,
            record_count=0,
            metrics={},
        )
        yield case(
            rule,
            "no-metrics",
            f"{mode}: a file without any metrics",
            "evaluate-metrics",
            schema=SCHEMA,
            predicate={"type": "eq", "term": "x", "value": 1},
            mode=mode,
            record_count=3,
            metrics={},
        )
    # a column without counts beside a column with them: the file's null_value_counts map exists but
    # has no entry for x, which proves nothing about x's nulls (the file holds one)
    partial = {"x": _metrics("x", [10, None, 20], "no-counts"), "s": _metrics("s", ["a", "b", "c"])}
    for mode, rule in (("inclusive", "file-pruning.inclusive-metrics"), ("strict", "file-pruning.strict-metrics")):
        for slug, predicate in (
            ("gt", {"type": "gt", "term": "x", "value": 9}),
            ("not-null", {"type": "not-null", "term": "x"}),
        ):
            yield case(
                rule,
                f"counts-of-another-column-{slug}",
                f"{mode}: x has bounds but no counts, s has counts",
                "evaluate-metrics",
                schema=SCHEMA,
                predicate=predicate,
                mode=mode,
                record_count=3,
                metrics=partial,
            )
    yield from _manifest_cases()


def _summary(t: str, values: list) -> dict:
    from spec_impl.metrics.summaries import field_summary

    pt = parse_type(t)
    s = field_summary(pt, [decode(pt, v) for v in values])
    return {
        "contains_null": s.contains_null,
        "contains_nan": s.contains_nan,
        "lower_bound": None if s.lower_bound is None else s.lower_bound.hex(),
        "upper_bound": None if s.upper_bound is None else s.upper_bound.hex(),
    }


def _manifest_cases():
    rule = "file-pruning.manifest-summaries"
    manifests = [
        ("p-1-5", "int", [1, 5]),
        ("p-1-5-null", "int", [1, None, 5]),
        ("p-nulls", "int", [None]),
        ("p-double-nan", "double", [NAN, 1.0]),
        ("p-double-nans", "double", [NAN]),
        ("p-zeros", "double", [NEG_ZERO]),
        ("p-strings", "string", ["abc", "abd"]),
    ]
    literals = {"int": [0, 1, 3, 5, 6], "double": [NEG_ZERO, 0.0, 1.0], "string": ["ab", "abc", "abe"]}
    for label, t, values in manifests:
        fields = [{"name": "p", "type": t}]
        summaries = [_summary(t, values)]
        preds = [
            (f"{op}-{i}", {"type": op, "term": "p", "value": lit})
            for i, lit in enumerate(literals[t])
            for op in ("lt", "lt-eq", "gt", "gt-eq", "eq", "not-eq")
        ]
        preds += [
            ("in", {"type": "in", "term": "p", "values": literals[t][:2]}),
            ("is-null", {"type": "is-null", "term": "p"}),
            ("not-null", {"type": "not-null", "term": "p"}),
        ]
        if t == "double":
            preds += [("is-nan", {"type": "is-nan", "term": "p"}), ("not-nan", {"type": "not-nan", "term": "p"})]
        if t == "string":
            preds += [
                (f"starts-with-{i}", {"type": "starts-with", "term": "p", "value": v})
                for i, v in enumerate(["ab", "abd", "abe", "b"])
            ]
            preds += [
                (f"not-starts-with-{i}", {"type": "not-starts-with", "term": "p", "value": v})
                for i, v in enumerate(["ab", "abc"])
            ]
        for slug, predicate in preds:
            yield case(
                rule,
                f"{label}-{slug}",
                f"manifest evaluation of {predicate['type']} on partitions {values}",
                "evaluate-manifest",
                fields=fields,
                predicate=predicate,
                summaries=summaries,
            )
    neg_inf = {"ieee754": "ff800000"}
    for slug, predicate in (
        ("lt-eq", {"type": "lt-eq", "term": "p", "value": neg_inf}),
        ("eq", {"type": "eq", "term": "p", "value": neg_inf}),
    ):
        yield case(
            rule,
            f"p-float-negative-infinity-{slug}",
            f"manifest evaluation of {slug} -Infinity on float partitions [-Infinity]",
            "evaluate-manifest",
            fields=[{"name": "p", "type": "float"}],
            predicate=predicate,
            summaries=[_summary("float", [neg_inf])],
        )
    yield case(
        rule,
        "no-summaries",
        "a manifest-list row without partition summaries proves nothing",
        "evaluate-manifest",
        fields=[{"name": "p", "type": "int"}],
        predicate={"type": "eq", "term": "p", "value": 1},
        summaries=None,
    )
    yield from _file_count_cases()
    yield from _manifest_spec_cases()


# (slug, added_files_count, existing_files_count, what a reader may do)
_FILE_COUNTS = (
    ("both-null", None, None, "both null, assumed non-zero: the manifest must be read"),
    ("added-null-existing-zero", None, 0, "added null (assumed non-zero), existing 0: the manifest must be read"),
    ("added-zero-existing-null", 0, None, "added 0, existing null (assumed non-zero): the manifest must be read"),
    ("added-one-existing-zero", 1, 0, "one ADDED file: the manifest must be read"),
    ("both-zero", 0, 0, "no ADDED and no EXISTING file: the manifest tracks no live file and may be skipped"),
)


# (slug, the manifest list's counts, the entries a reader wants, what a reader may do): the deleted
# file count (506) and the row counts (512-514), each "assumed to be non-zero" when null
_OTHER_COUNTS = (
    (
        "rows-null-files-live",
        {"added": 1, "existing": 0, "added-rows": None, "existing-rows": None},
        "live",
        "one ADDED file, both row counts null (assumed non-zero): the manifest must be read",
    ),
    (
        "added-rows-null-existing-rows-zero",
        {"added": 1, "existing": 2, "added-rows": None, "existing-rows": 0},
        "live",
        "added_rows_count null (assumed non-zero), existing_rows_count 0: the manifest must be read",
    ),
    (
        "added-rows-zero-existing-rows-null",
        {"added": 1, "existing": 2, "added-rows": 0, "existing-rows": None},
        "live",
        "added_rows_count 0, existing_rows_count null (assumed non-zero): the manifest must be read",
    ),
    (
        "live-rows-zero",
        {"added": 1, "existing": 2, "added-rows": 0, "existing-rows": 0},
        "live",
        "files whose rows count 0: the manifest holds no live row and may be skipped",
    ),
    (
        "deleted-files-null",
        {"added": 0, "existing": 0, "deleted": None, "deleted-rows": None},
        "deleted",
        "a reader of DELETED entries, deleted_files_count null (assumed non-zero): the manifest must be read",
    ),
    (
        "deleted-files-null-deleted-rows-one",
        {"added": 0, "existing": 0, "deleted": None, "deleted-rows": 1},
        "deleted",
        "a reader of DELETED entries, deleted_files_count null, deleted_rows_count 1: the manifest must be read",
    ),
    (
        "deleted-rows-null",
        {"added": 0, "existing": 0, "deleted": 1, "deleted-rows": None},
        "deleted",
        "a reader of DELETED entries, deleted_rows_count null (assumed non-zero): the manifest must be read",
    ),
    (
        "deleted-files-zero",
        {"added": 3, "existing": 0, "deleted": 0, "deleted-rows": None},
        "deleted",
        "a reader of DELETED entries, deleted_files_count 0: no DELETED entry, the manifest may be skipped",
    ),
    (
        "deleted-rows-zero",
        {"added": 3, "existing": 0, "deleted": 1, "deleted-rows": 0},
        "deleted",
        "a reader of DELETED entries, deleted_rows_count 0: no deleted row, the manifest may be skipped",
    ),
    (
        "deleted-null-live-scan-zero",
        {"added": 0, "existing": 0, "deleted": None, "deleted-rows": None},
        "live",
        "a scan, no ADDED or EXISTING file, the deleted counts null: no live entry, the manifest may be skipped",
    ),
)


def _file_count_cases() -> Iterator[CaseSpec]:
    """Rule file-pruning.manifest-counts: the manifest list's counts, without summaries."""
    inputs = [
        (slug, {"added": added, "existing": existing}, None, what) for slug, added, existing, what in _FILE_COUNTS
    ]
    for slug, counts, wanted, what in inputs + list(_OTHER_COUNTS):
        extra = {} if wanted is None else {"entries": wanted}
        yield case(
            "file-pruning.manifest-counts",
            slug,
            f"manifest evaluation by {'file' if wanted is None else 'the manifest list'} counts: {what}",
            "evaluate-manifest",
            fields=[{"name": "p", "type": "int"}],
            predicate={"type": "eq", "term": "p", "value": 1},
            summaries=None,
            file_counts=counts,
            **extra,
        )


# The table's specs: spec 0 partitioned by identity(x), spec 1 (current) by truncate[10](x), each one
# field at position 0, so summaries read through the wrong spec describe the other field.
_EVOLVED_SPECS = [
    {"spec-id": 0, "fields": [{"name": "x_identity", "source": "x", "transform": "identity"}]},
    {"spec-id": 1, "fields": [{"name": "x_trunc", "source": "x", "transform": "truncate[10]"}]},
]
# (slug, predicate value, the manifest's spec id, the partition values it holds, what)
_MANIFEST_SPEC = (
    (
        "old-spec-matches",
        15,
        0,
        [15],
        "x = 15 over a spec-0 manifest of x in [15, 15]: through spec 0 x_identity = 15 "
        "may match; read through the current spec (x_trunc = 10) the summary [15, 15] would wrongly rule it out",
    ),
    ("old-spec-no-match", 25, 0, [15], "x = 25 over a spec-0 manifest of x in [15, 15]: no match"),
    ("current-spec-matches", 15, 1, [10], "x = 15 over a spec-1 manifest of x_trunc in [10, 10]: may match"),
    (
        "current-spec-read-as-old",
        10,
        1,
        [0, 20],
        "x = 10 over a spec-1 manifest of x_trunc in [0, 20]: through "
        "spec 1 x_trunc = 10 may match (reading it as spec 0 would too); its files hold x in [0, 29]",
    ),
    (
        "old-spec-wide",
        27,
        0,
        [21, 30],
        "x = 27 over a spec-0 manifest of x in [21, 30]: may match, though x_trunc = 20 lies outside [21, 30]",
    ),
)


def _manifest_spec_cases() -> Iterator[CaseSpec]:
    """Rule file-pruning.manifest-spec: a manifest's summaries are read through the spec that wrote it."""
    for slug, value, spec_id, values, what in _MANIFEST_SPEC:
        yield case(
            "file-pruning.manifest-spec",
            slug,
            f"manifest evaluation through the manifest's own partition spec: {what}",
            "plan-manifest",
            schema=_schema("x"),
            specs=_EVOLVED_SPECS,
            predicate={"type": "eq", "term": "x", "value": value},
            manifest={"spec-id": spec_id, "summaries": [_summary("long", values)]},
        )
    # Manifest Lists: "The type of used to encode the value is the type of the partition field data":
    # a bucket of a string is summarised as int bounds, not string ones (bucket[16]("iceberg") = 9).
    bucketed = [{"spec-id": 0, "fields": [{"name": "s_bucket", "source": "s", "transform": "bucket[16]"}]}]
    for slug, values, what in (
        ("bucket-of-string-int-bounds-match", [9], "may match: the int bounds [9, 9] hold bucket 9"),
        ("bucket-of-string-int-bounds-no-match", [3, 8], "no match: the int bounds [3, 8] leave bucket 9 out"),
    ):
        yield case(
            "file-pruning.manifest-spec",
            slug,
            f's = "iceberg" over a manifest of s_bucket = bucket[16](s), whose summary bounds are ints, the '
            f"partition field's type, not strings: {what}",
            "plan-manifest",
            schema=_schema("s"),
            specs=bucketed,
            predicate={"type": "eq", "term": "s", "value": "iceberg"},
            manifest={"spec-id": 0, "summaries": [_summary("int", values)]},
        )
