"""Deletes: Puffin files, deletion vectors and delete scoping in scan planning.

- `puffin`: the Puffin file format (Puffin spec), read with every reader check and written
  deterministically.
- `deletion_vectors`: the `deletion-vector-v1` blob and its manifest entry (adopted v3 §1.5, §1.6).
- `scoping`: which delete files apply to which data files ("Scan Planning"; adopted §2).
- `position_files`: the rows of a position delete file, sorted and inside their target.
- `row_column`: the optional row column of a position delete file (required, the table's field ids).
- `apply`: removing the deleted rows of one data file (position, DV and equality deletes).

Importing the package registers the rules of all its modules.
"""

from spec_impl.deletes import (  # noqa: F401  (registers their rules)
    apply,
    deletion_vectors,
    position_files,
    puffin,
    row_column,
    scoping,
)
