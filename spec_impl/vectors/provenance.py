"""Where each vector case's expectation comes from: its `provenance` field.

Kinds (`KINDS`), strongest first:

- `spec-example`: the expectation is an example printed in the spec text, typed from it (the
  `source` names the section and the example);
- `hand-typed`: typed by hand from a cited source (a spec table, a worked rule), not computed;
- `engine-written`: a golden table whose files a real engine wrote, and whose expected rows come
  from a model independent of the reference (`engines` names them);
- `engine-confirmed`: computed by the reference, and real engines answer it the same way
  (`engines`: each engine and version that agrees, from a recorded conformance run);
- `reference-only`: computed by the reference and confirmed by nothing else yet.

A family declares the first three on its cases; confirmation is data, never a guess: the
generator reads `confirmations.json` next to this module, which `python -m
spec_impl.vectors.provenance record RUN` fills from the `confirmations.json` a conformance run
writes with `--compliance-report DIR`. Any case of any family that declares nothing and is
confirmed by no engine is `reference-only`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

KINDS = ("spec-example", "hand-typed", "engine-written", "engine-confirmed", "reference-only")
DECLARED_KINDS = ("spec-example", "hand-typed", "engine-written")
CONFIRMATIONS_FILE = Path(__file__).resolve().parent / "confirmations.json"
CONFIRMATIONS_FORMAT = 1

SCHEMA = {
    "description": "Where the expectation comes from (spec_impl/vectors/provenance.py).",
    "type": "object",
    "required": ["kind"],
    "additionalProperties": False,
    "properties": {
        "kind": {"enum": list(KINDS)},
        "source": {"type": "string", "minLength": 1, "description": "the cited source of a declared expectation"},
        "engines": {
            "type": "array",
            "minItems": 1,
            "items": {"$ref": "#/$defs/engine-version"},
            "description": "the engines that wrote the table (engine-written) or agree (engine-confirmed)",
        },
        "confirmed-by": {
            "type": "array",
            "minItems": 1,
            "items": {"$ref": "#/$defs/engine-version"},
            "description": "real engines that also agree with a declared expectation",
        },
        "partially-confirmed-by": {
            "type": "array",
            "minItems": 1,
            "items": {"$ref": "#/$defs/engine-version"},
            "description": "engines that agree on the part of the expectation they report",
        },
    },
    "allOf": [
        {
            "if": {"properties": {"kind": {"enum": ["spec-example", "hand-typed", "engine-written"]}}},
            "then": {"required": ["source"]},
        },
        {
            "if": {"properties": {"kind": {"enum": ["engine-confirmed", "engine-written"]}}},
            "then": {"required": ["engines"]},
        },
    ],
}
ENGINE_VERSION_SCHEMA = {
    "type": "object",
    "required": ["engine", "version"],
    "additionalProperties": False,
    "properties": {"engine": {"type": "string", "minLength": 1}, "version": {"type": "string"}},
}


def spec_example(source: str) -> dict[str, Any]:
    """A declaration: the expectation is an example of the spec text (`source`: section and example)."""
    return {"kind": "spec-example", "source": source}


def hand_typed(source: str) -> dict[str, Any]:
    """A declaration: the expectation was typed by hand from `source` (a spec table, a rule's text)."""
    return {"kind": "hand-typed", "source": source}


def engine_written(source: str, engines: list[dict[str, str]]) -> dict[str, Any]:
    """A declaration: files a real engine wrote (`engines`: name and version), rows from an independent model."""
    return {"kind": "engine-written", "source": source, "engines": engines}


def expectation_digest(expected: Any) -> str:
    """A short digest of a case's `expected` object: a confirmation holds only while it is unchanged."""
    text = json.dumps(expected, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@cache
def confirmations(path: Path = CONFIRMATIONS_FILE) -> dict[str, dict[str, list[tuple[dict[str, str], str]]]]:
    """case id -> {"full": [...], "partial": [...]}: the engines (name, version) that agree with it,
    each with the digest of the expectation they agreed with."""
    if not path.exists():
        return {}
    doc = json.loads(path.read_text(encoding="utf-8"))
    if doc.get("format") != CONFIRMATIONS_FORMAT:
        raise ValueError(f"{path}: not a confirmation file of format {CONFIRMATIONS_FORMAT}")
    out: dict[str, dict[str, list[tuple[dict[str, str], str]]]] = {}
    for engine, info in sorted(doc["engines"].items()):
        who = {"engine": engine, "version": info["version"]}
        for key, part in (("confirmed", "full"), ("partially-confirmed", "partial")):
            for case_id, digest in info.get(key, {}).items():
                out.setdefault(case_id, {"full": [], "partial": []})[part].append((who, digest))
    return out


def _check_declared(case_id: str, declared: dict[str, Any]) -> dict[str, Any]:
    kind = declared.get("kind")
    if kind not in KINDS:
        raise ValueError(f"case {case_id}: provenance kind {kind!r} is not one of {', '.join(KINDS)}")
    unknown = set(declared) - set(SCHEMA["properties"])
    if unknown:
        raise ValueError(f"case {case_id}: unknown provenance keys {sorted(unknown)}")
    if kind in DECLARED_KINDS and not str(declared.get("source", "")).strip():
        raise ValueError(f"case {case_id}: a {kind} provenance needs a 'source' naming where it was typed from")
    if kind in ("engine-written", "engine-confirmed") and not declared.get("engines"):
        raise ValueError(f"case {case_id}: a {kind} provenance needs the 'engines' (name and version)")
    return dict(declared)


def provenance_for(case_id: str, declared: dict[str, Any] | None = None, expected: Any = None) -> dict[str, Any]:
    """The provenance of one case: what its family `declared` (spec-example, hand-typed,
    engine-written), with the recorded engine confirmations added; else engine-confirmed when a
    recorded run has real engines agreeing in full; else reference-only. With `expected` (the
    case's expected object), a confirmation counts only if it was of this very expectation.
    Raises ValueError on a malformed declaration."""
    digest = None if expected is None else expectation_digest(expected)
    recorded = confirmations().get(case_id, {"full": [], "partial": []})
    confirmed = {
        part: [who for who, d in entries if digest is None or d == digest] for part, entries in recorded.items()
    }
    if declared is not None and declared.get("kind") not in (None, "reference-only", "engine-confirmed"):
        out = _check_declared(case_id, declared)
        if confirmed["full"]:
            out["confirmed-by"] = confirmed["full"]
    elif confirmed["full"]:
        out = {"kind": "engine-confirmed", "engines": confirmed["full"]}
    else:
        out = {"kind": "reference-only"}
    if confirmed["partial"] and out["kind"] != "engine-written":
        out["partially-confirmed-by"] = confirmed["partial"]
    return out


# --- recording confirmations from a conformance run ---------------------------------------------


def merge(current: dict[str, Any], run: dict[str, Any]) -> dict[str, Any]:
    """The confirmation document with the engines of `run` replaced by what that run observed
    (engines the run did not judge keep their earlier record)."""
    engines = dict(current.get("engines", {}))
    for name, info in run["engines"].items():
        engines[name] = {
            "version": info["version"],
            "confirmed": dict(sorted(info.get("confirmed", {}).items())),
            "partially-confirmed": dict(sorted(info.get("partially-confirmed", {}).items())),
        }
    return {"format": CONFIRMATIONS_FORMAT, "engines": dict(sorted(engines.items()))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m spec_impl.vectors.provenance",
        description="Record which real engines confirm which vector cases, from a conformance run.",
        epilog="pytest conformance/ --compliance-report reports/  &&  python -m spec_impl.vectors.provenance record "
        "reports/confirmations.json  &&  iceberg-vectors generate",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help=f"merge a run's confirmations into {CONFIRMATIONS_FILE.name}")
    rec.add_argument("run", type=Path, help="the confirmations.json a conformance run wrote next to compliance.json")
    rec.add_argument("--into", type=Path, default=CONFIRMATIONS_FILE, help=f"default: {CONFIRMATIONS_FILE}")
    args = parser.parse_args(argv)
    try:
        run = json.loads(args.run.read_text(encoding="utf-8"))
        current = json.loads(args.into.read_text(encoding="utf-8")) if args.into.exists() else {}
    except (OSError, json.JSONDecodeError) as e:
        parser.error(str(e))
    if run.get("format") != CONFIRMATIONS_FORMAT or not isinstance(run.get("engines"), dict):
        parser.error(f"{args.run}: not a run confirmation file of format {CONFIRMATIONS_FORMAT}")
    doc = merge(current, run)
    args.into.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    for name, info in run["engines"].items():
        print(
            f"{name} {info['version']}: {len(info.get('confirmed', []))} cases confirmed, "
            f"{len(info.get('partially-confirmed', []))} in part",
            file=sys.stderr,
        )
    print(f"wrote {args.into}; run `iceberg-vectors generate` to put it into the vectors", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
