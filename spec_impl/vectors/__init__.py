"""Golden value vectors: generated from the reference, language-neutral JSON (see vectors/README.md).

`families` holds the case specs of each rule family, `cases` turns them into cases with the
reference's expectations, `golden` writes and checks the files, `cli` is `iceberg-vectors`.
"""
