"""The requirement index (`spec_impl/requirements/`, `vectors/requirements.json`, `REQUIREMENTS.md`):
every statement of the source files mapped (a status, with the rules or the reason it needs), every
rule real and with vectors, every quote in its text, no duplicate id, the written files current, and
every candidate normative sentence of a text that has a source file covered by a statement's quote.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest

from spec_impl.requirements import extract, index, sources
from spec_impl.vectors import spec_sections


@pytest.fixture(scope="module")
def docs():
    return sources.load()


@pytest.fixture(scope="module")
def rules():
    return index.rule_cases(index.vectors_dir())


@pytest.fixture(scope="module")
def spec_dir() -> Path:
    directory = spec_sections.spec_dir()
    if not directory.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"the spec texts are missing: {directory} (CI must provide them to verify the quotes)")
        pytest.skip(
            f"the spec texts are not here ({directory}; set ${spec_sections.SPEC_DIR_ENV}): "
            "quotes and completeness cannot be verified"
        )
    return directory


def test_there_are_source_files(docs):
    assert any(d["document"] == "table-spec" for d in docs)


def test_every_statement_is_mapped_and_well_formed(docs, rules):
    assert sources.problems(docs, rules) == []


def _statement(**overrides):
    s = {
        "id": "table-spec.sec.slug",
        "section": "Manifests",
        "quote": "q",
        "kind": "must",
        "versions": [2],
        "status": "checked",
        "rules": ["r.ok"],
    }
    return {k: v for k, v in {**s, **overrides}.items() if v is not None}


@pytest.mark.parametrize(
    "overrides, complaint",
    [
        ({"status": None}, "missing status"),
        ({"status": "todo"}, "no mapping"),
        ({"rules": []}, "names no rule"),
        ({"status": "partial"}, "gives no reason"),
        ({"status": "uncovered", "rules": None}, "gives no reason"),
        ({"status": "untestable", "rules": None, "reason": " "}, "gives no reason"),
        ({"status": "untestable", "reason": "x"}, "names rules"),
        ({"rules": ["r.missing"]}, "does not exist"),
        ({"rules": ["r.empty"]}, "has no vectors"),
        ({"kind": "ought"}, "kind"),
        ({"id": "view-spec.a.b"}, "the id is not"),
        ({"quote": "x" * 301}, "longer than"),
        ({"status": "superseded", "rules": None, "reason": "a later text"}, "names the statement that replaced it"),
        ({"status": "superseded", "rules": None, "reason": "x", "superseded-by": "table-spec.a.gone"}, "no testable"),
    ],
)
def test_the_validator_finds_each_problem(overrides, complaint):
    rules = {"r.ok": {"vectors": ["c"]}, "r.empty": {"vectors": []}}
    doc = {"document": "table-spec", "file": sources.DOCUMENTS["table-spec"], "statements": [_statement(**overrides)]}
    found = sources.problems([doc], rules)
    assert any(complaint in p for p in found), found
    assert sources.problems([{**doc, "statements": [_statement()]}], rules) == []


def test_a_superseded_statement_names_its_successor_and_counts_as_not_testable():
    """A revision difference: the older text's statement points to the one that holds now, and
    leaves the testable count (coverage.counts) like an untestable one."""
    from spec_impl.requirements import coverage

    now = _statement(id="table-spec.sec.now")
    old = _statement(status="superseded", rules=None, reason="a later text", **{"superseded-by": "table-spec.sec.now"})
    doc = {"document": "table-spec", "file": sources.DOCUMENTS["table-spec"], "statements": [old, now]}
    assert sources.problems([doc], {"r.ok": {"vectors": ["c"]}}) == []
    c = coverage.counts([old, now])
    assert (c["superseded"], c["testable"], c["checked-share"]) == (1, 1, 1.0)


def test_the_validator_finds_duplicate_ids():
    doc = {"document": "table-spec", "file": sources.DOCUMENTS["table-spec"], "statements": [_statement()] * 2}
    assert any("duplicate id" in p for p in sources.problems([doc], {"r.ok": {"vectors": ["c"]}}))


def test_every_quote_occurs_in_its_text(docs, spec_dir):
    assert sources.missing_quotes(docs, spec_dir) == []


def test_a_quote_not_in_the_text_is_found(spec_dir):
    doc = {"file": sources.DOCUMENTS["table-spec"], "statements": [_statement(quote="no such  sentence")]}
    assert len(sources.missing_quotes([doc], spec_dir)) == 1


def test_every_candidate_normative_sentence_is_covered(docs, spec_dir):
    """A sentence with a normative word that no quote overlaps is a missing statement, unless
    `extract.NON_NORMATIVE` says why it states no requirement."""
    missing = {
        d["document"]: extract.uncovered(
            d["document"], (spec_dir / d["file"]).read_text(encoding="utf-8"), d["statements"]
        )
        for d in docs
    }
    assert {k: v for k, v in missing.items() if v} == {}


def test_each_non_normative_exception_matches_a_candidate(docs, spec_dir):
    """The exception list holds no entry that matches nothing (a stale excuse)."""
    for d in docs:
        text = (spec_dir / d["file"]).read_text(encoding="utf-8")
        _, found = extract.candidates(extract.normative_part(d["document"], text))
        for needle, reason in extract.NON_NORMATIVE.get(d["document"], ()):
            assert reason and any(needle in c.text for c in found), needle


def test_the_extractor_finds_normative_words():
    _, found = extract.candidates("Intro text here. Writers must do X. 读者必须忽略。 Readers may skip.\nrequired 1 id")
    assert [c.text for c in found] == ["Writers must do X.", "读者必须忽略。", "required 1 id"]


def test_the_v4_proposal_ends_before_its_discarded_approaches():
    text = "Root manifests must exist.\nDiscarded Approaches\nWe must not do this."
    assert extract.normative_part("v4-proposal", text) == "Root manifests must exist."
    assert extract.normative_part("table-spec", text) == text


def test_written_files_are_current():
    files = index.render()
    assert index.stale(files) == [], "run python -m spec_impl.requirements --write"


def test_index_matches_its_schema():
    root = index.vectors_dir()
    schema = json.loads((root / index.SCHEMA_FILE).read_text(encoding="utf-8"))
    assert schema == index.SCHEMA
    jsonschema.validate(json.loads((root / index.INDEX_FILE).read_text(encoding="utf-8")), schema)


def test_each_statement_lists_the_cases_and_files_of_its_rules(rules):
    doc = json.loads((index.vectors_dir() / index.INDEX_FILE).read_text(encoding="utf-8"))
    for s in doc["statements"]:
        assert s["cases"] == sorted({c for r in s["rules"] for c in rules[r]["vectors"]})
        assert bool(s["files"]) == bool(s["cases"])
        assert all((index.vectors_dir() / f).is_file() for f in s["files"])


def test_the_stale_check_fails_on_a_changed_index(tmp_path):
    files = index.render()
    path = next(p for p in files if p.name == index.INDEX_FILE)
    assert index.stale({path: files[path] + " "}) == [path]


def test_the_requirement_index_implements_no_rule():
    """The rule index's implemented-by scan must not read this package's file names as rule ids."""
    doc = json.loads((index.vectors_dir() / index.RULES_FILE).read_text(encoding="utf-8"))
    assert [r["id"] for r in doc["rules"] if any("spec_impl.requirements" in f for f in r["implemented-by"])] == []


def test_iceberg_vectors_check_reports_a_stale_requirement_index(tmp_path):
    """`iceberg-vectors check` fails on a missing or stale requirements.json; `generate` writes it."""
    from spec_impl.vectors import cli

    (tmp_path / index.RULES_FILE).write_bytes((index.vectors_dir() / index.RULES_FILE).read_bytes())
    assert any(index.INDEX_FILE in line for line in cli._requirement_index(tmp_path, write=False))
    cli._requirement_index(tmp_path, write=True)
    assert cli._requirement_index(tmp_path, write=False) == []
    (tmp_path / index.INDEX_FILE).write_text("{}", encoding="utf-8")
    assert cli._requirement_index(tmp_path, write=False) == [f"{index.INDEX_FILE}: differs (the requirement index)"]
