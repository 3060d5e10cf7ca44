"""Pin the known discrepancies to what the engines were observed to answer.

    pytest conformance/ --engine iceberg-java --record-observations /tmp/obs.json
    python -m conformance.known_pin /tmp/obs.json            # show what would change
    python -m conformance.known_pin /tmp/obs.json --write    # write it into known/engines/*.json

For each entry of the engines' ledger files (`vectors/known/engines/<engine>.json`) whose engine
and case were observed, the entry gets `returned` (the output) or `raised` (a pattern of the error
message: paths and object addresses that change between runs become wildcards) and the engine's
`version`. Entries whose case the engine now answers correctly are listed for removal, not
removed. Nothing is written without `--write`.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from conformance.known import matches_pinned
from spec_impl.resources import known_engine_files

OBSERVATIONS_FORMAT = 1
_VOLATILE = re.compile(
    "|".join(
        [
            re.escape(tempfile.gettempdir()) + r"/[^\s'\"`,;)\]}]*",  # temporary files and directories
            r"(?:/root|/home/[^/\s]+)/[^\s'\"`,;)\]}]*",  # caches under a home directory
            r"@[0-9a-f]{5,}\b",  # Java object addresses
            r"\bo\d+(?=\.)",  # py4j's object ids (`calling o536.getResult`), new in every session
            # Spark's stage, task and TID numbers, which count a session's jobs
            r"(?<=stage )\d+\.\d+|(?<=task )\d+\.\d+|(?<=TID )\d+|(?<=Task )\d+(?= in stage)",
            r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b",  # random UUIDs in file names
        ]
    )
)
PATTERN_CHARS = 240


def error_pattern(message: str) -> str:
    """A regular expression that matches this error message and the same message from another run
    (other temporary paths): the message's first `PATTERN_CHARS` characters, volatile parts as `.*?`
    (a native stack trace, whose addresses change, is left out)."""
    text = message.split("\n\nStack Trace:", 1)[0][:PATTERN_CHARS]
    parts, last = [], 0
    for m in _VOLATILE.finditer(text):
        parts.append(_escape(text[last : m.start()]))
        parts.append(".*?")
        last = m.end()
    parts.append(_escape(text[last:]))
    return "^" + "".join(parts)


def _escape(text: str) -> str:
    """Regex metacharacters escaped, nothing else (patterns stay readable in the JSON file)."""
    return re.sub(r"([.^$*+?{}\[\]\\|()])", r"\\\1", text)


def _is_error(answer: Any) -> bool:
    return isinstance(answer, dict) and "error" in answer and set(answer) <= {"error", "rule", "failed"}


def still_pinned(entry: dict[str, Any], answer: Any) -> bool:
    """Whether the entry's current pin already matches the observation (a hand-made pin with
    `{"$any": ...}` parts, or a pattern, is then kept as it is)."""
    if "raised" in entry:
        return _is_error(answer) and re.search(entry["raised"], answer["error"], re.S) is not None
    if "returned" in entry:
        return not _is_error(answer) and matches_pinned({"op": "?"}, entry["returned"], answer)
    return False


def pin(entry: dict[str, Any], observation: dict[str, Any]) -> dict[str, Any]:
    """The entry with the observed answer pinned (a new dict; keys in a stable order)."""
    answer = observation["answer"]
    if still_pinned(entry, answer):
        out = dict(entry)
    else:
        out = {k: v for k, v in entry.items() if k not in ("returned", "raised", "failure")}
        if _is_error(answer):
            out["raised"] = error_pattern(answer["error"])
            if answer.get("failed"):
                out["failure"] = True  # the engine failed (crashed, reported an internal error), not refused the input
        else:
            out["returned"] = answer
    if observation.get("version"):
        out["version"] = observation["version"]
    return out


def plan(document: dict[str, Any], observations: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The pinned document (one engine's ledger file), and one line per entry saying what happened
    to it."""
    by_key = {(o["engine"], o["case"]): o for o in observations["observations"]}
    lines, entries = [], []
    for e in document.get("entries", []):
        name = f"{document['engine']} {e['where']['case']}"
        o = by_key.get((document["engine"], e["where"]["case"]))
        if o is None:
            lines.append(f"not observed (engine not run?): {name}")
            entries.append(e)
        elif o["outcome"] in ("pass", "rejected", "rejected-other-rule", "fixed"):
            lines.append(f"STALE, answers correctly now (remove the entry): {name}")
            entries.append(e)
        elif o["outcome"] == "unsupported":
            lines.append(f"unsupported now (left as it is): {name}")
            entries.append(e)
        else:
            new = pin(e, o)
            if new != e:
                shown = json.dumps({k: new[k] for k in ("returned", "raised") if k in new})[:160]
                lines.append(f"pinned: {name}: {shown}")
            entries.append(new)
    return {**document, "entries": entries}, lines


def _finite(value: Any) -> Any:
    """A pinned value with every float JSON cannot carry as {"$float": "nan" | "inf" | "-inf"} (read
    back by known.load)."""
    if isinstance(value, float) and not math.isfinite(value):
        return {"$float": "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    return value


def dumps(document: dict[str, Any]) -> str:
    """An engine's ledger file as text: two-space indented, each pinned output on one line."""
    placeholders: dict[str, str] = {}
    entries = []
    for i, e in enumerate(document.get("entries", [])):
        if "returned" in e:
            key = f"\u0000returned-{i}"
            placeholders[json.dumps(key)] = json.dumps(
                _finite(e["returned"]), ensure_ascii=False, separators=(", ", ": "), allow_nan=False
            )
            e = {**e, "returned": key}
        entries.append(e)
    text = json.dumps({**document, "entries": entries}, indent=2, ensure_ascii=False) + "\n"
    return re.sub(r'"\\u0000returned-\d+"', lambda m: placeholders[m[0]], text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m conformance.known_pin",
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("observations", type=Path, help="a file written by pytest conformance/ --record-observations")
    parser.add_argument(
        "--known",
        type=Path,
        action="append",
        help="a ledger file to pin (repeatable; default: every file of known/engines/)",
    )
    parser.add_argument("--write", action="store_true", help="write the pinned entries (default: only show them)")
    args = parser.parse_args(argv)
    try:
        observations = json.loads(args.observations.read_text(encoding="utf-8"))
        documents = {f: json.loads(f.read_text(encoding="utf-8")) for f in args.known or known_engine_files()}
    except (OSError, json.JSONDecodeError) as e:
        parser.error(str(e))
    if observations.get("format") != OBSERVATIONS_FORMAT:
        parser.error(f"{args.observations}: not an observations file of format {OBSERVATIONS_FORMAT}")
    for file, document in documents.items():
        pinned, lines = plan(document, observations)
        for line in lines:
            print(line)
        if args.write and pinned != document:
            file.write_text(dumps(pinned), encoding="utf-8")
            print(f"wrote {file}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
