"""`icebird`: `conformance/examples/icebird_engine/engine.mjs`, Iceberg tables read with the
`icebird` npm package (a JavaScript implementation of its own). Its npm packages are pinned by the
folder's package-lock.json and installed by `make conformance`
(`npm ci --prefix conformance/examples/icebird_engine --ignore-scripts`).
"""

from __future__ import annotations

from conformance.engines.node_programs import NodeProgramEngine


class IcebirdEngine(NodeProgramEngine):
    """Iceberg tables read by the `icebird` npm package (JavaScript), through the line protocol."""

    name = "icebird"
    folder = "icebird_engine"
    package = "icebird"
    data_file_formats = frozenset({"parquet"})
    format_limit = (
        "icebird reads every data file as Parquet whatever its file_format ('parquet file invalid (footer != PAR1)')"
    )
