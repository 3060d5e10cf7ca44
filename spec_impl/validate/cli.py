"""`iceberg-validate-table`: check a table's metadata tree on local disk against the spec.

    iceberg-validate-table /path/to/table/metadata/v3.metadata.json
    iceberg-validate-table file:/warehouse/db/t/metadata/00004-....metadata.json --json
    iceberg-validate-table t/metadata/v2.metadata.json --allow-outside /imports   # a table with imported files

Progress (the manifest lists and files read so far, at most a line a second) goes to stderr when it
is a terminal and --json is not given, or always with --progress; stdout is the same either way.

Every snapshot's manifest list and manifests are read and checked (`spec_impl.manifests.validate`),
then every snapshot against its parent (`spec_impl.validate.history`: the rules over consecutive
snapshots), then the statistics and partition statistics files the metadata registers
(`spec_impl.validate.statistics_files`), then the schema of every live Parquet data and delete file
against Appendix A (`spec_impl.datafiles`; --no-data-files skips it); each violation is printed with
its rule id and the file it was found in. A finding of a rule whose sentence is a should (strength
should in the rule index: parquet.type-mapping for Appendix A's type table, the history's
history.added-entry-snapshot, history.deleted-file-re-added, history.metadata-log-entry and
history.snapshot-log-entry, tree.position-delete-sort-order for a position delete file written with a
sort_order_id, ...) is a recommendation not followed: it is listed apart and does not
change the exit status (--json prints the violations only).

Files are read only under the table's location and the paths its properties write.data.path,
write.metadata.path and write.object-storage.path name, plus the metadata file given here and the
prefixes given with --allow-outside (repeatable). A manifest list or manifest the tree names
elsewhere ('../../etc/passwd', '/etc/hostname', 'file:///etc/hostname', a '..' or a symbolic link
leading out) is not read: it is reported under rule tree.file-location, a safety rule of this suite
(the spec lets a table track files anywhere; see spec_impl/manifests/locations.py).

Exit status:
  0  the tree has no violation
  1  it has violations (a file outside the table's location included; a file the tree names that
     is not there is rule tree.file-exists)
  2  bad arguments, or a file that cannot be read: the metadata file given is missing, a
     directory or unreadable, or a file of the tree is a directory or unreadable
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter

from spec_impl import revisions
from spec_impl.datafiles.table_files import validate_data_files
from spec_impl.errors import InvalidInput
from spec_impl.manifests.locations import ContainedFiles
from spec_impl.validate.history import validate_history
from spec_impl.manifests.tree import FileUnreadable, LocalFiles
from spec_impl.manifests.validate import validate_table
from spec_impl.validate.progress import Progress
from spec_impl.validate.statistics_files import validate_statistics
from spec_impl.rules import RULES, split_recommendations

EXIT_CLEAN, EXIT_VIOLATIONS, EXIT_CANNOT_READ = 0, 1, 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="iceberg-validate-table",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 2)[2] + "\nRule ids are listed with their spec sections in spec_impl/rules.py "
        "and the modules that register them.",
    )
    parser.add_argument("metadata", help="the table's metadata file: a local path or a file: URI")
    parser.add_argument("--json", action="store_true", help="print the violations as a JSON list")
    parser.add_argument(
        "--revision", choices=revisions.ALL, default=revisions.DEFAULT, help="spec revision (default: %(default)s)"
    )
    parser.add_argument(
        "--allow-outside",
        action="append",
        default=[],
        metavar="PREFIX",
        help="also read files under PREFIX (a path or file: URI; repeatable), for tables with imported files",
    )
    parser.add_argument(
        "--progress",
        action="store_true",
        help="report progress on stderr even when it is not a terminal, or with --json",
    )
    parser.add_argument(
        "--no-data-files",
        action="store_true",
        help="do not read the data and delete files (Appendix A checks; the history's rows and DV positions)",
    )
    args = parser.parse_args(argv)
    progress = Progress.for_terminal(parser.prog, forced=args.progress, quiet=args.json)
    try:
        files = ContainedFiles.for_table(LocalFiles(), args.metadata, args.allow_outside)
    except InvalidInput as e:  # tree.file-exists from LocalFiles: the file given is not there
        print(
            f"iceberg-validate-table: cannot read the metadata file {args.metadata!r}: no such file ({e})",
            file=sys.stderr,
        )
        return EXIT_CANNOT_READ
    except FileUnreadable as e:
        print(f"iceberg-validate-table: cannot read the metadata file: {e}", file=sys.stderr)
        return EXIT_CANNOT_READ
    try:
        counted = progress.counting(files, args.metadata)  # no file is kept: each pass reads what it needs
        progress.say(f"reading the tree of {args.metadata}")
        found = validate_table(counted, args.metadata, args.revision)
        progress.say("history: every snapshot against its parent")
        found += validate_history(counted, args.metadata, args.revision, data_files=not args.no_data_files)
        progress.say("statistics: the files the metadata registers")
        found += validate_statistics(counted, args.metadata, args.revision)
        if not args.no_data_files:
            progress.say("data and delete files: their schemas against Appendix A")
            found += sum(validate_data_files(counted, args.metadata, args.revision), [])
        violations, recommendations = split_recommendations(found)
        progress.say(f"done: {len(violations)} violation(s)")
    except FileUnreadable as e:
        print(f"iceberg-validate-table: {e} (a file the tree of {args.metadata} names)", file=sys.stderr)
        return EXIT_CANNOT_READ
    if args.json:
        print(json.dumps([v.to_json() for v in violations], indent=2))
        return EXIT_VIOLATIONS if violations else EXIT_CLEAN
    _print_recommendations(recommendations)
    if not violations:
        print(f"ok: no violation in the tree of {args.metadata}")
    else:
        for v in violations:
            print(f"[{v.rule}] {v.path}\n    {v.message}")
        counts = Counter(v.rule for v in violations)
        print(f"\n{len(violations)} violation(s):")
        for rule_id, n in counts.most_common():
            section = RULES[rule_id].section if rule_id in RULES else "?"
            print(f"  {n:4d}  {rule_id}  ({section})")
    return EXIT_VIOLATIONS if violations else EXIT_CLEAN


def _print_recommendations(found: list) -> None:
    """Findings of a should (not violations): printed apart, before the verdict."""
    if found:
        print(f"{len(found)} recommendation(s) of the spec not followed (a should, not a violation):")
        for v in found:
            print(f"[{v.rule}] {v.path}\n    {v.message}")
        print()


if __name__ == "__main__":
    sys.exit(main())
