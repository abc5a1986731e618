#!/usr/bin/env python3
"""Positions for the C library's test: random games from the start, every position they pass.

    positions.py MORRIS VARIANT GAMES SEED > positions.txt

Plays GAMES games at once, a random legal move a ply (the moves of all games from one
`MORRIS --variant VARIANT moves --json -` a ply), until each game is over or 120 plies have
passed, and prints every position met once, `start` first. Only the standard library: the
moves are applied here, to the notation.
"""

import json
import random
import subprocess
import sys

MAX_PLIES = 120


def legal_moves(morris, variant, positions):
    """The legal moves of each position, sorted, from `morris moves --json -`."""
    out = subprocess.run(
        [morris, "--variant", variant, "moves", "--json", "-"],
        input="".join(p + "\n" for p in positions),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert len(out) == len(positions), (len(out), len(positions))
    return [json.loads(line) for line in out]


def board(morris, variant):
    """The point names in notation order (the start's placements name every point; sorted by
    rank from the top down, then by file: docs/format.md section 5.1), the number of points
    of each rank from the top, and the start in notation."""
    names = legal_moves(morris, variant, ["start"])[0]
    points = sorted(names, key=lambda n: (-int(n[1:]), n[0]))
    ranks = []
    for i, name in enumerate(points):
        if i == 0 or name[1:] != points[i - 1][1:]:
            ranks.append(0)
        ranks[-1] += 1
    listed = subprocess.run(
        [morris, "variants", "--json"], capture_output=True, text=True, check=True
    ).stdout
    pieces = next(v["pieces"] for v in json.loads(listed) if v["name"] == variant)
    start = "/".join("." * n for n in ranks) + f" w {pieces} {pieces}"
    return points, ranks, start


def play(position, move, points, ranks):
    """The position after `move` (notation), the opponent to move."""
    rows, turn, white_hand, black_hand = position.split()
    cells = list(rows.replace("/", ""))
    hands = {"W": int(white_hand), "B": int(black_hand)}
    me = "W" if turn == "w" else "B"
    body, _, removed = move.partition("x")
    source, _, target = body.rpartition("-")
    if source:
        cells[points.index(source)] = "."
    else:
        hands[me] -= 1
    cells[points.index(target)] = me
    if removed:
        cells[points.index(removed)] = "."
    out, at = [], 0
    for n in ranks:
        out.append("".join(cells[at : at + n]))
        at += n
    other = "b" if turn == "w" else "w"
    return f"{'/'.join(out)} {other} {hands['W']} {hands['B']}"


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    morris, variant, games, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(seed)
    points, ranks, start = board(morris, variant)
    seen, known = ["start"], {start}
    playing = [start] * games
    for _ in range(MAX_PLIES):
        if not playing:
            break
        after = []
        for position, options in zip(playing, legal_moves(morris, variant, playing)):
            if not options:
                continue  # the game is over
            nxt = play(position, rng.choice(options), points, ranks)
            if nxt not in known:
                known.add(nxt)
                seen.append(nxt)
            after.append(nxt)
        playing = after
    sys.stdout.write("".join(p + "\n" for p in seen))


if __name__ == "__main__":
    main()
