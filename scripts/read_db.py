#!/usr/bin/env python3
"""Reference reader of morris databases (format 2, index layout 1), written from docs/format.md.

    python3 scripts/read_db.py --db DIR --variant NAME [--flying X] [--removal X]
                               [--phases X] [--full-board X] < positions

Reads one position per line in the notation `ROWS TURN WHITE_HAND BLACK_HAND` and prints one line
each: `win 13`, `loss 0`, `draw -`, or `error: <reason>` (then it goes on, and exits 1 at the end).
The board (points, lines, mills) and its symmetry group are derived from the board lines in the
file headers, not built in. Every header field that can be checked without hashing is checked;
the xxh3-64 checksums are not verified, since Python's standard library has no xxh3.
Dependency-free, Python 3.11.
"""
import argparse
import os
import struct
import sys
from math import comb

MAGIC, FORMAT, LAYOUT, HEADER_SIZE = b"MORRISDB", 2, 1, 4096
# variant -> (pieces, default flying); every variant defaults to the other rules below.
DEFAULTS = {"nine": (9, "three"), "six": (6, "never"), "six-diag": (6, "never"),
            "five": (5, "never"), "seven": (7, "never"), "three": (3, "never"),
            "three-diag": (3, "never"), "twelve": (12, "three")}
# The rule switches, each value's header code being its place in the list.
RULES = {"flying": ["never", "three", "always"], "removal": ["standard", "strict", "lenient"],
         "phases": ["separate", "lasker"], "full-board": ["loss", "draw"], "no-move": ["loss"]}
HEAD = struct.Struct("<8sIIII32s128s8B4BIQ8QIIQQQI1024s")


def read_header(path):
    with open(path, "rb") as f:
        raw = f.read(HEADER_SIZE)
        size = f.seek(0, os.SEEK_END)
    if len(raw) < HEADER_SIZE:
        raise ValueError(f"{path}: {len(raw)} bytes, shorter than the header")
    v = HEAD.unpack_from(raw)
    text = lambda b: b.rstrip(b"\0").decode("ascii")
    h = dict(magic=v[0], format=v[1], layout=v[2], header_size=v[3], block_size=v[4],
             variant=text(v[5]), rules=text(v[6]), sector=tuple(v[15:19]), width=v[19],
             slots=v[20], blocks=v[31], payload=v[32], lines=v[35][:v[34]].decode("ascii"),
             rule_bytes=tuple(v[7:13]), file_size=size)
    if h["magic"] != MAGIC:
        raise ValueError(f"{path}: not a morris database file (bad magic)")
    for key, want in (("format", FORMAT), ("layout", LAYOUT), ("header_size", HEADER_SIZE)):
        if h[key] != want:
            raise ValueError(f"{path}: {key} {h[key]}, this reader knows {want}")
    return h


