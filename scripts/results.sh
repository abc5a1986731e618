#!/usr/bin/env bash
# Solves, verifies and publishes whole games: for each game and each removal rule (standard,
# strict), `solve`, `verify`, then into data/results/:
#   GAME-REMOVAL.json        `stats --json`, verbatim (every sector's counts, depth, checksum,
#                            and the start value and depth)
#   GAME-REMOVAL-start.json  `query --json start`: the empty board and every first placement
#   GAME-REMOVAL-depths.tsv  the depth histogram of the whole game (scripts/depths.py)
#   GAME-REMOVAL-nN.tsv      `stats --n-move-rule N`: per sector, the wins, cursed wins, draws,
#                            blessed losses and losses under the N-move rule (N_MOVE_RULE plies,
#                            default 100; 0 skips it)
#
# Usage: scripts/results.sh DB_DIR [GAME...]   (games default to six six-diag five seven)
# Environment: MORRIS_BIN=path uses that binary; THREADS (default 2); REMOVALS (default
# "standard strict"). Nine takes hours: run it under nohup and it resumes where it stopped.
#
# COMPACT=1 solves into compact storage instead (`solve --compact --depth-level DEPTH_LEVEL`,
# default 6: Morabaraba, Twelve and Lasker, whose databases would not fit the disk). Its unit
# and turning lines are appended to data/results/GAME-REMOVAL-compact-solve.log; verify, stats,
# the start and the depth histogram (`stats --depths`) read the tables the solve leaves in
# DB_DIR, and GAME-REMOVAL-tables.json is written from the table files' headers
# (scripts/tables_manifest.py make, without a report).
set -euo pipefail
cd "$(dirname "$0")/.."
db=${1:?usage: scripts/results.sh DB_DIR [GAME...]}
shift
games=("$@")
[ ${#games[@]} -gt 0 ] || games=(six six-diag five seven)
if [ -z "${MORRIS_BIN:-}" ]; then
  cargo build --release --quiet
fi
bin=${MORRIS_BIN:-target/release/morris}
mkdir -p data/results
for game in "${games[@]}"; do
  for removal in ${REMOVALS:-standard strict}; do
    rules=(--variant "$game" --removal "$removal")
    name="$game-$removal"
    if [ -n "${COMPACT:-}" ]; then
      source=(--tables "$db")
      log="data/results/$name-compact-solve.log"
      echo "== $name: solve --compact (log: $log)"
      echo "# $game, $removal removal, solve --compact --depth-level ${DEPTH_LEVEL:-6}, ${THREADS:-2} threads; a sitting starts (or resumes) here, $(date -u +%FT%TZ)" >> "$log"
      /usr/bin/time -f "$name solve: %e s wall, %M KB peak" \
        "$bin" "${rules[@]}" solve --db "$db" --compact --depth-level "${DEPTH_LEVEL:-6}" \
        --threads "${THREADS:-2}" 2>> "$log"
    else
      source=(--db "$db")
      echo "== $name: solve"
      /usr/bin/time -f "$name solve: %e s wall, %M KB peak" \
        "$bin" "${rules[@]}" solve --db "$db" --threads "${THREADS:-2}" --quiet
    fi
    echo "== $name: verify"
    /usr/bin/time -f "$name verify: %e s wall, %M KB peak" \
      "$bin" "${rules[@]}" verify "${source[@]}" --quiet --resume
    "$bin" "${rules[@]}" stats "${source[@]}" --json > "data/results/$name.json"
    "$bin" "${rules[@]}" query "${source[@]}" --json start > "data/results/$name-start.json"
    folder=$(ls -d "$db/$game".pieces-*.removal-"$removal".* | head -1)
    if [ -n "${COMPACT:-}" ]; then
      "$bin" "${rules[@]}" stats "${source[@]}" --depths --quiet > "data/results/$name-depths.tsv"
      python3 scripts/tables_manifest.py make "$folder" > "data/results/$name-tables.json"
    else
      python3 scripts/depths.py "$folder" > "data/results/$name-depths.tsv"
    fi
    rule=${N_MOVE_RULE:-100}
    if [ "$rule" != 0 ]; then
      echo "== $name: stats --n-move-rule $rule"
      /usr/bin/time -f "$name n-move rule: %e s wall, %M KB peak" \
        "$bin" "${rules[@]}" stats "${source[@]}" --n-move-rule "$rule" --quiet \
        > "data/results/$name-n$rule.tsv"
    fi
    du -sh "$folder"
  done
done
