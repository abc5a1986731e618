#!/usr/bin/env python3
"""Plots depth histograms (as scripts/depths.py writes them) into one PNG.

Usage: scripts/plot-depths.py OUT.png TSV... (each TSV one game; its file name is the label)
Needs matplotlib (pip install matplotlib).
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    wins, losses, draws = {}, {}, 0
    with open(path) as f:
        for line in f:
            if line.startswith("#") or line.startswith("depth"):
                continue
            depth, value, n = line.split("\t")
            if value == "draw":
                draws = int(n)
            elif value == "win":
                wins[int(depth)] = int(n)
            else:
                losses[int(depth)] = int(n)
    return wins, losses, draws


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out, paths = sys.argv[1], sys.argv[2:]
    fig, axes = plt.subplots(len(paths), 1, figsize=(10, 2.6 * len(paths)), squeeze=False)
    for ax, path in zip(axes[:, 0], paths):
        wins, losses, draws = read(path)
        label = os.path.basename(path).removesuffix("-depths.tsv")
        ax.bar(list(wins), list(wins.values()), width=1.0, color="#2a7", label="win (odd depth)")
        ax.bar(list(losses), list(losses.values()), width=1.0, color="#c43",
               label="loss (even depth)")
        ax.set_yscale("log")
        total = sum(wins.values()) + sum(losses.values()) + draws
        ax.set_title(f"{label}: {total:,} canonical positions, {draws:,} draws "
                     f"({100 * draws / total:.1f}%)", fontsize=10)
        ax.set_ylabel("positions")
        ax.legend(fontsize=8, loc="upper right")
    axes[-1, 0].set_xlabel("depth (plies to the end under perfect play)")
    fig.tight_layout()
    fig.savefig(out, dpi=90)


if __name__ == "__main__":
    main()
