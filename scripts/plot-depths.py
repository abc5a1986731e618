#!/usr/bin/env python3
"""Plots depth histograms (as scripts/depths.py writes them) into one PNG.

Usage: scripts/plot-depths.py OUT.png TSV...
Each TSV is named GAME-RULES-depths.tsv; the rule sets of one game share a panel.
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
    # One panel per game; its rule sets (GAME-RULES-depths.tsv) drawn over each other.
    games = {}
    for path in paths:
        label = os.path.basename(path).removesuffix("-depths.tsv")
        game, _, rules = label.rpartition("-")
        games.setdefault(game or label, []).append((rules, path))
    fig, axes = plt.subplots(len(games), 1, figsize=(10, 2.8 * len(games)), squeeze=False)
    styles = ["-", "--", ":", "-."]
    for ax, (game, runs) in zip(axes[:, 0], games.items()):
        titles = []
        for (rules, path), style in zip(runs, styles):
            wins, losses, draws = read(path)
            for counts, colour, kind in ((wins, "#2a7", "win"), (losses, "#c43", "loss")):
                depths = sorted(counts)
                ax.plot(depths, [counts[d] for d in depths], style, color=colour,
                        drawstyle="steps-mid", label=f"{rules}: {kind}")
            total = sum(wins.values()) + sum(losses.values()) + draws
            titles.append(f"{rules}: {total:,} positions, {100 * draws / total:.1f}% drawn, "
                          f"deepest {max(list(wins) + list(losses))}")
        ax.set_yscale("log")
        ax.set_title(f"{game} ({'; '.join(titles)})", fontsize=9)
        ax.set_ylabel("positions")
        ax.legend(fontsize=7, loc="upper right", ncol=2)
    axes[-1, 0].set_xlabel("depth: plies to the end under perfect play (odd: the side to move "
                           "wins, even: it loses)")
    fig.tight_layout()
    fig.savefig(out, dpi=80)


if __name__ == "__main__":
    main()
