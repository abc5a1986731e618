#!/usr/bin/env python3
"""Malom's sectors against ours: which sectors Malom solves for a game, and how they map to morris's.

Usage: scripts/malom_sectors.py [MORRIS_BIN] [GAME...]   (games default to nine morabaraba lasker)

Malom (G. E. Gévay and G. Danner, github.com/ggevay/malom) names a sector as morris does:
W_B_WF_BF, the side to move's pieces on the board, the opponent's, then the side to move's and
the opponent's pieces in hand (its files `std_W_B_WF_BF.sec2`, `mora_...`, `lask_...`; its `id`
struct in Malom_megoldas/common.h, whose `negate` exchanges the sides as a move does). Its sector
graph (Malom_megoldas/sector_graph.cpp, written again here from its description) starts from
0_0_N_N and follows, without asking whether a mill can be closed: a placement, with or without a
removal, while the mover has pieces in hand, else a move with or without a removal (under
Lasker's phases both while pieces are in hand), keeping the sectors where the opponent still has
three pieces on the board and in hand. morris's graph leaves out the removals that no mill can
make (a mill needs three of the mover's pieces on the board), so it has fewer sectors.

Prints, per game, the sectors of both graphs and checks that every sector of morris's (from
`morris solve --plan`) is one of Malom's, under the same name; exits 1 if one is not.
"""
import subprocess
import sys

PIECES = {"nine": 9, "morabaraba": 12, "twelve": 12, "lasker": 10}


def children(sector, lasker):
    """Malom's children of a sector, before the sides are exchanged."""
    w, b, wf, bf = sector
    out = []
    if wf:
        out += [(w + 1, b, wf - 1, bf), (w + 1, b - 1, wf - 1, bf)]
    if (lasker and w) or (not lasker and not wf):
        out += [(w, b, wf, bf), (w, b - 1, wf, bf)]
    return [c for c in out if c[1] + c[3] >= 3 and c[1] >= 0]


def malom_graph(game):
    n = PIECES[game]
    start = (0, 0, n, n)
    seen, todo = {start}, [start]
    while todo:
        u = todo.pop()
        for w, b, wf, bf in children(u, game == "lasker"):
            c = (b, w, bf, wf)  # the side to move changes
            if c != u and c not in seen:
                seen.add(c)
                todo.append(c)
    return seen


def morris_graph(binary, game):
    plan = subprocess.run([binary, "solve", "--variant", game, "--plan", "--db", "/nonexistent-db"],
                          capture_output=True, text=True, check=True).stdout
    ours = set()
    for line in plan.splitlines():
        words = line.split()
        if len(words) >= 4 and words[0].isdigit() and words[2] in ("cyclic", "forward"):
            ours.update(tuple(map(int, s.split("-"))) for s in words[3:])
    return ours


def main():
    args = sys.argv[1:]
    binary = "target/release/morris"
    if args and args[0] not in PIECES:
        binary, args = args[0], args[1:]
    bad = 0
    for game in args or ["nine", "morabaraba", "lasker"]:
        if game not in PIECES:
            sys.exit(f"{game}: not one of {', '.join(PIECES)}")
        malom, ours = malom_graph(game), morris_graph(binary, game)
        missing = sorted(ours - malom)
        name = lambda s: "-".join(map(str, s))
        print(f"{game}: Malom {len(malom)} sectors, morris {len(ours)}, all of morris's among "
              f"Malom's: {'yes' if not missing else 'no'}; Malom's others, e.g. "
              f"{', '.join(name(s) for s in sorted(malom - ours)[:3])}")
        for s in missing:
            print(f"  {name(s)}: a morris sector Malom does not have")
        bad += len(missing)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
