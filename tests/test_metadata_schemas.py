"""The shipped JSON Schemas of table and view metadata agree with the metadata vectors.

Every valid document of the vectors validates against the schema of its format version; every
invalid one whose fault a JSON Schema can express (a missing field, a wrong JSON type, a
malformed UUID or log entry) fails it. The other faults (ids that must exist, refs that must
agree) are the reference's to check.
"""

from __future__ import annotations

import json

import jsonschema
import pytest

from spec_impl.vectors.cli import DEFAULT_ROOT
from spec_impl.vectors.metadata_schemas import SCHEMA_FILES

EXPRESSIBLE = {
    "table.required-field",
    "table.format-version",
    "table.field-type",
    "table.table-uuid",
    "table.logs",
    "table.statistics",
    "table.encryption-keys",
    "snapshot-log.json",
    "view.uuid",
    "view.format-version",
}


def _cases(op: str):
    for path in sorted((DEFAULT_ROOT / "metadata").glob("*.json")):
        doc = json.loads(path.read_text())
        for c in doc.get("cases", []) if isinstance(doc, dict) else []:
            if c["op"] == op and "v3-adopted" in c["revisions"]:
                yield c


def _validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(SCHEMA_FILES[name])


def _table_errors(document) -> list:
    fv = document.get("format-version") if isinstance(document, dict) else None
    names = (
        [f"table-metadata-v{fv}.schema.json"]
        if fv in (1, 2, 3)
        else [f"table-metadata-v{v}.schema.json" for v in (1, 2, 3)]
    )
    return [e for name in names for e in _validator(name).iter_errors(document)]


def test_schemas_are_valid_json_schemas():
    for name, schema in SCHEMA_FILES.items():
        jsonschema.Draft202012Validator.check_schema(schema)
        assert json.loads((DEFAULT_ROOT / "metadata" / name).read_text()) == schema, name


@pytest.mark.parametrize("case", list(_cases("read-table-metadata")), ids=lambda c: c["id"])
def test_table_metadata_documents(case):
    errors = _table_errors(case["input"]["document"])
    if "output" in case["expected"]:
        assert not errors, f"a valid document fails the schema: {errors[0].message} at {list(errors[0].absolute_path)}"
    elif case["expected"]["error"] in EXPRESSIBLE:
        assert errors, f"the schema accepts a document the reference rejects ({case['expected']['error']})"


@pytest.mark.parametrize("case", list(_cases("read-view-metadata")), ids=lambda c: c["id"])
def test_view_metadata_documents(case):
    errors = list(_validator("view-metadata.schema.json").iter_errors(case["input"]["document"]))
    if "output" in case["expected"]:
        assert not errors, f"a valid view fails the schema: {errors[0].message} at {list(errors[0].absolute_path)}"
    elif case["expected"]["error"] in EXPRESSIBLE:
        assert errors, f"the schema accepts a view the reference rejects ({case['expected']['error']})"