class Board:
    """Points in notation order, the lines and mills, and the automorphism group."""

    def __init__(self, lines_text):
        self.text = lines_text
        coords = [[(ord(p[0]) - 97, int(p[1:])) for p in l.split("-")] for l in lines_text.split()]
        pts = sorted({c for l in coords for c in l}, key=lambda c: (-c[1], c[0]))
        self.n, number = len(pts), {c: i for i, c in enumerate(pts)}
        self.names = [chr(97 + f) + str(r) for f, r in pts]
        self.ranks = []  # point numbers per rank, top rank first
        for i, (f, r) in enumerate(pts):
            if self.ranks and pts[self.ranks[-1][0]][1] == r:
                self.ranks[-1].append(i)
            else:
                self.ranks.append([i])
        self.lines = [tuple(number[c] for c in l) for l in coords]
        self.mills = {frozenset(l[i:i + 3]) for l in self.lines for i in range(len(l) - 2)}
        self.adj = [set() for _ in range(self.n)]
        for l in self.lines:
            for a, b in zip(l, l[1:]):
                self.adj[a].add(b)
                self.adj[b].add(a)
        self.syms = []
        self._search([])
        # Each symmetry as four byte tables: applying it to a bit set costs four look-ups.
        self.tables = []
        for s in self.syms:
            t = [[0] * 256 for _ in range(4)]
            for chunk in range(4):
                for byte in range(256):
                    for bit in range(8):
                        p = 8 * chunk + bit
                        if byte >> bit & 1 and p < self.n:
                            t[chunk][byte] |= 1 << s[p]
            self.tables.append(t)
        self.orbits = {}

    def _search(self, image):
        p = len(image)
        if p == self.n:
            line_set = set(self.lines) | {l[::-1] for l in self.lines}
            if all(tuple(image[q] for q in l) in line_set for l in self.lines) and \
                    all(frozenset(image[q] for q in m) in self.mills for m in self.mills):
                self.syms.append(tuple(image))
            return
        for c in range(self.n):
            if c not in image and len(self.adj[c]) == len(self.adj[p]) and \
                    all((q in self.adj[p]) == (image[q] in self.adj[c]) for q in range(p)):
                self._search(image + [c])

    def apply(self, s, x):
        t = self.tables[s]
        return t[0][x & 255] | t[1][x >> 8 & 255] | t[2][x >> 16 & 255] | t[3][x >> 24 & 255]

    def orbit_table(self, w):
        """For sets of w points: {set: orbit rank} and the representatives in increasing order."""
        if w not in self.orbits:
            rank, reps = {}, []
            x = (1 << w) - 1
            while x < 1 << self.n:  # every w-set in increasing numeric (= colex) order
                if x not in rank:
                    for s in range(len(self.syms)):
                        rank.setdefault(self.apply(s, x), len(reps))
                    reps.append(x)
                if x == 0:
                    break
                t = x | (x - 1)  # Gosper's hack: the next larger number with w bits
                x = (t + 1) | (((~t & -~t) - 1) >> ((x & -x).bit_length()))
            self.orbits[w] = (rank, reps)
        return self.orbits[w]

    def slot(self, mover, opponent, b):
        """The slot of a position within its sector: orbit rank * C(n - W, B) + k."""
        rank, reps = self.orbit_table(bin(mover).count("1"))
        r = rank[mover]
        rep = reps[r]
        free = ~rep & ((1 << self.n) - 1)
        k = min(squeezed_rank(self.apply(s, opponent), free)
                for s in range(len(self.syms)) if self.apply(s, mover) == rep)
        return r * comb(bin(free).count("1"), b) + k

    def slots(self, w, b):
        return len(self.orbit_table(w)[1]) * comb(self.n - w, b)


def squeezed_rank(x, free):
    """Colex rank of the set x among the sets of its size of the points of `free`."""
    rank, i = 0, 1
    while x:
        low = x & -x
        rank += comb(bin(free & (low - 1)).count("1"), i)
        i += 1
        x ^= low
    return rank


