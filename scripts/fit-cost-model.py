#!/usr/bin/env python3
"""Fits the solver's cost model (`CostModel::reference` in src/space/schedule.rs) to a log of a
whole solve of nine under its standard rules: per kind of unit, its seconds over its slots.

Usage: scripts/fit-cost-model.py LOG [--per-unit SECONDS]

Reads the log's lines `solved UNIT (N slots) in TIME: ...` (rank prefixes allowed; the last
line of a unit wins) and, from a compact solve, `turned SECTOR into tables in TIME: ...`. A
comment `# paused N s ...` says that the run was stopped (SIGSTOP) for N seconds, while the work
on the next timed line was under way: those seconds are taken off that line's time, unless
another comment (a sitting that starts again after an interrupted one) comes first. A unit
is forward-only when it ran no retrograde levels (`0 levels`); a cyclic unit is keyed by the
most pieces one side has on the board, whether a side has pieces in hand (a mixed unit, under
Lasker's phases) and whether a side flies (nine's rule: three pieces, on
the board and in hand, while moving). Prints each kind's rate in microseconds per slot, the
rate of turning a sector into tables (per byte of its sector file, a byte a slot), then each
unit's measured and modelled seconds where they differ most, and the totals.
"""

import argparse
import re
import sys
from collections import defaultdict

SOLVED = re.compile(r"solved (.+?) \((\d+) slots\) in ([0-9.]+)(ns|µs|us|ms|s): .*?(\d+) levels")
TURNED = re.compile(r"turned (\S+)(?: \(\d+ slots\))? into tables in ([0-9.]+)(ns|µs|us|ms|s): .* of a sector file of (\d+) bytes")
PAUSED = re.compile(r"^# paused ([0-9.]+) s")
SCALE = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def sectors(unit):
    """The sectors of a unit's name as (mover, opponent, mover hand, opponent hand)."""
    return [tuple(int(x) for x in s.split("-")) for s in unit.split()]


def kind(unit, levels):
    """The cost model's kind of a unit: ("forward",) or ("cyclic"|"flying"|"mixed", pieces)."""
    if levels == 0:
        return ("forward",)
    secs = sectors(unit)
    pieces = max(max(w, b) for w, b, _, _ in secs)
    if any(wf or bf for _, _, wf, bf in secs):
        # Lasker's units with pieces in hand: their placements all lead out of the unit.
        return ("mixed", max(pieces, 4))
    flies = any(
        (wf == 0 and w + wf == 3) or (bf == 0 and b + bf == 3) for w, b, wf, bf in secs
    )
    # Nine has no sliding unit of three pieces, and its flying 3-3 is mostly its per-unit cost:
    # both take the rate of four pieces, as the model does.
    return ("flying" if flies else "cyclic", max(pieces, 4))


def read(log):
    units, turned = {}, {}
    paused = 0.0
    for line in log:
        m = PAUSED.search(line)
        if m:
            paused += float(m.group(1))
            continue
        if line.startswith("#"):
            # A new sitting: the work a pause fell in was interrupted and starts over.
            paused = 0.0
            continue
        m = SOLVED.search(line)
        if m:
            name, slots, t, unit, levels = m.groups()
            units[name] = (int(slots), float(t) * SCALE[unit] - paused, int(levels))
            paused = 0.0
            continue
        m = TURNED.search(line)
        if m:
            name, t, unit, size = m.groups()
            turned[name] = (int(size), float(t) * SCALE[unit] - paused)
            paused = 0.0
    return units, turned


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("log")
    ap.add_argument("--per-unit", type=float, default=0.05, help="seconds a unit costs besides its slots")
    args = ap.parse_args()
    with open(args.log, encoding="utf-8", errors="replace") as f:
        units, turned = read(f)
    if not units:
        sys.exit(f"{args.log}: no `solved` lines")
    sums = defaultdict(lambda: [0, 0.0])
    for name, (slots, secs, levels) in units.items():
        s = sums[kind(name, levels)]
        s[0] += slots
        s[1] += max(secs - args.per_unit, 0.0)
    rate = {k: t / n for k, (n, t) in sums.items() if n}
    print(f"{len(units)} units, {sum(u[0] for u in units.values())} slots, {sum(u[1] for u in units.values()):.1f} s")
    print("kind                 slots        seconds   µs/slot")
    for k in sorted(rate, key=lambda k: (k[0], k[1:] or (0,))):
        n, t = sums[k]
        print(f"{' '.join(map(str, k)):<14} {n:>14} {t:>12.2f} {1e6 * rate[k]:>9.4f}")
    if turned:
        size = sum(v[0] for v in turned.values())
        secs = sum(v[1] for v in turned.values())
        print(f"turning into tables: {len(turned)} sectors, {size} bytes, {secs:.1f} s, {1e6 * secs / size:.4f} µs a byte")
    rows = []
    for name, (slots, secs, levels) in units.items():
        model = args.per_unit + rate[kind(name, levels)] * slots
        rows.append((secs, model, slots, name))
    rows.sort(reverse=True)
    print("the 15 costliest units: measured s, modelled s, error")
    for secs, model, slots, name in rows[:15]:
        print(f"  {name:<22} {slots:>14} {secs:>9.2f} {model:>9.2f} {100 * (model - secs) / secs:+6.1f}%")


if __name__ == "__main__":
    main()
