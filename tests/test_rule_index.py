"""The rule index (`spec_impl/vectors/rule_index.py`, `vectors/rules.json`, `RULES.md`): complete,
every implementing function real and naming its rule, every cited section placed with an anchor
and a quote that occurs in the spec texts, and the written files up to date.

Coverage by vectors (every rule has a case) is checked once, in
`tests/test_vectors.py::test_every_rule_has_a_vector`; here only that the index lists the cases
the vector files hold for each rule.
"""

from __future__ import annotations

import inspect
import json
import os
from pathlib import Path

import jsonschema
import pytest

from spec_impl.vectors import rule_index, spec_sections

SPEC_DIR = Path(__file__).parents[2] / "shared" / "spec"


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


def test_every_rule_has_an_implementation_that_names_it(index):
    missing = [r["id"] for r in index["rules"] if not r["implemented-by"]]
    assert missing == []
    silent = []
    for r in index["rules"]:
        for function in r["implemented-by"]:
            obj = rule_index.resolve(function)  # imports the module: raises if the function is gone
            assert callable(obj), function
            if r["id"] in rule_index.IMPLEMENTED_BY:
                # hand-mapped: no function names the rule yet; the module that registers it must
                assert r["id"] in inspect.getsource(inspect.getmodule(obj)), (r["id"], function)
            elif not rule_index.names_rule(function, r["id"]):
                silent.append((r["id"], function))
    assert silent == []


def test_hand_mapped_implementations_are_still_needed(rules):
    """An entry of IMPLEMENTED_BY goes once a function names the rule (a docstring "(rule id)")."""
    scanned = rule_index.scan_implementations(rules)
    assert sorted(r for r in rule_index.IMPLEMENTED_BY if scanned.get(r)) == []
    assert set(rule_index.IMPLEMENTED_BY) <= set(rules)


def test_scan_finds_raise_sites_docstrings_and_constants(rules):
    found = rule_index.scan_implementations(rules)
    assert "spec_impl.hashing:hash_value" in found["hash.timestamp"]  # a raise/branch naming the id
    assert "spec_impl.transforms:rule_for" in found["transform.hour"]  # through the module constant RULE_OF
    assert (
        "spec_impl.metadata.partitioning:read_source_ids" in found["sort-order.source-ids.agree"]
    )  # f"{kind}.source-ids.agree"
    assert (
        "spec_impl.deletes.scoping:DeleteIndex.for_data_file" in found["deletes.equality-scope"]
    )  # "rules deletes.*-scope"
    assert not any(f.startswith("spec_impl.vectors") for fs in found.values() for f in fs)


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


def test_written_files_are_current():
    assert rule_index.main(["--check"]) == 0


def test_check_fails_on_a_stale_file(tmp_path, capsys):
    files = rule_index.render()
    index_path = next(p for p in files if p.name == rule_index.INDEX_FILE)
    assert rule_index.stale(files) == []
    changed = {p: (t.replace('"format": 1', '"format": 0') if p == index_path else t) for p, t in files.items()}
    assert rule_index.stale(changed) == [index_path]