class Reader:
    def __init__(self, args):
        self.variant, (self.pieces, flying) = args.variant, DEFAULTS[args.variant]
        chosen = {"flying": args.flying or flying, "removal": args.removal,
                  "phases": args.phases, "full-board": args.full_board, "no-move": "loss"}
        self.rules = ".".join([f"pieces-{self.pieces}"] + [f"{k}-{v}" for k, v in chosen.items()])
        self.rule_bytes = (self.pieces,) + tuple(RULES[k].index(v) for k, v in chosen.items())
        self.dir = os.path.join(args.db, f"{args.variant}.{self.rules}")
        if not os.path.isdir(self.dir):
            raise ValueError(f"nothing of {args.variant} with these rules is solved: no {self.dir}")
        self.board, why = None, f"{self.dir} holds no sector files"
        for name in sorted(f for f in os.listdir(self.dir) if f.endswith(".sec")):
            try:  # the board's lines, from the first file whose header reads
                self.board = Board(read_header(os.path.join(self.dir, name))["lines"])
                break
            except (OSError, ValueError) as e:
                why = str(e)
        if self.board is None:
            raise ValueError(why)
        self.headers = {}

    def parse(self, text):
        fields = text.split()
        if len(fields) != 4:
            raise ValueError(f"expected 4 fields `ROWS TURN WHITE_HAND BLACK_HAND`, found {len(fields)}")
        rows = fields[0].split("/")
        if len(rows) != len(self.board.ranks) or any(
                len(r) != len(pts) for r, pts in zip(rows, self.board.ranks)):
            raise ValueError("ROWS do not fit the board")
        sides = {"W": 0, "B": 0}
        for row, pts in zip(rows, self.board.ranks):
            for c, p in zip(row, pts):
                if c in sides:
                    sides[c] |= 1 << p
                elif c != ".":
                    raise ValueError(f"unexpected character {c!r}")
        if fields[1] not in ("w", "b") or not (fields[2] + fields[3]).isdigit():
            raise ValueError("bad turn or hands")
        hands = {"W": int(fields[2]), "B": int(fields[3])}
        for c in "WB":
            if bin(sides[c]).count("1") + hands[c] > self.pieces:
                raise ValueError(f"{c} has more than {self.pieces} pieces")
        me, you = ("W", "B") if fields[1] == "w" else ("B", "W")
        return sides[me], sides[you], hands[me], hands[you]

    def header(self, sector):
        if sector not in self.headers:
            path = os.path.join(self.dir, "%d-%d-%d-%d.sec" % sector)
            if not os.path.exists(path):
                raise ValueError(f"sector {'-'.join(map(str, sector))} is not solved")
            h = read_header(path)
            slots = self.board.slots(sector[0], sector[1])
            want = dict(variant=self.variant, rules=self.rules, rule_bytes=self.rule_bytes,
                        sector=sector, lines=self.board.text, slots=slots)
            for key, value in want.items():
                if h[key] != value:
                    raise ValueError(f"{path}: {key} {h[key]!r}, expected {value!r}")
            if h["width"] not in (1, 2):
                raise ValueError(f"{path}: cell width {h['width']}")
            if h["block_size"] < 4096 or h["block_size"] & (h["block_size"] - 1):
                raise ValueError(f"{path}: block size {h['block_size']}")
            size = slots * h["width"]
            blocks = -(-size // h["block_size"])
            if h["blocks"] != blocks or h["payload"] != -(-(4096 + 8 * blocks) // 4096) * 4096:
                raise ValueError(f"{path}: block count {h['blocks']} or payload offset "
                                 f"{h['payload']} does not fit {slots} slots")
            if h["file_size"] != h["payload"] + size:
                raise ValueError(f"{path}: {h['file_size']} bytes, the header promises "
                                 f"{h['payload'] + size}")
            h["file"] = open(path, "rb")
            self.headers[sector] = h
        return self.headers[sector]

    def value(self, text):
        mover, opponent, mh, oh = self.parse(text)
        if bin(mover).count("1") + mh < 3:
            return "loss 0"
        h = self.header((bin(mover).count("1"), bin(opponent).count("1"), mh, oh))
        w = h["width"]
        h["file"].seek(h["payload"] + w * self.board.slot(mover, opponent, h["sector"][1]))
        cell = int.from_bytes(h["file"].read(w), "little")
        top = 255 if w == 1 else 65535
        if cell == top - 1:
            raise ValueError("the position's slot is marked unused")
        return "draw -" if cell == top else f"{'win' if cell % 2 else 'loss'} {cell}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--variant", required=True, choices=sorted(DEFAULTS))
    ap.add_argument("--flying", choices=RULES["flying"])  # default: the variant's
    for rule in ("removal", "phases", "full-board"):
        ap.add_argument(f"--{rule}", default=RULES[rule][0], choices=RULES[rule])
    args = ap.parse_args()
    try:
        reader = Reader(args)
    except (OSError, ValueError) as e:
        reader, why = None, str(e)
    failed = False
    for line in sys.stdin:
        try:
            if reader is None:
                raise ValueError(why)
            out = reader.value(line)
        except (OSError, ValueError) as e:
            out, failed = f"error: {e}", True
        print(out)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
