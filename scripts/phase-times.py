#!/usr/bin/env python3
"""Where a long run's time went: unit times of `solve` and `verify` logs, by phase.

    scripts/phase-times.py SOLVE_LOG [VERIFY_LOG ...]
    scripts/phase-times.py --vs OLD_SOLVE_LOG NEW_SOLVE_LOG

Reads the stderr lines `solved S1 [S2] (N slots) in T: ...` of `solve` and
`sector S: ... in T, sound` of `verify` (a run resumed over several logs is given as
several logs; a sector proved twice counts its last time). Prints the solve's unit time
for the moving phase (sectors `W-B-0-0`) and the placement phase, the proof's, and, for
the units whose every sector is proved, the two side by side, so that an unfinished
`verify --resume` already says how it compares. With `--vs`, two solves' logs side by side:
each phase's unit time, old and new, and every unit over a minute in either, with the ratio
(old / new: above 1 the new run was faster). Logs from different machines compare machines
as much as builds: name the CPU of each. Unit times leave out what happens between
units (opening files, checking blocks), which the runs' wall times include.
"""

import re
import sys

UNITS = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def seconds(text):
    """Seconds of a Rust `Duration` as `{:?}` or `{:.2?}` prints it (`1.5s`, `283.34ms`)."""
    m = re.fullmatch(r"([\d.]+)(ns|µs|us|ms|s)", text)
    if not m:
        raise ValueError(f"not a duration: {text!r}")
    return float(m.group(1)) * UNITS[m.group(2)]


def phase(sector):
    return "moving" if sector.endswith("-0-0") else "placement"


def read_solve(path):
    """The work units of a solve log: (sectors, seconds), in order."""
    units = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"solved (.*?) \((\d+) slots\) in (\S+):", line)
            if m:
                units.append((m.group(1).split(), seconds(m.group(3))))
    return units


def read_verify(paths):
    """The sectors of verify logs, each with the seconds of its last proof."""
    proved = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = re.match(r"sector (\S+): .* in (\S+), sound", line)
                if m:
                    proved[m.group(1)] = seconds(m.group(2))
    return proved


def minutes(s):
    return f"{s / 60:7.1f} min"


def versus(old_path, new_path):
    """Two solve logs side by side, by phase and by large unit."""
    old, new = dict(), dict()
    for path, into in ((old_path, old), (new_path, new)):
        units = read_solve(path)
        if not units:
            print(f"{path}: no `solved ...` lines", file=sys.stderr)
            return 1
        for sectors, t in units:
            into[" ".join(sectors)] = t
    print(f"{'':28} {'old':>11} {'new':>11}  old/new")
    for p in ("moving", "placement"):
        o = sum(t for u, t in old.items() if phase(u.split()[0]) == p)
        n = sum(t for u, t in new.items() if phase(u.split()[0]) == p)
        print(f"{p + ' phase':28} {minutes(o)} {minutes(n)}  {o / n if n else 0:.2f}")
    o, n = sum(old.values()), sum(new.values())
    print(f"{'all units':28} {minutes(o)} {minutes(n)}  {o / n if n else 0:.2f}")
    missing = sorted(set(old) ^ set(new))
    if missing:
        print(f"units in only one log: {len(missing)} (e.g. {missing[0]})")
    big = [u for u in old if u in new and max(old[u], new[u]) >= 60]
    big.sort(key=lambda u: -old[u])
    for u in big:
        print(f"{u:28} {old[u]:9.1f} s {new[u]:9.1f} s  {old[u] / new[u]:.2f}")
    return 0


def main(argv):
    if len(argv) == 4 and argv[1] == "--vs":
        return versus(argv[2], argv[3])
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    units = read_solve(argv[1])
    if not units:
        print(f"{argv[1]}: no `solved ...` lines", file=sys.stderr)
        return 1
    proved = read_verify(argv[2:])
    solve = {"moving": 0.0, "placement": 0.0}
    count = {"moving": 0, "placement": 0}
    both = {"moving": [0.0, 0.0], "placement": [0.0, 0.0]}
    for sectors, t in units:
        p = phase(sectors[0])
        solve[p] += t
        count[p] += 1
        if all(s in proved for s in sectors):
            both[p][0] += t
            both[p][1] += sum(proved[s] for s in sectors)
    print(f"solve: {len(units)} units, {minutes(sum(solve.values()))}")
    for p in ("moving", "placement"):
        print(f"  {p:9} {count[p]:4} units {minutes(solve[p])}")
    if argv[2:]:
        sectors = sum(len(s) for s, _ in units)
        proof = sum(proved.values())
        print(f"verify: {len(proved)} of {sectors} sectors, {minutes(proof)}")
        for p in ("moving", "placement"):
            s, v = both[p]
            ratio = f"{v / s:.2f}" if s else "-"
            print(f"  {p:9} units proved whole: solve {minutes(s)}, verify {minutes(v)} ({ratio})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
