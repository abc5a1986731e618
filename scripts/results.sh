#!/usr/bin/env bash
# Solves, verifies and publishes whole games: for each game and each removal rule (standard,
# strict), `solve`, `verify`, then into data/results/:
#   GAME-REMOVAL.json        `stats --json`, verbatim (every sector's counts, depth, checksum,
#                            and the start value and depth)
#   GAME-REMOVAL-start.json  `query --json start`: the empty board and every first placement
#   GAME-REMOVAL-depths.tsv  the depth histogram of the whole game (scripts/depths.py)
#
# Usage: scripts/results.sh DB_DIR [GAME...]   (games default to six six-diag five seven)
# Environment: MORRIS_BIN=path uses that binary; THREADS (default 2); REMOVALS (default
# "standard strict"). Nine takes hours: run it under nohup and it resumes where it stopped.
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
    echo "== $name: solve"
    /usr/bin/time -f "$name solve: %e s wall, %M KB peak" \
      "$bin" "${rules[@]}" solve --db "$db" --threads "${THREADS:-2}" --quiet
    echo "== $name: verify"
    /usr/bin/time -f "$name verify: %e s wall, %M KB peak" \
      "$bin" "${rules[@]}" verify --db "$db" --quiet --resume
    "$bin" "${rules[@]}" stats --db "$db" --json > "data/results/$name.json"
    "$bin" "${rules[@]}" query --db "$db" --json start > "data/results/$name-start.json"
    folder=$(ls -d "$db/$game".pieces-*.removal-"$removal".* | head -1)
    python3 scripts/depths.py "$folder" > "data/results/$name-depths.tsv"
    du -sh "$folder"
  done
done
