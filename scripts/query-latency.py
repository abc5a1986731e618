#!/usr/bin/env python3
"""Time `morris query` in fresh processes on the largest solved sector of a database.

Usage: scripts/query-latency.py --db DIR [--variant nine] [--runs 20] [--cold] [-- extra rule options]

Picks the largest sector file of the variant's rule-set folder, builds a position of that sector
(the mover's pieces on the first free points in notation order, the opponent's after them),
and runs `morris query --json` on it RUNS times, each a new process, printing min / median /
max wall time. With --cold the page cache is dropped before every run (root only), so each
query also reads the header, the block table and the touched blocks from disk.
"""
import argparse
import os
import statistics
import struct
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", required=True)
    ap.add_argument("--variant", default="nine")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--cold", action="store_true")
    ap.add_argument("--bin", default="target/release/morris")
    ap.add_argument("rules", nargs="*")
    a = ap.parse_args()
    folders = [f for f in os.listdir(a.db) if f.startswith(a.variant + ".")]
    if len(folders) != 1:
        sys.exit(f"expected one rule-set folder of {a.variant} in {a.db}, found {folders}")
    folder = os.path.join(a.db, folders[0])
    files = [f for f in os.listdir(folder) if f.endswith(".sec")]
    largest = max(files, key=lambda f: os.path.getsize(os.path.join(folder, f)))
    path = os.path.join(folder, largest)
    with open(path, "rb") as fh:
        head = fh.read(4096)
    w, b, wf, bf = head[192:196]
    (n_lines,) = struct.unpack_from("<I", head, 304)
    lines = head[308 : 308 + n_lines].decode().split()
    points = sorted({p for line in lines for p in line.split("-")},
                    key=lambda p: (-int(p[1:]), p[0]))
    ranks = []
    for p in points:
        if ranks and ranks[-1][-1][1:] == p[1:]:
            ranks[-1].append(p)
        else:
            ranks.append([p])
    # The mover is White when the hands are equal (placing), else Black; with both hands empty
    # White.
    mover_white = wf == bf
    cells = {}
    order = [p for r in ranks for p in r]
    for i, p in enumerate(order):
        if i < w:
            cells[p] = "W" if mover_white else "B"
        elif i < w + b:
            cells[p] = "B" if mover_white else "W"
    rows = "/".join("".join(cells.get(p, ".") for p in r) for r in ranks)
    white_hand, black_hand = (wf, bf) if mover_white else (bf, wf)
    position = f"{rows} {'w' if mover_white else 'b'} {white_hand} {black_hand}"
    cmd = [a.bin, "--variant", a.variant, *a.rules, "query", "--json", "--db", a.db, position]
    times = []
    for _ in range(a.runs):
        if a.cold:
            subprocess.run(["sync"], check=True)
            with open("/proc/sys/vm/drop_caches", "w") as fh:
                fh.write("3\n")
        start = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if out.returncode != 0:
            sys.exit(f"query failed: {out.stdout}{out.stderr}")
    size = os.path.getsize(path)
    ms = sorted(1000 * t for t in times)
    print(f"sector {largest[:-4]} ({size / 2**20:.0f} MiB), position {position}")
    print(f"{'cold' if a.cold else 'warm'} query in a fresh process, {a.runs} runs: "
          f"min {ms[0]:.1f} ms, median {statistics.median(ms):.1f} ms, max {ms[-1]:.1f} ms")


if __name__ == "__main__":
    main()
