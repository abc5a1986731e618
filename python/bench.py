"""How fast the Python package probes: `probe` one position at a time (warm, in µs) and
`probe_many` on 100,000 random positions of a tables or database folder, in positions per
second.

    python python/bench.py TABLES_OR_DB [--variant nine] [--count 100000]

The positions are random moving-phase boards drawn over the moving-phase sectors the folder
holds (each sector equally likely), with either side to move, e.g. nine `--max-pieces 5`:
3 to 5 pieces a side. Every timing is the best of three runs after one warming pass, so the
blocks are in the reader's cache (64 MiB) and the page cache.

The Rust rates to compare with are `cargo bench --bench tables` (`tables/value/warm`: the
library's `Database::probe` in a loop on one thread; `tables/value/parallel`: the batch over
every core, as `probe_many`; `tables/value/parallel/cold`: that from a folder just opened), run
with MORRIS_TABLES=FOLDER and, for the very positions timed here, MORRIS_SAMPLE=FILE after
`--write-sample FILE`.
"""

import argparse
import os
import platform
import random
import sys
import time

# The installed package, not the source folder beside this script (python/morris/ lacks the
# compiled module).
_here = os.path.dirname(os.path.abspath(__file__))
sys.path = [p for p in sys.path if os.path.abspath(p or os.curdir) != _here]

import morris  # noqa: E402


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown processor"


def board_text(variant, white, black, turn):
    rows = str(variant.start()).split()[0].split("/")
    points = iter(variant.points)
    ranks = []
    for row in rows:
        rank = ""
        for _ in row:
            p = next(points)
            rank += "W" if p in white else "B" if p in black else "."
        ranks.append(rank)
    return f"{'/'.join(ranks)} {turn} 0 0"


def positions(t, count, rng):
    """`count` random boards of the moving-phase sectors present (mover-relative counts)."""
    counts = []
    for s in t.sectors():
        mover, opponent, mover_hand, opponent_hand = map(int, s.split("-"))
        if mover_hand == opponent_hand == 0:
            counts.append((mover, opponent))
    if not counts:
        raise SystemExit(f"{t.path}: no moving-phase sector of {t.variant.name}")
    points = t.variant.points
    out = []
    while len(out) < count:
        mover, opponent = rng.choice(counts)
        turn = rng.choice("wb")
        chosen = rng.sample(points, mover + opponent)
        mine, theirs = set(chosen[:mover]), set(chosen[mover:])
        white, black = (mine, theirs) if turn == "w" else (theirs, mine)
        out.append(board_text(t.variant, white, black, turn))
    return out


def best_of(runs, f):
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - start)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", help="a tables folder or a database folder")
    parser.add_argument("--variant", default="nine")
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--cache-bytes",
        type=int,
        default=None,
        help="read sector files into a cache of this many bytes instead of mapping them",
    )
    parser.add_argument(
        "--write-sample",
        metavar="FILE",
        help="write the positions as bitboard rows (white black white_hand black_hand turn) "
        "for `cargo bench --bench tables` with MORRIS_SAMPLE=FILE",
    )
    args = parser.parse_args()

    t = morris.open(args.folder, args.variant, cache_bytes=args.cache_bytes)
    texts = positions(t, args.count, random.Random(1))
    start = time.perf_counter()
    parsed = [t.variant.parse(x) for x in texts]
    parse_s = time.perf_counter() - start
    n = len(parsed)
    kind = "tables" if t.is_tables else "database"
    how = "mapped" if args.cache_bytes is None else f"through a cache of {args.cache_bytes} bytes"
    print(f"morris {morris.__version__}, {kind} of {t.variant.name} in {t.path}, read {how}")
    print(f"{cpu_name()}, {os.cpu_count()} logical cores; Python {platform.python_version()}")
    print(f"{n} random moving-phase positions over {len(set(p.sector for p in parsed))} sectors")
    print(f"  Variant.parse:              {n / parse_s:12,.0f} positions/s ({parse_s / n * 1e6:.2f} µs each)")

    if args.write_sample:
        with open(args.write_sample, "w") as f:
            for p in parsed:
                f.write(" ".join(map(str, p.bits)) + (" 0\n" if p.turn == "w" else " 1\n"))
        print(f"  the positions are in {args.write_sample}")

    def cold():
        fresh = morris.open(args.folder, args.variant, cache_bytes=args.cache_bytes)
        start = time.perf_counter()
        fresh.probe_many(parsed)
        return time.perf_counter() - start

    # From a folder just opened: the reader's caches empty, the page cache as it is.
    s = min(cold() for _ in range(args.runs))
    print(f"  {'probe_many(Positions), cold:':28}{n / s:12,.0f} positions/s ({s / n * 1e6:.2f} µs each)")

    t.probe_many(parsed)  # warm the caches

    def one_by_one(items):
        probe = t.probe
        for p in items:
            probe(p)

    def outcomes(items):
        outcome = t.outcome
        for p in items:
            outcome(p)

    rows = [
        ("probe(Position), one by one", lambda: one_by_one(parsed)),
        ("probe(text), one by one", lambda: one_by_one(texts)),
        ("outcome(Position), one by one", lambda: outcomes(parsed)),
        ("probe_many(Positions)", lambda: t.probe_many(parsed)),
        ("probe_many(texts)", lambda: t.probe_many(texts)),
    ]
    for name, f in rows:
        s = best_of(args.runs, f)
        print(f"  {name + ':':28}{n / s:12,.0f} positions/s ({s / n * 1e6:.2f} µs each)")


if __name__ == "__main__":
    main()
