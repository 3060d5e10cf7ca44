"""iceberg-vectors: generate the golden vectors from the reference, or check them.

    iceberg-vectors generate            # rewrite every set under vectors/ (all sets at once,
                                        # atomically) and the rule index
    iceberg-vectors check               # exit 1 when the committed files differ from a fresh run,
                                        # or an engine's confirmations are stale (engine_pins.py)
    iceberg-vectors list [--family F]   # case ids with their rule and expectation
    iceberg-vectors table ID DIR        # write golden table ID under DIR (location file:DIR), to read it
    iceberg-vectors export DIR          # a versioned release tarball for other languages
                                        # (vectors/CONSUMING.md)
    iceberg-vectors changelog [--json]  # cases added, changed, annotated, removed since the last
                                        # recorded release (spec_impl/vectors/versions.py)
    iceberg-vectors changelog --record  # record the cases as release VERSION
    iceberg-vectors adopt-random FILE [--op OP]   # add a conformance run's random-findings.json
                                        # to vectors/sources/ (then generate: they become cases)
    iceberg-vectors --root /tmp/v --set values generate   # write elsewhere (--root), only some
                                                          # sets (--set)

generate replaces the chosen sets together: a run killed at any moment leaves every set old or
every set new once the next command (any of these) has recovered the directory
(spec_impl/ops/regeneration.py). Exit status: 0 done (check: no difference), 1 check found
differences or stale confirmations, 2 bad arguments (an unknown --family included, or generate
into the vectors of an installed package: give --root).
"""

from __future__ import annotations

from collections.abc import Callable

import argparse
import json
import sys
from pathlib import Path

from spec_impl.resources import is_checkout, vectors_dir
from spec_impl.obligations.assign import forget_rule_index
from spec_impl.vectors import golden, rule_index
from spec_impl.vectors.engine_pins import stale_confirmations
from spec_impl.vectors.families import SETS


DEFAULT_ROOT = vectors_dir()


def family_names() -> list[str]:
    """Every family of every set, by the name its file carries."""
    return sorted(f.NAME for families in SETS.values() for f in families)


