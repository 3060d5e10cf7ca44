"""`iceberg-validate-table`: check a table's metadata tree on local disk against the spec.

    iceberg-validate-table /path/to/table/metadata/v3.metadata.json
    iceberg-validate-table file:/warehouse/db/t/metadata/00004-....metadata.json --json
    iceberg-validate-table t/metadata/v2.metadata.json --allow-outside /imports   # a table with imported files

Every snapshot's manifest list and manifests are read and checked (`spec_impl.manifests.validate`),
then every snapshot against its parent (`spec_impl.manifests.history`: the rules over consecutive
snapshots), then the statistics and partition statistics files the metadata registers
(`spec_impl.metadata.statistics_files`); each violation is printed with its rule id and the file it
was found in.

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
from spec_impl.errors import InvalidInput, SpecError
from spec_impl.manifests.locations import ContainedFiles
from spec_impl.manifests.history import validate_history
from spec_impl.manifests.tree import FileSource, FileUnreadable, LocalFiles
from spec_impl.manifests.validate import validate_table
from spec_impl.metadata.statistics_files import validate_statistics
from spec_impl.rules import RULES

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
    args = parser.parse_args(argv)
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
        once = ReadOnce(files)
        violations = validate_table(once, args.metadata, args.revision)
        violations += validate_history(once, args.metadata, args.revision)
        violations += validate_statistics(once, args.metadata, args.revision)
    except FileUnreadable as e:
        print(f"iceberg-validate-table: {e} (a file the tree of {args.metadata} names)", file=sys.stderr)
        return EXIT_CANNOT_READ
    if args.json:
        print(json.dumps([v.to_json() for v in violations], indent=2))
    elif not violations:
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


class ReadOnce:
    """A file source that opens each file once: the tree validator and the history pass read the
    same manifest lists and manifests. A file's rule violation (tree.file-exists,
    tree.file-location) is remembered as well and raised again."""

    def __init__(self, files: FileSource):
        self.files = files
        self._read: dict[str, bytes | SpecError] = {}

    def read(self, path: str) -> bytes:
        if path not in self._read:
            try:
                self._read[path] = self.files.read(path)
            except SpecError as e:
                self._read[path] = e
        found = self._read[path]
        if isinstance(found, SpecError):
            raise found
        return found


if __name__ == "__main__":
    sys.exit(main())
