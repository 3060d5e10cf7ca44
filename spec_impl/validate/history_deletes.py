"""History rules on deletion vectors (adopted v3 digest §1.5, §3): a new DV merges the deletes its
data file already had, a position-delete file covering several data files stays until all its
deletes are replaced, and the snapshot summary's delete file counts agree with the manifests.

The positions of a DV and of a position-delete file are read from the files when the file source
of the `history.Pair` has them (the vectors carry the delete files the rules read); a delete file
that cannot be read is left to the other validators, and only the metadata part is checked.
"""

from __future__ import annotations

from collections.abc import Iterator

from spec_impl import revisions
from spec_impl.deletes.apply import FILE_PATH_ID, position_deletes
from spec_impl.deletes.deletion_vectors import deleted_positions
from spec_impl.errors import SpecError
from spec_impl.manifests.inheritance import DATA
from spec_impl.manifests.validate import Violation
from spec_impl.rules import Rule, implements, register
from spec_impl.scan.data_files import read_data_file
from spec_impl.validate.history_pairs import FileEntry, Pair

_DV = "adopted 1.5 Deletion vectors"
POSITION_DELETES = 1
DV_MERGED = "history.dv-merged"
POSITION_FILE_KEPT = "history.position-file-kept"
SUMMARY_COUNTS = "history.summary-delete-counts"
DV_FILE_SIZE = "history.dv-file-size"
_V3 = ((3,), revisions.ADOPTED)
register(
    Rule(
        DV_MERGED,
        _DV,
        "A DV a v3 snapshot adds for a data file replaces the parent's DV of that file (no longer live) and holds "
        "every position the parent's DV and position-delete files deleted in it",
        *_V3,
    ),
    Rule(
        POSITION_FILE_KEPT,
        _DV,
        "A position-delete file a v3 snapshot removes has all its deletes replaced: each data file it covers that "
        "is still live has a DV new in the snapshot",
        *_V3,
    ),
    Rule(
        DV_FILE_SIZE,
        "Manifests: data_file fields (104 file_size_in_bytes)",
        "A DV a v3 snapshot adds has the Puffin file's path and size: file_size_in_bytes is the length of the whole "
        "Puffin file, not of its blob",
        *_V3,
    ),
    Rule(
        SUMMARY_COUNTS,
        "adopted 3 Appendix F summary metrics",
        "The summary's added-dvs, removed-dvs, added-delete-files, removed-delete-files and total-delete-files, "
        "when present, count the DVs and delete files (DVs included) the snapshot added, removed and has live",
        *_V3,
    ),
)


def _positions(pair: Pair, e: FileEntry, data_file: str) -> set[int] | None:
    """The positions a DV or position-delete file deletes in `data_file`; None when it cannot be read."""
    if pair.files is None:
        return None
    try:
        data = pair.files.read(e.data_file["file_path"])
        if e.is_dv:
            return set(deleted_positions(data, e.data_file))
        _, rows = read_data_file(data, e.file_format, e.data_file["file_path"])
        return position_deletes(rows, data_file, e.key)
    except SpecError:
        return None


def _covered(pair: Pair, e: FileEntry) -> set[str] | None:
    """The data files a position-delete file names; None when it cannot be read."""
    if e.referenced_data_file is not None:
        return {e.referenced_data_file}
    if pair.files is None:
        return None
    try:
        _, rows = read_data_file(pair.files.read(e.data_file["file_path"]), e.file_format, e.key)
    except SpecError:
        return None
    return {r.get(FILE_PATH_ID) for r in rows}


def _new_dvs(pair: Pair) -> dict[str, FileEntry]:
    """The DVs live in the child and not in the parent, by the data file they reference."""
    return {e.referenced_data_file: e for e in pair.added if e.is_dv and e.referenced_data_file is not None}


