"""The examples in the README and in module docstrings run as written."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = ["spec_impl", "spec_impl.transforms", "spec_impl.bulk.transforms"]


def test_readme_examples():
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, extraglobs=vars(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def _exchanges(text: str) -> list[tuple[dict, dict]]:
    """The request and reply of each `->`/`<-` block of a document's "Two exchanges" section."""
    import json
    import re

    section = text.split("## Two exchanges end to end", 1)[1]
    pairs = []
    for block in re.findall(r"```\n(.*?)```", section, re.S):
        request, reply = block.split("<- ", 1)
        pairs.append((json.loads(request.removeprefix("-> ")), json.loads(reply)))
    return pairs


def test_the_protocol_s_exchanges_are_judged_as_they_say():
    """PROTOCOL.md's transform and read-table exchanges: real cases with their inputs, and each
    answer judged as the text says (a pass, a correct rejection, a decline)."""
    from conformance.engines.base import EngineAnswer
    from conformance.judge import PASS, REJECTED, UNSUPPORTED, judge
    from conformance.vectors import load_families

    cases = {c["id"]: c for family in load_families().values() for c in family}
    pairs = _exchanges((ROOT / "conformance" / "engines" / "PROTOCOL.md").read_text(encoding="utf-8"))
    assert [request["cases"][0]["op"] for request, _ in pairs] == ["transform", "read-table"]
    seen = set()
    for request, reply in pairs:
        for sent, result in zip(request["cases"], reply["results"], strict=True):
            case = cases[sent["id"]]
            assert result["id"] == sent["id"] and sent["op"] == case["op"]
            assert {k: sent[k] for k in case["input"]} == case["input"], sent["id"]
            answer = {
                "ok": EngineAnswer(True, result.get("output")),
                "rejected": EngineAnswer.rejection(result.get("error", "")),
                "unsupported": EngineAnswer.declined(result.get("reason", "")),
            }[result["status"]]
            outcome = judge(case, answer, "v3-adopted").outcome
            assert outcome == {"ok": PASS, "rejected": REJECTED, "unsupported": UNSUPPORTED}[result["status"]]
            seen.add(result["status"])
    assert seen == {"ok", "rejected", "unsupported"}
