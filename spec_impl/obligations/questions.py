"""Questions the spec leaves open: each case at the `reading` level names one of them.

A question says what is asked, the defensible answers, the sentences of the spec nearest to it
(each quote occurs in its document; `tests/test_obligations.py` checks), which reading the
reference takes, and a proposed clarification a spec maintainer could adopt. The spec-gaps report
(`reports/spec-gaps.html`) groups the engines' answers under these questions.
"""

from __future__ import annotations

from dataclasses import dataclass

from spec_impl.obligations.levels import ADOPTED, SPEC, VIEW_SPEC
from spec_impl.rules import by_id


@dataclass(frozen=True)
class Question:
    id: str
    asks: str
    alternatives: tuple[str, ...]
    sentences: tuple[tuple[str, str], ...]  # (document, quote)
    reference: str  # the reading the reference takes
    clarification: str  # a proposed clarification of the spec

    def as_json(self) -> dict:
        return {
            "id": self.id,
            "asks": self.asks,
            "alternatives": list(self.alternatives),
            "sentences": [{"document": d, "quote": q} for d, q in self.sentences],
            "reference": self.reference,
            "clarification": self.clarification,
        }


def _questions(*qs: Question) -> dict[str, Question]:
    return by_id(qs, "question")


_INCLUSIVE = "if a scan predicate matches a row, then the partition predicate must match that row’s partition"

