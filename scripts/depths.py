#!/usr/bin/env python3
"""The depth histogram of a solved database folder: how many canonical positions have each value.

Usage: scripts/depths.py FOLDER > depths.tsv
FOLDER is one rule set's folder (DB/VARIANT.RULE-SET-ID). Every sector file (*.sec) is read as
docs/format.md describes: the cell width (u32 at byte 196), the slot count (u64 at 200) and the
payload offset (u64 at 288); each cell is a depth (odd: the side to move wins, even: it loses),
a draw (255 / 65535) or an unused slot (254 / 65534), which is not counted. Checksums are left
to `morris check`. Needs numpy (pip install numpy): the payloads are counted in place, memory-
mapped, so a whole game of nine (28 GB) takes minutes, not hours.
"""
import glob
import os
import struct
import sys

import numpy as np


def histogram(path):
    """Counts per cell code of one sector file, as a dict {code: count}, and the cell width."""
    with open(path, "rb") as f:
        head = f.read(296)
    width = struct.unpack_from("<I", head, 196)[0]
    slots = struct.unpack_from("<Q", head, 200)[0]
    payload = struct.unpack_from("<Q", head, 288)[0]
    dtype = np.uint8 if width == 1 else np.dtype("<u2")
    cells = np.memmap(path, dtype=dtype, mode="r", offset=payload, shape=(slots,))
    counts = np.zeros(1 << (8 * width), dtype=np.int64)
    step = 1 << 26
    for start in range(0, slots, step):
        counts += np.bincount(cells[start:start + step], minlength=len(counts))
    return counts, width


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit(__doc__)
    folder = sys.argv[1]
    files = sorted(glob.glob(os.path.join(folder, "*.sec")))
    if not files:
        sys.exit(f"{folder}: no sector files")
    depths = {}
    draws = 0
    for path in files:
        counts, width = histogram(path)
        unused, draw = (254, 255) if width == 1 else (65534, 65535)
        draws += int(counts[draw])
        for code in np.nonzero(counts)[0]:
            if code not in (unused, draw):
                depths[int(code)] = depths.get(int(code), 0) + int(counts[code])
    print(f"# {os.path.basename(os.path.normpath(folder))}: canonical positions by value "
          f"for the side to move, {len(files)} sector files")
    print("depth\tvalue\tpositions")
    for d in sorted(depths):
        print(f"{d}\t{'win' if d % 2 else 'loss'}\t{depths[d]}")
    print(f"-\tdraw\t{draws}")


if __name__ == "__main__":
    main()