def _progress(quiet: bool):
    return (lambda _: None) if quiet else (lambda line: print(f"  {line}", file=sys.stderr))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="iceberg-vectors",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1],
    )
    parser.add_argument(
        "--root",
        type=Path,
        default=DEFAULT_ROOT,
        help=f"where the sets live, one directory each (default: {DEFAULT_ROOT})",
    )
    parser.add_argument(
        "--set", dest="sets", action="append", choices=sorted(SETS), help="only this set (repeatable; default: all)"
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("generate", help="write the golden files from the reference")
    sub.add_parser("check", help="fail when the golden files differ from what the generator produces now")
    lister = sub.add_parser("list", help="print case ids, rules and expectations")
    lister.add_argument("--family", help="only this family (file name without .json)")
    table = sub.add_parser(
        "table", help="write one golden table of vectors/tables/ at a real location, for an engine to read"
    )
    table.add_argument("id", help="the table's id (a directory name under vectors/tables/)")
    table.add_argument("directory", type=Path, help="where to write it; its location becomes file:<directory>")
    export = sub.add_parser(
        "export", help="write a versioned release tarball of the vectors, schemas and docs into a directory"
    )
    export.add_argument("directory", type=Path, help="where to write iceberg-conformance-vectors-<version>.tar.gz")
    export.add_argument(
        "--spec-gaps",
        type=Path,
        metavar="REPORT_DIR",
        help="add spec-gaps.json and .html from a conformance run's report directory",
    )
    changelog = sub.add_parser(
        "changelog", help="the cases added, changed and removed since the last recorded release of the vectors"
    )
    changelog.add_argument("--json", action="store_true", help="every case id by kind, as JSON")
    changelog.add_argument(
        "--record", action="store_true", help="record the current cases as release VERSION (vectors/releases/)"
    )
    adopt = sub.add_parser(
        "adopt-random",
        help="add the inputs of a conformance run's random-findings.json to vectors/sources/random/findings.json",
    )
    adopt.add_argument("file", type=Path, help="random-findings.json, written beside the compliance report")
    adopt.add_argument("--op", action="append", help="only the inputs of this op (repeatable; default: all)")
    return parser


def _adopt_random(args: argparse.Namespace) -> int:
    """Adopt a findings file's inputs into the source of the random-findings families."""
    from spec_impl.vectors import random_findings

    try:
        findings = json.loads(args.file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        print(f"iceberg-vectors: {args.file}: {e}", file=sys.stderr)
        return 2
    source = args.root.joinpath(*random_findings.SOURCE_PATH)
    done = random_findings.adopt(findings, source, args.op)
    for what, why in done.skipped:
        print(f"skipped {what}: {why}")
    print(
        f"{source}: {len(done.added)} inputs added, {len(done.seen)} already there, {len(done.skipped)} skipped; "
        "run `iceberg-vectors generate` to make them cases"
    )
    return 0


def _changelog(args: argparse.Namespace) -> int:
    from spec_impl.vectors import versions

    if args.record:
        print(versions.record(args.root, into=args.root / versions.RELEASES_DIR))
        return 0
    log = versions.changelog(args.root)
    print(json.dumps(log.as_json(), indent=1) if args.json else log.markdown(versions.vectors_version(args.root)))
    return 0


def _refusal(args: argparse.Namespace) -> str | None:
    """Why the arguments are refused (exit status 2), or None."""
    if args.command in ("generate", "adopt-random") and args.root == DEFAULT_ROOT and not is_checkout():
        return f"{DEFAULT_ROOT} is the installed package's copy; generate into a directory of your own with --root"
    if args.command == "list" and args.family is not None and args.family not in family_names():
        return f"no family {args.family!r} (the families are: {', '.join(family_names())})"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    refused = _refusal(args)
    if refused:
        print(f"iceberg-vectors: {refused}", file=sys.stderr)
        return 2
    recovered = golden.recover(args.root) if args.root.is_dir() else None
    if recovered:
        print(f"iceberg-vectors: {args.root}: {recovered}", file=sys.stderr)
    if args.command == "export":
        return _export(args)
    if args.command == "table":
        return _table(args, parser)
    if args.command == "changelog":
        return _changelog(args)
    if args.command == "adopt-random":
        return _adopt_random(args)
    names = args.sets or sorted(SETS)
    if args.command == "list":
        return _list([args.root / n for n in names], args.family)

    def render() -> dict[str, dict[str, bytes]]:
        rendered, seen = {}, set()
        for name in sorted(SETS):  # every set is rendered, so that ids stay unique across sets
            print(f"rendering the {name} vectors ({args.command})", file=sys.stderr)
            files = golden.render(name, _progress(args.quiet), seen)
            if name in names:
                rendered[name] = files
        return rendered

    whole = set(names) == set(SETS)
    if args.command == "generate":
        return _generate(args.root, render(), whole, render)
    return _check(args.root, render(), whole)


def _export(args: argparse.Namespace) -> int:
    from spec_impl.vectors.export import export

    try:
        print(export(args.directory, args.root, args.spec_gaps))
    except FileNotFoundError as e:
        print(f"iceberg-vectors: {e}", file=sys.stderr)
        return 2
    return 0


def _table(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from spec_impl.vectors import tables

    try:
        metadata_location, _ = tables.materialize(args.id, args.directory)
    except KeyError as e:
        parser.error(e.args[0])
    print(metadata_location)
    return 0


def _generate(
    root: Path, rendered: dict[str, dict[str, bytes]], whole: bool, render: Callable[[], dict[str, dict[str, bytes]]]
) -> int:
    golden.write_sets(root, rendered)
    for name, files in rendered.items():
        print(f"wrote {len(files)} files to {root / name}", file=sys.stderr)
    if whole:  # the rule index lists every set's cases, and the cases quote the rule index
        for path in rule_index.write(root):
            print(f"wrote {path}", file=sys.stderr)
        forget_rule_index()
        again = render()
        if again != rendered:  # a quote or row of the rule index changed: the cases cite the new one
            golden.write_sets(root, again)
            print("wrote the sets again: their cases cite the rule index just written", file=sys.stderr)
            rule_index.write(root)
        _requirement_index(root, write=True)
    return 0


def _check(root: Path, rendered: dict[str, dict[str, bytes]], whole: bool) -> int:
    """Exit status 1 when a golden file differs or, with every set checked, the rule index is
    stale or (in a checkout, where they are recorded) an engine's confirmations are older than its
    pin or missing (`engine_pins`)."""
    diffs = [f"{name}/{line}" for name, files in rendered.items() for line in golden.differences(root / name, files)]
    if whole:
        diffs += [f"{path.name}: differs (the rule index)" for path in rule_index.stale(rule_index.render(root))]
        diffs += _requirement_index(root, write=False)
    for line in diffs:
        print(line)
    stale = stale_confirmations() if whole and is_checkout() else []  # recorded in a checkout only
    for line in stale:
        print(line)
    if diffs:
        print(
            f"{len(diffs)} golden file(s) out of date: run `iceberg-vectors generate` and review the diff",
            file=sys.stderr,
        )
    else:
        print(f"ok: {sum(map(len, rendered.values()))} golden files match the generator", file=sys.stderr)
    if stale:
        print(f"{len(stale)} engine(s) with stale confirmations: record them again", file=sys.stderr)
    return 1 if diffs or stale else 0


def _requirement_index(root: Path, write: bool) -> list[str]:
    """Write the requirement index (after the rule index it reads), or the lines saying it is stale."""
    from spec_impl.requirements import index

    if write:
        for path in index.write(root):
            print(f"wrote {path}", file=sys.stderr)
        return []
    return [f"{path.name}: differs (the requirement index)" for path in index.stale(index.render(root))]


def _list(directories: list[Path], family: str | None) -> int:
    paths = sorted(p for d in directories for p in d.glob("*.json"))
    for path in paths:
        doc = json.loads(path.read_text(encoding="utf-8"))
        if "cases" not in doc or (family and doc["family"] != family):
            continue
        for c in doc["cases"]:
            exp = c["expected"]
            shown = f"error {exp['error']}" if "error" in exp else json.dumps(exp["output"], ensure_ascii=False)
            print(f"{c['id']}\t{c['op']}\t{shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
