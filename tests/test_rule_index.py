"""The rule index (`spec_impl/vectors/rule_index.py`, `vectors/rules.json`, `RULES.md`): complete,
every implementing function real and marked `@implements` (the single source), every cited section placed with an anchor
and a quote that occurs in the spec texts, and the written files up to date.

Coverage by vectors (every rule has a case) is checked once, in
`tests/test_vectors.py::test_every_rule_has_a_vector`; here only that the index lists the cases
the vector files hold for each rule.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import jsonschema
import pytest

from spec_impl.rules import IMPLEMENTED_BY
from spec_impl.vectors import rule_index, spec_sections

SPEC_DIR = spec_sections.spec_dir()  # $ICEBERG_SPEC_DIR, else shared/spec beside the checkout
REPO_ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def rules():
    return rule_index.registry()


@pytest.fixture(scope="module")
def index(rules):
    """The index as the committed file holds it (its freshness is test_written_files_are_current)."""
    return json.loads((rule_index.vectors_dir() / rule_index.INDEX_FILE).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def spec_dir() -> Path:
    if not SPEC_DIR.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"the spec texts are missing: {SPEC_DIR} (CI must provide them to verify the quotes)")
        pytest.skip(f"the spec texts are not here ({SPEC_DIR}): quotes cannot be verified")
    return SPEC_DIR


def test_index_lists_every_registered_rule_once(rules, index):
    ids = [r["id"] for r in index["rules"]]
    assert ids == sorted(rules) and len(ids) == len(set(ids))
    for r in index["rules"]:
        rule = rules[r["id"]]
        assert (r["summary"], r["section"], tuple(r["versions"]), tuple(r["revisions"])) == (
            rule.summary,
            rule.section,
            rule.versions,
            rule.revisions,
        )


def test_index_matches_its_schema(index):
    schema = json.loads((rule_index.vectors_dir() / rule_index.SCHEMA_FILE).read_text(encoding="utf-8"))
    assert schema == rule_index.SCHEMA
    jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker()).validate(index)


def test_every_rule_has_an_implementing_function(rules, index):
    """implemented-by is what `@implements` marks: at least one function per rule."""
    missing = [r["id"] for r in index["rules"] if not r["implemented-by"]]
    assert missing == []
    assert {r["id"]: r["implemented-by"] for r in index["rules"]} == rule_index.implementations(rules)


def test_every_decorated_function_exists_and_is_imported_by_the_registry_scan(rules):
    """Each `module:qualname` marked resolves to the decorated object, names a registered rule, and
    every module of spec_impl that uses `@implements` is imported by `registry()`."""
    marked = {f: r for r, functions in IMPLEMENTED_BY.items() for f in functions}
    assert set(IMPLEMENTED_BY) <= set(rules), sorted(set(IMPLEMENTED_BY) - set(rules))
    for function in marked:
        obj = rule_index.resolve(function)  # imports the module: raises if the function is gone
        assert callable(obj) and f"{obj.__module__}:{obj.__qualname__}" == function, function
    users = set()
    for path in sorted((REPO_ROOT / "spec_impl").rglob("*.py")):
        if re.search(r"^\s*@implements\(", path.read_text(encoding="utf-8"), re.M):
            parts = path.relative_to(REPO_ROOT).with_suffix("").parts
            users.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    assert users - {f.partition(":")[0] for f in marked} == set()
    assert all(u in sys.modules for u in users)


def test_vector_files_are_the_files_of_the_listed_cases(index):
    root = rule_index.vectors_dir()
    for r in index["rules"]:
        assert r["vector-files"] == sorted(set(r["vector-files"])) and r["vector-files"], r["id"]
        held = set()
        for name in r["vector-files"]:
            doc = json.loads((root / name).read_text(encoding="utf-8"))
            if "cases" in doc:
                held.update(c["id"] for c in doc["cases"])
            else:
                held.update(f"table.{doc['id']}/snapshot-{s['snapshot-id']}" for s in doc["snapshots"])
        assert set(r["vectors"]) <= held, r["id"]


def test_every_cited_section_resolves_to_an_anchor_and_a_quote(rules, index):
    for r in index["rules"]:
        cited = spec_sections.parse_section(rules[r["id"]].section)
        assert len(r["sections"]) == len(cited) >= 1, r["id"]
        for s, _c in zip(r["sections"], cited):
            if s["document"] == spec_sections.V4:
                assert "url" not in s and s["heading"] in dict(spec_sections.V4_HEADINGS), r["id"]
            else:
                assert s["url"] == spec_sections.DOCUMENTS[s["document"]]["url"] + "#" + spec_sections.anchor(
                    s["document"], s["heading"]
                )
            assert 0 < len(s["quote"]) <= spec_sections.MAX_QUOTE, r["id"]


def test_anchors_are_made_as_the_site_makes_them():
    assert spec_sections.slugify("Appendix B: 32-bit Hash Requirements") == "appendix-b-32-bit-hash-requirements"
    assert spec_sections.slugify("`deletion-vector-v1` blob type") == "deletion-vector-v1-blob-type"
    assert (
        spec_sections.anchor(spec_sections.TABLE, "Content File (Data and Delete) Serialization")
        == "content-file-data-and-delete-serialization"
    )
    cited = spec_sections.parse_section("adopted 1.5 Deletion vectors; Appendix D: Binary single-value serialization")
    assert [c.url for c in cited] == [
        "https://iceberg.apache.org/spec/#deletion-vectors",
        "https://iceberg.apache.org/spec/#binary-single-value-serialization",
    ]
    with pytest.raises(KeyError):
        spec_sections.parse_section("Appendix Q: no such section")


def test_every_quote_occurs_in_the_spec_texts(index, spec_dir):
    texts = {p.name: spec_sections.normalize(p.read_text(encoding="utf-8")) for p in spec_dir.iterdir() if p.is_file()}
    absent = [
        (r["id"], s["quote"])
        for r in index["rules"]
        for s in r["sections"]
        if spec_sections.normalize(s["quote"]) not in texts.get(s["source"]["file"], "")
    ]
    assert absent == []


def test_hand_chosen_quotes_occur_in_their_section(spec_dir, rules):
    for (rule_id, source), text in spec_sections.QUOTES.items():
        cited = [c for c in spec_sections.parse_section(rules[rule_id].section) if c.source_heading == source]
        assert cited, (rule_id, source)
        section = spec_sections.normalize(" ".join(spec_sections.section_lines(cited[0], spec_dir)))
        assert spec_sections.normalize(text) in section, (rule_id, source)
        assert spec_sections.fragment_reason(text) is None, (rule_id, source)


def test_table_rows_are_whole_lines_of_their_section(spec_dir, rules, index):
    """A rule's `table-row` (spec_rows.ROWS) is one line of its cited section, verbatim, and its
    must cases carry it beside the quote (binary.boolean: the boolean row of Appendix D)."""
    from spec_impl.vectors.spec_rows import ROWS

    for (rule_id, source), row in ROWS.items():
        cited = [c for c in spec_sections.parse_section(rules[rule_id].section) if c.source_heading == source]
        assert cited, (rule_id, source)
        lines = {spec_sections.normalize(line) for line in spec_sections.section_lines(cited[0], spec_dir)}
        assert spec_sections.normalize(row) in lines and len(row.split()) >= 3, (rule_id, row)
    boolean = next(r for r in index["rules"] if r["id"] == "binary.boolean")
    assert boolean["sections"][0]["table-row"] == "boolean 0x00 for false, non-zero byte for true"


def test_vectors_listed_are_the_cases_of_the_rule(index):
    root = rule_index.vectors_dir()
    by_rule: dict[str, set[str]] = {}
    for path in root.glob("*/*.json"):
        doc = json.loads(path.read_text(encoding="utf-8"))
        for c in doc.get("cases", []) if isinstance(doc, dict) else []:
            by_rule.setdefault(c["rule"], set()).add(c["id"])
            if "error" in c["expected"]:
                by_rule.setdefault(c["expected"]["error"], set()).add(c["id"])
    for path in root.glob("tables/*/case.json"):
        doc = json.loads(path.read_text(encoding="utf-8"))
        for r in doc["rules"]:
            by_rule.setdefault(r, set()).update(
                f"table.{doc['id']}/snapshot-{s['snapshot-id']}" for s in doc["snapshots"]
            )
    assert {r["id"]: sorted(r["vectors"]) for r in index["rules"]} == {
        r["id"]: sorted(by_rule.get(r["id"], ())) for r in index["rules"]
    }


def test_engines_come_from_the_records(index):
    """fail: each known discrepancy counted for every rule whose cases hold its case (else the
    rule its case id starts with); pass: only engines of the confirmation record."""
    known = rule_index.known_entries()
    rules_of: dict[str, list[str]] = {}
    for r in index["rules"]:
        for case in r["vectors"]:
            rules_of.setdefault(case, []).append(r["id"])
    ids = {r["id"] for r in index["rules"]}
    expected: dict[str, dict[str, int]] = {}
    for k in known:
        for rule_id in rules_of.get(k["case"]) or [p for p in [k["case"].split("/")[0]] if p in ids]:
            expected.setdefault(rule_id, {}).setdefault(k["engine"], 0)
            expected[rule_id][k["engine"]] += 1
    assert {r["id"]: r["engines"]["fail"] for r in index["rules"] if r["engines"]["fail"]} == expected
    recorded = set(json.loads((Path(rule_index.__file__).parent / "confirmations.json").read_text())["engines"])
    assert all(set(r["engines"]["pass"]) <= recorded for r in index["rules"])
    assert any(r["engines"]["pass"] for r in index["rules"])
    # confirmed by counts cases: an engine that confirms some and violates others stands under both, with numbers
    for r in index["rules"]:
        assert sorted(r["engines"]["confirmed"]) == r["engines"]["pass"], r["id"]
        assert all(1 <= n <= len(r["vectors"]) for n in r["engines"]["confirmed"].values()), r["id"]
    both = next(r for r in index["rules"] if set(r["engines"]["confirmed"]) & set(r["engines"]["fail"]))
    engine = sorted(set(both["engines"]["confirmed"]) & set(both["engines"]["fail"]))[0]
    card = rule_index.markdown(index).split(f"### `{both['id']}`", 1)[1].split("### ", 1)[0]
    assert f"{engine} ({both['engines']['confirmed'][engine]} of {len(both['vectors'])})" in card
    assert "violates: " in card and f"{engine} ({both['engines']['fail'][engine]} case" in card


def test_written_files_are_current():
    assert rule_index.main(["--check"]) == 0


def test_check_fails_on_a_stale_file(tmp_path, capsys):
    files = rule_index.render()
    index_path = next(p for p in files if p.name == rule_index.INDEX_FILE)
    assert rule_index.stale(files) == []
    changed = {p: (t.replace('"format": 1', '"format": 0') if p == index_path else t) for p, t in files.items()}
    assert rule_index.stale(changed) == [index_path]


def test_every_quote_is_a_whole_sentence(index):
    fragments = [
        (r["id"], s["quote"], spec_sections.fragment_reason(s["quote"]))
        for r in index["rules"]
        for s in r["sections"]
        if spec_sections.fragment_reason(s["quote"]) is not None
    ]
    assert fragments == []


@pytest.mark.parametrize(
    "quote, reason",
    [
        ("`content_size_in_bytes` | **145**, long | Required; equals the blob `length`.", "table cell border"),
        ("boolean 0x00 for false, non-zero byte for true.", "starts mid-sentence"),
        ("2147483545 pos long Ordinal position of a deleted row in the target data file.", "starts mid-sentence"),
        ("Do not reorder partition fields", "lacks a sentence end"),
        ("Precision can only be widened", "lacks a sentence end"),
        ("See below.", "fewer than 4 words"),
        ("Required format-version An integer version number for the format.", "row of a field table"),
        ("Requiredversion-logA list of timestamp and version ID pairs.", "row of a field table"),
        ("Optional optional properties A string to string map of table properties.", "row of a field table"),
    ],
)
def test_fragments_of_tables_and_sentences_are_rejected(quote, reason):
    assert reason in (spec_sections.fragment_reason(quote) or "")


@pytest.mark.parametrize(
    "quote",
    [
        "Decimal scale is fixed and cannot be changed by schema evolution.",
        "`deletion-vector-v1` blobs are stored in Puffin files.",
        "**Keys:** the key is the high 32 bits of a position and the bitmap holds the low 32 bits.",
        "Single values are serialized as JSON by type according to the following table:",
        "Name mapping is serialized as a list of field mapping JSON Objects which are serialized as follows",
    ],
)
def test_whole_sentences_pass(quote):
    assert spec_sections.fragment_reason(quote) is None
