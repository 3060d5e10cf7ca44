"""Reproduce the Appendix table of the Iceberg v4 "Single File Commits" proposal.

The table gives the size in bytes (and bytes per delete) of a delete vector
holding ``density * scale`` distinct random positions out of ``scale``, for
four encodings.  For every cell this script draws the positions with several
fixed seeds, measures each encoding, and compares the median with the
published number.  Encodings (see benchmarks/README.md for why these):

* Raw bitset -- bit ``p`` set for each position, bytes up to the highest set bit;
* Roaring    -- portable serialization of a 32-bit roaring bitmap (pyroaring);
* LZ4        -- the raw bitset compressed as one LZ4 *frame* (lz4.frame, no
                content size, no checksums, default linked 64 KiB blocks);
* ZSTD-3     -- the raw bitset compressed at level 3 through zstd's *streaming*
                API (size not known in advance, so default level-3 parameters).

Writes benchmarks/results/v4_bitvector_sizes.json and .png.

Run:  python benchmarks/v4_bitvector_sizes.py [--seeds 5] [--no-plot]
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

import lz4.frame
import numpy as np
import pyroaring
import zstandard

DENSITIES = (0.01, 0.05, 0.1, 0.2)
SCALES = (1_000, 10_000, 100_000, 1_000_000)

# Appendix table, bytes; rows are densities, columns scales (as above).
PUBLISHED = {
    "LZ4": [[57, 383, 3545, 32713], [98, 920, 8480, 75451], [130, 1155, 10600, 108987], [135, 1264, 12541, 125493]],
    "Roaring Bitmap": [
        [36, 216, 2024, 20136],
        [116, 1016, 10024, 100136],
        [216, 2016, 15340, 126440],
        [416, 4016, 16408, 129918],
    ],
    "ZSTD-3": [[46, 224, 1826, 17690], [93, 533, 4727, 46987], [97, 715, 6599, 67170], [129, 981, 9227, 91923]],
    "Raw Bitset": [
        [123, 1247, 12485, 124980],
        [123, 1247, 12494, 124985],
        [123, 1247, 12500, 125000],
        [125, 1250, 12500, 125000],
    ],
}

RESULTS = Path(__file__).resolve().parent / "results"


def positions(scale: int, density: float, seed: int) -> np.ndarray:
    """``density * scale`` distinct positions drawn uniformly from [0, scale)."""
    rng = np.random.default_rng(seed)
    return np.sort(rng.choice(scale, round(density * scale), replace=False))


def raw_bitset(pos: np.ndarray) -> bytes:
    """Dense bitset, LSB-first within a byte, up to the byte of the highest bit."""
    bits = np.zeros(int(pos[-1]) + 1, dtype=bool)
    bits[pos] = True
    return np.packbits(bits, bitorder="little").tobytes()


def size_raw(pos: np.ndarray) -> int:
    return len(raw_bitset(pos))


def size_roaring(pos: np.ndarray) -> int:
    # No run_optimize(): random positions have no runs (checked: same size).
    return len(pyroaring.BitMap(pos.tolist()).serialize())


def size_lz4(pos: np.ndarray) -> int:
    return len(lz4.frame.compress(raw_bitset(pos), store_size=False))


def size_zstd3(pos: np.ndarray) -> int:
    compressor = zstandard.ZstdCompressor(level=3).compressobj()
    return len(compressor.compress(raw_bitset(pos)) + compressor.flush())


METHODS = {"LZ4": size_lz4, "Roaring Bitmap": size_roaring, "ZSTD-3": size_zstd3, "Raw Bitset": size_raw}


def measure(seeds: list[int]) -> list[dict]:
    cells = []
    for method, size in METHODS.items():
        for i, density in enumerate(DENSITIES):
            for j, scale in enumerate(SCALES):
                sizes = [size(positions(scale, density, s)) for s in seeds]
                published = PUBLISHED[method][i][j]
                median = statistics.median(sizes)
                deletes = round(density * scale)
                cells.append(
                    {
                        "method": method,
                        "density": density,
                        "scale": scale,
                        "deletes": deletes,
                        "published": published,
                        "sizes": sizes,
                        "median": median,
                        "min": min(sizes),
                        "max": max(sizes),
                        "published_per_delete": published / deletes,
                        "median_per_delete": median / deletes,
                        "rel_diff_pct": 100 * (median - published) / published,
                        "published_in_seed_range": min(sizes) <= published <= max(sizes),
                    }
                )
    return cells


def print_table(cells: list[dict]) -> None:
    print(f"{'method':15} {'dens':>5} {'scale':>9} {'published':>10} {'median':>9} {'min..max':>17} {'diff %':>7}")
    for c in cells:
        spread = f"{c['min']}..{c['max']}"
        flag = "" if c["published_in_seed_range"] else "  (outside seed range)"
        print(
            f"{c['method']:15} {c['density']:>5} {c['scale']:>9,} "
            f"{c['published']:>10,} {c['median']:>9,.0f} {spread:>17} "
            f"{c['rel_diff_pct']:>+7.1f}{flag}"
        )


def plot(cells: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FormatStrFormatter

    fig, axes = plt.subplots(2, 2, figsize=(11, 8), sharex=True)
    for ax, method in zip(axes.flat, METHODS):
        for k, density in enumerate(DENSITIES):
            rows = [c for c in cells if c["method"] == method and c["density"] == density]
            x = [c["scale"] for c in rows]
            y = [c["median_per_delete"] for c in rows]
            err = [
                [c["median_per_delete"] - c["min"] / c["deletes"] for c in rows],
                [c["max"] / c["deletes"] - c["median_per_delete"] for c in rows],
            ]
            color = f"C{k}"
            ax.plot(
                x, [c["published_per_delete"] for c in rows], "o-", color=color, label=f"published, density {density}"
            )
            ax.errorbar(x, y, yerr=err, fmt="x--", color=color, capsize=3, label=f"reproduced, density {density}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
        ax.yaxis.set_minor_formatter(FormatStrFormatter("%g"))
        ax.set_title(method)
        ax.set_xlabel("scale (bit positions)")
        ax.set_ylabel("bytes / delete")
        ax.grid(True, which="both", alpha=0.3)
    axes.flat[0].legend(fontsize=7, ncol=2)
    fig.suptitle("v4 proposal appendix: published (solid) vs reproduced (dashed, median, bars = seed min..max)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=5, help="number of seeds per cell (default 5)")
    parser.add_argument("--first-seed", type=int, default=0, help="seeds are first-seed .. first-seed+seeds-1")
    parser.add_argument("--json", type=Path, default=RESULTS / "v4_bitvector_sizes.json")
    parser.add_argument("--png", type=Path, default=RESULTS / "v4_bitvector_sizes.png")
    parser.add_argument("--no-plot", action="store_true", help="skip the PNG (no matplotlib needed)")
    args = parser.parse_args()

    seeds = list(range(args.first_seed, args.first_seed + args.seeds))
    cells = measure(seeds)
    print_table(cells)
    worst = max(cells, key=lambda c: abs(c["rel_diff_pct"]))
    print(
        f"worst cell: {worst['method']} density {worst['density']} scale "
        f"{worst['scale']:,}: {worst['rel_diff_pct']:+.1f}%"
    )

    args.json.parent.mkdir(parents=True, exist_ok=True)
    meta = {
        "seeds": seeds,
        "numpy": np.__version__,
        "pyroaring": pyroaring.__version__,
        "lz4": lz4.library_version_string(),
        "zstd": zstandard.ZSTD_VERSION,
    }
    args.json.write_text(json.dumps({"meta": meta, "cells": cells}, indent=1) + "\n")
    print(f"wrote {args.json}")
    if not args.no_plot:
        plot(cells, args.png)
        print(f"wrote {args.png}")


if __name__ == "__main__":
    main()
