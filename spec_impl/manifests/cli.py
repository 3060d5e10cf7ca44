"""`iceberg-validate-table`: check a table's metadata tree on local disk against the spec.

    iceberg-validate-table /path/to/table/metadata/v3.metadata.json
    iceberg-validate-table file:/warehouse/db/t/metadata/00004-....metadata.json --json

Every snapshot's manifest list and manifests are read and checked (`spec_impl.manifests.validate`);
each violation is printed with its rule id and the file it was found in. Exit status: 0 when the
tree has no violation, 1 when it has some, 2 when the arguments are wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter

from spec_impl import revisions
from spec_impl.manifests.tree import LocalFiles
from spec_impl.manifests.validate import validate_table
from spec_impl.rules import RULES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="iceberg-validate-table", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="Rule ids are listed with their spec sections in spec_impl/rules.py and the modules that register them.")  # fmt: skip
    parser.add_argument("metadata", help="the table's metadata file: a local path or a file: URI")
    parser.add_argument("--json", action="store_true", help="print the violations as a JSON list")
    parser.add_argument("--revision", choices=revisions.ALL, default=revisions.DEFAULT, help="spec revision (default: %(default)s)")
    args = parser.parse_args(argv)
    violations = validate_table(LocalFiles(), args.metadata, args.revision)
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
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