@implements(DV_MERGED)
def dvs_merged(pair: Pair) -> Iterator[Violation]:
    """history.dv-merged. "Writers merge new deletes with the old DV or position-delete files."
    "They must be merged into a new DV for the file they cover." (adopted v3 digest §1.5)"""
    if pair.child.format_version < 3:
        return
    for target, dv in _new_dvs(pair).items():
        data = pair.parent.live.get(target)
        if data is None or data.content != DATA:
            continue
        new_positions = None
        for old in pair.parent.live.values():
            if old.content != POSITION_DELETES or old.referenced_data_file not in (target, None):
                continue
            if old.is_dv and old.key in pair.child.live:
                yield pair.violation(DV_MERGED, f"{target} has the new DV {dv.key} and its old DV {old.key} live")
            if not old.is_dv and old.sequence_number < data.sequence_number:
                continue  # older than the data file: it does not apply
            old_positions = _positions(pair, old, target)
            if not old_positions:
                continue
            if new_positions is None:
                new_positions = _positions(pair, dv, target)
            if new_positions is None:
                break  # the new DV cannot be read: only the metadata part is checked
            missing = sorted(old_positions - new_positions)
            if missing:
                yield pair.violation(
                    DV_MERGED,
                    f"the new DV {dv.key} of {target} lacks positions {missing[:10]} of {old.key}",
                    dv.manifest,
                )


@implements(POSITION_FILE_KEPT)
def position_files_kept(pair: Pair) -> Iterator[Violation]:
    """history.position-file-kept. "A file that covers several data files stays until all of its
    deletes have been replaced." (adopted v3 digest §1.5): replaced by a new DV, or gone with the
    data file."""
    if pair.child.format_version < 3:
        return
    new_dvs = _new_dvs(pair)
    for e in pair.removed:
        if e.content != POSITION_DELETES or e.is_dv:
            continue
        covered = _covered(pair, e)
        left = sorted(f for f in covered or () if f in pair.child.live and f not in new_dvs)
        if left:
            yield pair.violation(
                POSITION_FILE_KEPT, f"the position-delete file {e.key} was removed, its deletes of {left} not replaced"
            )


@implements(DV_FILE_SIZE)
def dv_file_sizes(pair: Pair) -> Iterator[Violation]:
    """history.dv-file-size. "| `file_path`, `file_size_in_bytes` | 100, 104 | the Puffin file |"
    (adopted v3 digest §1.5, the data_file fields of a DV): checked for the DVs each snapshot adds,
    when the Puffin file can be read."""
    if pair.child.format_version < 3 or pair.files is None:
        return
    for e in pair.added:
        if not e.is_dv:
            continue
        try:
            length = len(pair.files.read(e.data_file["file_path"]))
        except SpecError:
            continue
        if e.data_file.get("file_size_in_bytes") != length:
            yield pair.violation(
                DV_FILE_SIZE,
                f"the DV {e.key} has file_size_in_bytes {e.data_file.get('file_size_in_bytes')}, "
                f"the Puffin file has {length} bytes",
                e.manifest,
            )


def _delete_counts(pair: Pair) -> dict[str, int]:
    """The summary's delete file counts as the manifests give them."""

    def count(entries, dvs: bool = False) -> int:
        return sum(1 for e in entries if e.content != DATA and (e.is_dv or not dvs))

    live = pair.child.live.values()
    return {
        "added-dvs": count(pair.added, True),
        "removed-dvs": count(pair.removed, True),
        "added-delete-files": count(pair.added),
        "removed-delete-files": count(pair.removed),
        "total-delete-files": count(live),
    }


@implements(SUMMARY_COUNTS)
def summary_delete_counts(pair: Pair) -> Iterator[Violation]:
    """history.summary-delete-counts. "Optional summary metrics `added-dvs` and `removed-dvs`; the
    `*-delete-files` counts include DVs." (adopted v3 digest §3, Appendix F)"""
    if pair.child.format_version < 3:
        return
    summary = dict(pair.child.snapshot.summary or ())
    for key, found in _delete_counts(pair).items():
        said = summary.get(key)
        if said is not None and str(said) != str(found):
            yield pair.violation(SUMMARY_COUNTS, f"the summary's {key} is {said}, the manifests give {found}")


CHECKS = (
    (DV_MERGED, dvs_merged),
    (POSITION_FILE_KEPT, position_files_kept),
    (DV_FILE_SIZE, dv_file_sizes),
    (SUMMARY_COUNTS, summary_delete_counts),
)
