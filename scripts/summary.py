#!/usr/bin/env python3
"""The figures of a published game's section in docs/results.md, from its files in data/results.

Usage: scripts/summary.py data/results/GAME-RULES

Reads GAME-RULES.json (`stats --json`: required), and where they are there GAME-RULES-start.json
(`query --json start`), GAME-RULES-depths.tsv (the depth histogram), GAME-RULES-tables.json (the
tables' manifest) and the solve's log (GAME-RULES-compact-solve.log, else GAME-RULES-solve.log).
Prints Markdown: the counts, a table by phase (positions, drawn share, deepest value and the
sectors holding it), the start and its first moves, the deepest positions of the whole game, the
sizes, and from the log the units solved, their summed times and the folder's peak size. Only
Python's standard library is needed. A sector is of the moving phase when both hands are empty;
the others are placement (under Lasker's phases, where a side with pieces in hand places or
moves: "pieces in hand").
"""
import json
import os
import re
import sys

SOLVED = re.compile(r"solved (.+?) \((\d+) slots\) in ([0-9.]+)(ns|µs|us|ms|s):")
TURNED = re.compile(r"turned (\S+)(?: \(\d+ slots\))? into tables in ([0-9.]+)(ns|µs|us|ms|s):")
PAUSED = re.compile(r"^# paused ([0-9.]+) s")
FOLDER = re.compile(r"; folder ([0-9.]+) (MB|GB)$")
SCALE = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def value(depth):
    """A depth as the value it is for the side to move: odd wins, even loses."""
    return f"{'win' if depth % 2 else 'loss'} in {depth}"


def phase_table(stats, lasker):
    hands = "pieces in hand" if lasker else "placement"
    rows = {}
    for s in stats["sectors"]:
        w, b, wf, bf = map(int, s["sector"].split("-"))
        phase = "moving (both hands empty)" if wf == 0 and bf == 0 else hands
        rows.setdefault(phase, []).append(s)
    out = ["| phase | sectors | canonical positions | drawn | deepest |", "|---|---:|---:|---:|---|"]
    for phase in ("moving (both hands empty)", hands):
        sectors = rows.get(phase, [])
        if not sectors:
            continue
        positions = sum(s["positions"] for s in sectors)
        drawn = sum(s["draw"] for s in sectors) / positions if positions else 0.0
        deepest = max(s["max_depth"] for s in sectors)
        where = ", ".join(s["sector"] for s in sectors if s["max_depth"] == deepest)
        out.append(f"| {phase} | {len(sectors)} | {positions:,} | {100 * drawn:.1f}% | "
                   f"{value(deepest)} ({where}) |")
    return out


def describe(v, depth):
    return v if depth is None else f"{v} in {depth}"


def start_lines(start):
    out = [f"The empty board: {describe(start['value'], start['depth'])}."]
    by_value = {}
    for m in start["moves"]:
        by_value.setdefault(describe(m["value"], m["depth"]), []).append(m["move"])
    for v, moves in sorted(by_value.items(), key=lambda kv: -len(kv[1])):
        out.append(f"First moves: {len(moves)} of {len(start['moves'])} {v} ({' '.join(moves)}).")
    return out


def depth_lines(path):
    wins, losses, draws = {}, {}, 0
    with open(path) as f:
        for line in f:
            if line.startswith("#") or line.startswith("depth"):
                continue
            d, v, n = line.rstrip("\n").split("\t")
            if v == "draw":
                draws = int(n)
            else:
                (wins if v == "win" else losses)[int(d)] = int(n)
    out = []
    for name, counts in (("lost", losses), ("won", wins)):
        if counts:
            d = max(counts)
            out.append(f"Deepest {name}: {counts[d]:,} position{'s' * (counts[d] != 1)} in {d} plies.")
    total = sum(wins.values()) + sum(losses.values()) + draws
    out.append(f"Drawn: {draws:,} of {total:,} positions ({100 * draws / total:.1f}%).")
    return out


def log_lines(path):
    units, turned, pause, sittings = {}, {}, 0.0, 0
    peak, model = None, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            m = PAUSED.match(line)
            if m:
                pause += float(m.group(1))
                continue
            if line.startswith("# model name") or line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
            if line.startswith("#"):
                sittings += "a sitting starts" in line
                continue
            m = FOLDER.search(line)
            if m:
                size = float(m.group(1)) * (1e9 if m.group(2) == "GB" else 1e6)
                peak = size if peak is None else max(peak, size)
            m = SOLVED.match(line)
            if m:
                units[m.group(1)] = float(m.group(3)) * SCALE[m.group(4)]
                continue
            m = TURNED.match(line)
            if m:
                turned[m.group(1)] = float(m.group(2)) * SCALE[m.group(3)]
    solving, turning = sum(units.values()), sum(turned.values())
    out = [f"Log {os.path.basename(path)}: {len(units)} units solved in {solving / 3600:.2f} h of unit time"
           + (f", {len(turned)} sectors turned into tables in {turning / 3600:.2f} h" if turned else "")
           + (f", {pause:.0f} s of pauses logged (within those times)" if pause else "")
           + (f", {sittings} sittings" if sittings else "") + "."]
    if model:
        out.append(f"CPU: {model}.")
    if peak is not None:
        out.append(f"Peak folder size logged: {peak / 1e9:.2f} GB (sampled after each unit and "
                   "each turned sector, from the sittings whose lines give it).")
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip())
    name = sys.argv[1]
    if not os.path.exists(name + ".json"):
        sys.exit(f"{name}.json: not found (the prefix is data/results/GAME-RULES)")
    with open(name + ".json") as f:
        stats = json.load(f)
    manifest = None
    if os.path.exists(name + "-tables.json"):
        with open(name + "-tables.json") as f:
            manifest = json.load(f)
    lasker = stats["variant"] == "lasker" or bool(manifest and "phases-lasker" in manifest["rule_set"])
    positions = sum(s["positions"] for s in stats["sectors"])
    raw = sum(s["raw_positions"] for s in stats["sectors"])
    lines = [f"{len(stats['sectors'])} sectors, {positions:,} canonical positions "
             f"({raw / 1e9:.1f} G counting every board).", ""]
    lines += phase_table(stats, lasker) + [""]
    if os.path.exists(name + "-start.json"):
        with open(name + "-start.json") as f:
            lines += start_lines(json.load(f))
    if os.path.exists(name + "-depths.tsv"):
        lines += depth_lines(name + "-depths.tsv")
    if manifest:
        lines.append(f"Tables: {len(manifest['files'])} files, {manifest['wdl_bytes'] + manifest['depth_bytes']:,} "
                     f"bytes (win/draw/loss {manifest['wdl_bytes']:,}, depth {manifest['depth_bytes']:,}); "
                     f"the database would take {manifest['database_bytes']:,} bytes.")
    for log in (name + "-compact-solve.log", name + "-solve.log"):
        if os.path.exists(log):
            lines += log_lines(log)
            break
    print("\n".join(lines))


if __name__ == "__main__":
    main()