QUESTIONS: dict[str, Question] = _questions(
    Question(
        "uuid.order",
        "In what order do uuid values compare: for bounds, partition summaries, pruning and sorting?",
        (
            "as unsigned 128-bit big-endian numbers (unsigned bytes, as RFC 4122 and RFC 9562 order them)",
            "as Java's UUID.compareTo: the two 64-bit halves as signed longs",
        ),
        ((SPEC, "uuid 16-byte big-endian value, see example in Appendix B"),),
        "unsigned 128-bit big-endian numbers (the upstream expressions text: uuid compares unsigned bytewise)",
        "State that uuid values (and so their bounds) compare as unsigned 16-byte big-endian values.",
    ),
    Question(
        "predicate.null-operand",
        "Is an ordering, equality or set predicate (x < 5, x = 5, x IN (1, 2)) true for a row whose x is null?",
        (
            "false: null matches no such predicate (SQL's unknown, treated as not true)",
            "true where null sorts first (a comparator with nulls first, as in Iceberg Java's row Evaluator)",
        ),
        ((SPEC, _INCLUSIVE),),
        "false: null matches no ordering, equality or set predicate",
        "State that scan predicates follow SQL three-valued logic: a comparison with a null operand is unknown, and "
        "a row (or partition) matches only when the predicate is true.",
    ),
    Question(
        "predicate.not-of-null",
        "Is NOT (x < 5) true for a row whose x is null?",
        (
            "false: NOT of unknown is unknown (three-valued logic)",
            "true: NOT of false (two-valued logic, the leaf being false for null)",
        ),
        ((SPEC, _INCLUSIVE),),
        "false: NOT is pushed to the leaves (NOT (x < 5) is x >= 5), which are false for null",
        "State that NOT over a predicate with a null operand is not true (three-valued logic), so that "
        "NOT (x < 5) and x >= 5 select the same rows.",
    ),
    Question(
        "predicate.nan-operand",
        "Is an ordering or equality predicate true for a row whose float value is NaN (NaN > 0.0, NaN = NaN)?",
        (
            "false: NaN matches no ordering or equality predicate (IEEE 754 comparison)",
            "true where NaN sorts last (Java's Double.compare, the spec's sort order)",
        ),
        (
            (
                SPEC,
                "Sorting floating-point numbers should produce the following behavior: -NaN < -Infinity < -value "
                "< -0 < 0 < value < Infinity < NaN.",
            ),
            (SPEC, "NaNs are not permitted as lower or upper bounds."),
        ),
        "false: NaN matches only is_nan and not_nan",
        "Say whether predicate comparisons use IEEE 754 comparison or the sort order given for floating-point "
        "numbers, and how NaN behaves in each.",
    ),
    Question(
        "predicate.signed-zero",
        "Do -0.0 and +0.0 compare equal in predicates and bounds (does f <= -0.0 hold for f = +0.0)?",
        ("equal: IEEE 754 comparison, -0.0 = +0.0", "ordered: -0.0 < +0.0, as in the sort order"),
        (
            (
                SPEC,
                "Sorting floating-point numbers should produce the following behavior: -NaN < -Infinity < -value "
                "< -0 < 0 < value < Infinity < NaN.",
            ),
        ),
        "equal: -0.0 = +0.0 in predicates; bounds follow the signed-zero rule of partition summaries",
        "Say whether scan predicates compare floating-point values by IEEE 754 comparison (where -0.0 = 0.0) or by "
        "the sort order (where -0 < 0).",
    ),
    Question(
        "names.case-sensitivity",
        "Are type names and transform names case-sensitive (Long, BUCKET[16], Identity)?",
        ("case-sensitive: only the spelling in the spec is valid", "case-insensitive"),
        (
            (SPEC, 'boolean JSON string: "boolean" "boolean"'),
            (SPEC, "Transform name Description Source types Result type"),
        ),
        "case-sensitive: only the spec's spelling",
        "State that type strings and transform names are case-sensitive and written in lower case, as in the "
        "tables of the spec.",
    ),
    Question(
        "transform.malformed-or-unknown",
        "Is a malformed transform string (bucket[x], truncate[0], bucket[-1]) an error, or an unknown transform "
        "a v3 reader must tolerate?",
        (
            "an error: the string names a known transform with bad parameters",
            "an unknown transform: any string that is not a valid transform is unknown and ignored",
        ),
        ((SPEC, "All v3 readers are required to read tables with unknown transforms, ignoring them."),),
        "an error for a known transform name with bad parameters; unknown only for other names",
        "Define which strings are unknown transforms (for example: any name not in the transform table) and say "
        "that a known transform with invalid parameters is an invalid partition spec.",
    ),
    Question(
        "read.column-order",
        "In which order does a whole-table read return the columns?",
        ("the current schema's field order", "any order: columns are identified by name or field id"),
        (
            (
                SPEC,
                "The table schema's column names and order may change after a data file is written, and "
                "projection must be done using field ids.",
            ),
        ),
        "the current schema's field order",
        "Say whether a reader must return the columns of a full-table read in the table schema's order.",
    ),
    Question(
        "input.decimal-scale",
        "What is the result of an operation on a decimal value given at a scale other than its type's (1.5 for "
        "decimal(9,2))?",
        (
            "an error: the value is not a value of the type",
            "the value rescaled to the type's scale",
            "the result computed on the value as given",
        ),
        ((SPEC, "Decimal scale is fixed and cannot be changed by schema evolution."),),
        "rescaled when no rounding is needed, an error otherwise",
        "The spec defines operations on values of a type only; an input at another scale is a form this suite "
        "added, and the spec need not define it.",
    ),
    Question(
        "json.null-element",
        "How is a null element of a list, or a null value of a map, written in a JSON single value?",
        (
            "as JSON null",
            "not at all: Appendix D gives null no single-value form, so the value has none (an error)",
        ),
        ((SPEC, "Stores a JSON array of values that are serialized using this JSON single-value format"),),
        "as JSON null",
        "Say that a null element, map value or optional struct field is written as JSON null in a JSON single value.",
    ),
    Question(
        "value.calendar-range",
        "Is every count of days a date and every count of microseconds (nanoseconds) a timestamp, or only "
        "those of years 0000 to 9999, the years an ISO-8601 date writes without expansion?",
        (
            "every count is a value: transforms and JSON are defined for all of them, years outside 0000 to 9999 "
            "in ISO-8601's expanded form (+10000-01-01, -0001-12-31)",
            "only years 0000 to 9999: other values are out of range, an error",
        ),
        (
            (SPEC, "Calendar date without timezone or time"),
            (SPEC, "Stores ISO-8601 standard date"),
        ),
        "every count is a value, years outside 0000 to 9999 in the expanded form (as Iceberg Java writes them)",
        "Say whether a date is any 4-byte count of days and a timestamp any 8-byte count, and which ISO-8601 "
        "form their JSON takes outside years 0000 to 9999 (the expanded form with a sign, or none: out of range).",
    ),
    Question(
        "input.undefined",
        "What should an operation answer for an input the spec does not define (a value outside its type's "
        "range, an overflowing transform, a type the operation does not apply to)?",
        ("an error", "any answer: the spec defines none"),
        ((SPEC, "Supported primitive types are defined in the table below."),),
        "an error naming the rule the input breaks",
        "Say, for each transform and serialization, what an implementation does with an input outside its "
        "domain (for example truncate of the long minimum, whose result does not fit a long).",
    ),
    Question(
        "reader.writer-rule-broken",
        "What should a reader do with a document or table that breaks a rule imposed on writers?",
        ("reject it", "read it as written", "read it after repairing the broken part"),
        ((SPEC, "Writers should not write using partition specs that use unknown transforms."),),
        "reject it, naming the rule (the reference is also the validator)",
        "For each writer requirement, say whether readers must reject a violation, may read it, or must read it "
        "in a stated way.",
    ),
    # --- found by reading the recorded engine differences against the spec texts ---
    Question(
        "input.out-of-range",
        "What should an operation answer for a value that is not a value of its type (bytes of the wrong length, "
        "a JSON number out of the type's range, a string that is no date)?",
        ("an error", "any answer: the spec defines none"),
        ((SPEC, "Supported primitive types are defined in the table below."),),
        "an error naming the rule the input breaks",
        "The spec defines serializations for values of a type only; say whether readers must reject other inputs.",
    ),
    Question(
        "binary.geo-single-value",
        "Is the binary single value of geometry and geography the WKB of the value, or the x:y[:z][:m] bound "
        "serialization?",
        (
            "WKB (the single-value table row)",
            "x:y[:z][:m] little-endian doubles (the bound serialization)",
            "not defined outside bounds",
        ),
        (
            (
                ADOPTED,
                'for `geometry` and `geography` (WKB). New "Bound serialization" subsection: geo bounds are '
                "`x:y`, `x:y:z`, `x:y:NaN:m` or `x:y:z:m` as LE doubles",
            ),
        ),
        "WKB",
        "Say that geo lower and upper bounds use the bound serialization and that the WKB row applies only where "
        "a whole geo value is serialized (or remove it).",
    ),
    Question(
        "decimal.negative-scale",
        "Is a decimal type with a negative scale (decimal(9,-2)) a valid Iceberg type, and how is its type "
        "string written?",
        (
            "valid: decimal(P,-S) parses, and JSON values use scientific notation with exponent = -scale",
            "invalid: the type string's S is a non-negative integer (Java's and PyIceberg's parsers accept "
            "digits only)",
        ),
        (
            (
                SPEC,
                "for values with a negative scale, the scientific notation is used and the exponent must equal "
                "the negated scale",
            ),
            (SPEC, 'decimal(P, S) JSON string: "decimal(<P>,<S>)" "decimal(9,2)", "decimal(9, 2)"'),
        ),
        "valid: decimal(9,-2) parses and its values serialize as e.g. 2E+2",
        "State the range of S in Primitive Types (e.g. 0 <= S <= P) and, if negative scales are not allowed, "
        "drop or qualify the negative-scale sentence of Appendix D.",
    ),
    Question(
        "float.nan-bits",
        "Must a single-value (binary) serialization of a float or double keep a NaN's exact bit pattern "
        "(signalling bit, payload), or may it canonicalize or quiet it?",
        (
            "keep every bit as given",
            "any NaN bit pattern may be written (quieting allowed)",
            "canonical NaN only (as for hashing)",
        ),
        (
            (SPEC, "float Stored as 4-byte little-endian"),
            (SPEC, "All NaN bit patterns must be canonicalized to 0x7ff8000000000000L."),
        ),
        "keep every bit (a signalling NaN round-trips unchanged)",
        "Say in Appendix D whether NaN payloads are significant in bounds and single values, or that any NaN "
        "encoding denotes the same value.",
    ),
    Question(
        "hash.ns-to-micros-rounding",
        "When a timestamp_ns or timestamptz_ns value before the epoch is not a whole number of microseconds, is "
        "it converted to microseconds for hashing by floor division or by truncation toward zero?",
        (
            "floor division: -1 ns becomes -1 us (the microsecond that contains the instant)",
            "truncation toward zero: -1 ns becomes 0 us",
        ),
        (
            (
                ADOPTED,
                "`timestamp_ns` and `timestamptz_ns` are now **`hashLong(micros)`**: nanoseconds are converted "
                "to micros first (Java uses floorDiv).",
            ),
        ),
        "floor division, as Iceberg Java's DateTimeUtil does (1969-12-31T23:59:59.999999999 hashes as -1 us)",
        "State in Appendix B that nanosecond timestamps are converted to microseconds by floor division (the "
        "microsecond containing the instant), so that a pre-epoch value keeps its date and time fields and "
        "matches Java.",
    ),
    Question(
        "json.explicit-null-optional",
        'Whether an explicit JSON null for an optional table-metadata field (e.g. "refs": null) must be read as '
        "if the field were absent, or may be rejected as not the declared JSON type.",
        (
            "null means absent: read with the field's default (main implied from current-snapshot-id)",
            "null is not a JSON map: reject the document",
            "reader's choice",
        ),
        (
            (
                SPEC,
                "There is always a main branch reference pointing to the current-snapshot-id even if the refs "
                "map is null.",
            ),
            (SPEC, "refs JSON map with string key and object value:"),
        ),
        'null means absent: the reference reads "refs": null as no refs and implies main from current-snapshot-id.',
        "State in Appendix C whether an optional field written as JSON null is equivalent to omitting it (and "
        "that writers should omit rather than write null).",
    ),
    Question(
        "json.nonfinite-float",
        "How is a NaN or infinite float/double written as a JSON single value, given that JSON numbers cannot "
        "express them?",
        (
            "not serializable: an error",
            "non-standard tokens NaN / Infinity / -Infinity (Jackson's default)",
            'a JSON string such as "NaN"',
        ),
        (
            (SPEC, "float JSON number 1.0"),
            (SPEC, "double JSON number 1.0"),
        ),
        "error: non-finite values have no JSON single value",
        "Add to the float/double rows of Appendix D how NaN and +/-Infinity are written (or that they cannot be "
        "used as defaults).",
    ),
    Question(
        "predicate.is-nan-on-non-float",
        "Whether an is-nan / not-nan predicate on a non-floating-point column is a binding error or evaluates to "
        "a constant (false / true).",
        (
            "binding error",
            "always false (not-nan always true)",
            "implementation's choice",
        ),
        (
            (SPEC, "float 32-bit IEEE 754 floating point Can promote to double"),
            (
                SPEC,
                "optional optional 137 nan_value_counts map<138: int, 139: long> Map from column id to number of "
                "NaN values in the column",
            ),
        ),
        "binding error, as Iceberg Java ('IsNaN cannot be used with a non-floating-point column').",
        "Define the predicate set (including is_nan/not_nan) in the spec and state that NaN predicates bind only "
        "to float and double columns.",
    ),
    Question(
        "transform.result-overflow",
        "What does a transform do when its defined result does not fit the result type (hour of an extreme "
        "timestamp, truncate near the int/long minimum, a truncated decimal gaining a digit)?",
        (
            "error",
            "wrap around in the result type (Java int/long arithmetic)",
            "return the exact, unbounded value",
        ),
        (
            (SPEC, "hour Extract a timestamp hour, as hours from 1970-01-01 00:00:00"),
            (SPEC, "truncate[W] Value truncated to width W (see below) int, long, decimal, string, binary Source type"),
        ),
        "error (transform.overflow)",
        "State for hour and truncate that a result outside the result type's range is an error (or define the "
        "wrap-around), and note the values at which it happens.",
    ),
    Question(
        "transform.source-type",
        "Must a transform applied to a value whose type is not in its 'Source types' column (bucket of "
        "boolean/float/double, hour of date, truncate of fixed) be rejected, or may an implementation return a "
        "value?",
        (
            "reject with an error",
            "return a value (e.g. the Appendix B 'if that changes' hash, the date's hours, the fixed value unchanged)",
            "implementation-defined; only partition specs using it are invalid",
        ),
        (
            (
                SPEC,
                "The types below are not currently valid for bucketing, and so are not hashed. However, if that "
                "changes and a hash value is needed, the following table shall apply:",
            ),
            (SPEC, "truncate[W] Value truncated to width W (see below) int, long, decimal, string, binary Source type"),
            (
                SPEC,
                "hour Extract a timestamp hour, as hours from 1970-01-01 00:00:00 timestamp, timestamptz, "
                "timestamp_ns, timestamptz_ns int",
            ),
        ),
        "reject (rule transform.source-type): a transform is undefined outside its listed source types",
        "Say that a transform is defined only for its listed source types, that a partition or sort field "
        "applying it to any other type is invalid, and that implementations must reject such a field rather than "
        "compute a value.",
    ),
    Question(
        "types.whitespace",
        "Which whitespace is allowed inside parameterized type strings (decimal( 9 , 2 ), fixed[ 16 ], geometry( "
        "srid:3857 ), geography(C,A) without a space)?",
        (
            "only the Appendix C spellings (a space after the decimal comma at most)",
            "any whitespace around parameters (Java's parser)",
            "readers should accept it, writers write the canonical form",
        ),
        (
            (SPEC, 'decimal(P, S) JSON string: "decimal(<P>,<S>)" "decimal(9,2)", "decimal(9, 2)"'),
            (ADOPTED, "readers should accept optional whitespace inside type parameters."),
        ),
        "accept optional whitespace around every parameter and normalize it",
        "Give a grammar for parameterized type strings in Appendix C that says where optional whitespace may "
        "appear, and whether readers must accept it.",
    ),
    Question(
        "unknown-transform.verbatim",
        "Must a reader that reads an unknown transform keep its original string, so that metadata it writes back "
        "carries the same transform?",
        (
            "yes: the transform string is kept verbatim",
            "no: reading and ignoring it is enough; its representation is the implementation's",
        ),
        (
            (SPEC, "All v3 readers are required to read tables with unknown transforms, ignoring them."),
            (SPEC, "All readers are required to read tables with unknown partition transforms, ignoring them."),
        ),
        "yes: the unknown transform keeps its string",
        "Add that an implementation must preserve an unknown transform's string unchanged when it rewrites table "
        "metadata.",
    ),
    Question(
        "history.deleted-not-live",
        "May a snapshot write a DELETED entry for a file that was not live in its parent snapshot (a file never "
        "added, or already removed)?",
        (
            "no: only a file of the dataset can be replaced or deleted from it (a violation)",
            "yes: the entry is informational only and a scan ignores it",
        ),
        (
            (
                SPEC,
                "When a file is replaced or deleted from the dataset, its manifest entry fields store the snapshot "
                "ID in which the file was deleted and status 2 (deleted).",
            ),
            (SPEC, "Deletes are informational only and not used in scans."),
        ),
        "no: a DELETED entry the snapshot writes names a file live in its parent",
        "Say that a snapshot marks DELETED only files that are live in its parent snapshot.",
    ),
    Question(
        "metadata-column.partition-type",
        "What struct does the _partition metadata column of a row have when the table has several partition specs, "
        "or none that is partitioned?",
        (
            "the unified partition type (every partition field of every spec, by field id), the fields the file's "
            "spec lacks null; an empty struct for a table never partitioned",
            "the same, but without the fields whose source column was dropped, and null (no struct) when no "
            "field is left or the table was never partitioned (Iceberg Java through Spark)",
            "the partition struct of the file's own spec",
        ),
        (
            (
                SPEC,
                "This id range is reserved for metadata columns that can be used in user data schemas, like the "
                "_file column that holds the file path in which a row was stored.",
            ),
            (SPEC, "2147483642 _partition struct Partition to which a row belongs"),
        ),
        "the unified partition type, fields the file's spec lacks null; an empty struct when no spec is partitioned",
        "Give _partition a type: the unified partition type of Partition Statistics, with the fields the file's "
        "spec lacks null, and say what an unpartitioned table returns.",
    ),
    Question(
        "metadata-column.deleted-rows",
        "Does asking a read for the _deleted metadata column return the deleted rows too (marked true), or only "
        "the snapshot's live rows (all false)?",
        (
            "only the live rows, _deleted false for each: asking for a column does not change which rows a read "
            "returns",
            "the rows of every live data file, the deleted ones with _deleted true (Iceberg Java through Spark)",
        ),
        ((SPEC, "2147483644 _deleted boolean Whether the row has been deleted"),),
        "only the live rows, each with _deleted false",
        "Say which rows a read that projects _deleted returns: the live rows only, or every row of the live data "
        "files with the deleted ones marked.",
    ),
    Question(
        "scan-task.fields",
        "Whether a file scan task's JSON object may be read with only the fields of the spec's table (schema, "
        "spec, data-file, delete-files, residual-filter), or must also carry fields the table does not list "
        "(the byte range of a split: start and length).",
        (
            "the table's fields suffice: a task is the whole data file with its deletes and residual",
            "start and length are required as well (Iceberg Java's FileScanTaskParser)",
        ),
        (
            (SPEC, "File scan task is serialized as a JSON object according to the following table."),
            (SPEC, "data-file JSON object See above, read content file instead"),
        ),
        "the table's fields suffice; keys it does not list are ignored.",
        "List start and length in the File Scan Task Serialization table (with whether they are required) or say "
        "that a task without them covers its whole data file.",
    ),
    Question(
        "view.unknown-representation",
        "What a view reader does with a representation whose type it does not know (other than sql).",
        (
            "keep it as it is (opaque)",
            "skip/drop it",
            "reject the document",
        ),
        (
            (
                VIEW_SPEC,
                "Each representation is stored as an object with only one common field “type”. The rest of the "
                "fields are interpreted based on the type. There is only one type of representation defined in "
                "the spec.",
            ),
        ),
        "keep it as it is (readers skip what they do not know).",
        "Say that readers must preserve representations of unknown types unchanged and ignore them when choosing "
        "a SQL dialect, rather than failing.",
    ),
)


def question(question_id: str) -> Question:
    try:
        return QUESTIONS[question_id]
    except KeyError:
        raise KeyError(f"unknown question {question_id!r}; known: {', '.join(sorted(QUESTIONS))}") from None
