#!/usr/bin/env python3
"""Measures the engine's strength levels: how often each gives a result away, per phase.

Each weaker level plays GAMES games from the start against an opponent that never errs (it
picks at random among the moves that keep its value), half as White and half as Black. A game
ends when the level has lost (the position it faces is lost), when the game is over, or after
MAX_PLIES plies. Of the level's moves in positions it does not lose:

- a *decision* is a position where some legal move gives the result away (a win to a draw or a
  loss, a draw to a loss); a position where every move keeps it is no test;
- an *error* is a move that gives it away.

It prints, per level, the errors per decision in each phase (the level's moves there are all
placements, slides or flights) and in all, the errors per move (every move of the level in a
position it did not lose), and the games lost. The moves are the package's
`Database.best_move(position, strength=LEVEL, seed=...)`, exactly what the explorer's Play,
`GET /api/bestmove` and the C library's `morris_best_move_at` play; every seed comes from
`--seed`, so a run is repeatable.

    python scripts/strength_ladder.py DB --variant nine [--games 200] [--max-plies 200]
        [--seed 1] [--levels expert,strong,...] [--markdown]

Needs the morris Python package (`pip install ./python`) and a database or tables folder that
holds the whole game (a move into an unsolved sector ends that game; the count is printed).
"""

import argparse
import random
import sys
import time

import morris

LEVELS = ["expert", "strong", "advanced", "intermediate", "club", "casual", "novice"]
PHASES = {"place": "placing", "slide": "moving", "fly": "flying"}
RANK = {"win": 2, "draw": 1, "loss": 0}


class Tally:
    """One level's counts."""

    def __init__(self):
        self.decisions = {p: 0 for p in PHASES.values()}
        self.errors = {p: 0 for p in PHASES.values()}
        self.moves = 0
        self.move_errors = 0
        self.games = 0
        self.lost = 0
        self.unsolved = 0

    def rate(self, phase=None):
        """Errors per decision in `phase` (all phases when None), as (errors, decisions)."""
        if phase is None:
            return sum(self.errors.values()), sum(self.decisions.values())
        return self.errors[phase], self.decisions[phase]


def play_game(db, level, level_plays, rng, max_plies, tally):
    """One game of `level` (playing `level_plays`, "w" or "b") against the faultless opponent."""
    position = db.variant.start()
    for _ in range(max_plies):
        analysis = db.analysis(position)
        moves = analysis["moves"]
        if not moves:
            break
        value = analysis["value"]
        if position.turn != level_plays:
            keep = [m["move"] for m in moves if m["value"] == value and m["depth"] == analysis["depth"]]
            position = position.play(rng.choice(keep))
            continue
        if value == "loss":
            tally.lost += 1
            return
        move = db.best_move(position, strength=level, seed=rng.getrandbits(64))
        phase = PHASES[move.kind]
        values = {m["move"]: m["value"] for m in moves}
        erred = RANK[values[move]] < RANK[value]
        tally.moves += 1
        tally.move_errors += erred
        if any(RANK[v] < RANK[value] for v in values.values()):
            tally.decisions[phase] += 1
            tally.errors[phase] += erred
        position = position.play(move)
    else:
        return
    # The game is over: the level lost if it is to move with no move (or too few pieces).
    if position.turn == level_plays and db.analysis(position)["value"] == "loss":
        tally.lost += 1


def percent(errors, decisions):
    return "–" if decisions == 0 else f"{100.0 * errors / decisions:.2f}%"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("db", help="a database or tables folder holding the whole game")
    parser.add_argument("--variant", default="nine")
    parser.add_argument("--games", type=int, default=200, help="games per level (half as White)")
    parser.add_argument("--max-plies", type=int, default=200, help="plies at most per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default=",".join(LEVELS), help="comma-separated levels")
    parser.add_argument("--markdown", action="store_true", help="a Markdown table")
    args = parser.parse_args()
    if args.games < 1 or args.max_plies < 1:
        parser.error("--games and --max-plies must be at least 1")
    levels = args.levels.split(",")
    db = morris.open(args.db, args.variant)
    started = time.time()
    rows = []
    for level in levels:
        rng = random.Random(f"{args.seed}/{level}")
        tally = Tally()
        for game in range(args.games):
            tally.games += 1
            try:
                play_game(db, level, "wb"[game % 2], rng, args.max_plies, tally)
            except morris.MissingSectorError:
                tally.unsolved += 1
        rows.append((level, tally))
        print(f"{level}: done in {time.time() - started:.0f} s", file=sys.stderr)

    phases = list(PHASES.values())
    if args.markdown:
        print("| level | " + " | ".join(f"errors per decision, {p}" for p in phases)
              + " | all decisions | errors per move | games lost |")
        print("|---|" + "---:|" * (len(phases) + 3))
    else:
        print(f"{'level':<13}" + "".join(f"{p:>16}" for p in phases)
              + f"{'all':>16}{'per move':>16}{'lost':>12}")
    for level, t in rows:
        cells = [f"{percent(*t.rate(p))} of {t.rate(p)[1]:,}" for p in phases]
        cells.append(f"{percent(*t.rate())} of {t.rate()[1]:,}")
        cells.append(f"{percent(t.move_errors, t.moves)} of {t.moves:,}")
        cells.append(f"{t.lost:,} of {t.games:,}")
        if args.markdown:
            print(f"| {level} | " + " | ".join(cells) + " |")
        else:
            print(f"{level:<13}" + "".join(f"{c:>16}" for c in cells[:-1]) + f"{cells[-1]:>12}")
        if t.unsolved:
            print(f"  {level}: {t.unsolved} games reached an unsolved sector and ended there",
                  file=sys.stderr)
    print(f"{args.variant}, {args.games} games a level against a faultless opponent, at most "
          f"{args.max_plies} plies, seed {args.seed}; {time.time() - started:.0f} s",
          file=sys.stderr)


if __name__ == "__main__":
    main()
