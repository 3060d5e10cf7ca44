"""`iceberg-audit METADATA [--snapshot ID | --ref NAME] [--json FILE] [--html FILE] [--master URL]
[--progress] [--allow-outside PREFIX]...`

Exit status: 0 when the snapshot breaks no rule, 1 when it does (or a file could not be checked),
2 on bad input (a metadata file, manifest list or argument that cannot be read: missing, a
directory, unreadable; the message names it). The summary goes to stdout; progress goes to stderr
when it is a terminal and --json is not given, or always with --progress (`spec_impl.validate.progress`).

Files are read only under the table's location and the paths its properties write.data.path,
write.metadata.path and write.object-storage.path name, plus the metadata file given and the
prefixes given with --allow-outside (repeatable; tables with imported files need it). Any other
path the metadata, manifest list, a manifest, a position delete row or a DV's referenced_data_file
names ('../../etc/passwd', '/etc/hostname', 'file:///etc/hostname', a '..' or a symbolic link
leading out) is never read: it is a violation of rule tree.file-location (a safety rule of this
suite, `spec_impl.manifests.locations`), exit 1.

Under `spark-submit` (when PySpark's gateway is already running) the submitted session and its
master are used; otherwise a session is started with `conformance.engines.iceberg_java.spark`
(`--master`, default `local[*]`).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from spec_impl.errors import SpecError
from spec_impl.manifests.locations import FILE_LOCATION, ContainedFiles
from spec_impl.manifests.tree import FileUnreadable, LocalFiles
from spec_impl.validate.progress import Progress

from . import job, plan, report

EXIT_CLEAN, EXIT_VIOLATIONS, EXIT_BAD_INPUT = 0, 1, 2


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="iceberg-audit",
        description="Check what a table's metadata claims about its data (metrics, "
        "partition tuples, record counts, sizes, summaries, position deletes, DVs) as a Spark job.",
    )
    p.add_argument("metadata", help="the table metadata file (a path or a file: URI)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--snapshot", type=int, metavar="ID", help="the snapshot to audit (default: the current one)")
    which.add_argument("--ref", metavar="NAME", help="the branch or tag whose snapshot to audit")
    p.add_argument("--json", type=Path, metavar="FILE", help="write the report as JSON")
    p.add_argument("--html", type=Path, metavar="FILE", help="write the report as a standalone HTML page")
    p.add_argument("--master", default=None, help="Spark master URL (default local[*]; under spark-submit, its master)")
    p.add_argument(
        "--progress",
        action="store_true",
        help="report progress on stderr even when it is not a terminal, or with --json",
    )
    p.add_argument(
        "--allow-outside",
        action="append",
        default=[],
        metavar="PREFIX",
        help="also read files under PREFIX (a path or file: URI; repeatable), for tables with imported files",
    )
    return p


progress = Progress("iceberg-audit", enabled=True)  # audit()'s default: every line (main() asks the terminal)


def spark_session(master: str | None) -> Any:
    """The process's running session or the submitted one under spark-submit (when no master is
    asked for), else a session of the project's own."""
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # executors import this package
    from pyspark.sql import SparkSession

    if master is None and (active := SparkSession.getActiveSession()) is not None:
        return active
    if "PYSPARK_GATEWAY_PORT" in os.environ and master is None:
        return SparkSession.builder.appName("iceberg-audit").getOrCreate()
    from conformance.engines.iceberg_java.spark import local_spark_session

    warehouse = Path(tempfile.gettempdir()) / "iceberg-audit-warehouse"
    return local_spark_session(warehouse, app_name="iceberg-audit", master=master or "local[*]")


def audit(
    metadata: str,
    snapshot: int | None = None,
    ref: str | None = None,
    *,
    spark: Any = None,
    master: str | None = None,
    report_progress=progress,
    allow_outside: tuple[str, ...] | list[str] = (),
) -> job.AuditResult:
    """Plan and run the audit; SpecError on bad input or on a manifest list outside the table's
    location (tree.file-location), FileUnreadable on a file that cannot be read (raised before Spark starts)."""
    location = metadata if metadata.startswith("file:") else os.path.abspath(metadata)
    report_progress(f"reading {location}")
    files = ContainedFiles.for_table(LocalFiles(), location, tuple(allow_outside))
    planned = plan.plan(files, location, snapshot, ref)
    if planned is None:
        report_progress("the table has no snapshot: nothing to audit")
        return job.AuditResult(None)
    report_progress(f"snapshot {planned.context.snapshot_id}: {len(planned.manifest_rows)} manifests")
    spark = spark or spark_session(master)
    result = job.run(spark, planned, report_progress)
    report_progress("history: every snapshot against its parent")
    counted = report_progress.counting(files, location) if isinstance(report_progress, Progress) else files
    job.add_history(result, counted, location)
    report_progress("statistics: the files the metadata registers")
    job.add_statistics(result, files, location)
    report_progress(
        f"done: {result.files} files, {result.rows} rows in {result.seconds:.1f} s, {len(result.violations)} violations"
    )
    return result


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        shown = Progress.for_terminal("iceberg-audit", forced=args.progress, quiet=args.json is not None)
        result = audit(
            args.metadata,
            args.snapshot,
            args.ref,
            master=args.master,
            report_progress=shown,
            allow_outside=args.allow_outside,
        )
    except SpecError as e:
        print(f"iceberg-audit: cannot audit {args.metadata}: {e}", file=sys.stderr)
        return EXIT_VIOLATIONS if e.rule == FILE_LOCATION else EXIT_BAD_INPUT
    except FileUnreadable as e:
        print(f"iceberg-audit: cannot audit {args.metadata}: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    location = args.metadata
    print("\n".join(report.text_lines(result, location)))
    doc = report.to_json(result, location)
    try:
        if args.json:
            args.json.write_text(report.dump_json(doc))
        if args.html:
            args.html.write_text(report.to_html(doc))
    except OSError as e:
        print(f"iceberg-audit: cannot write the report: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return EXIT_VIOLATIONS if result.violations or result.errors else EXIT_CLEAN


if __name__ == "__main__":
    sys.exit(main())
