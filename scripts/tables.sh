#!/usr/bin/env bash
# Builds the compact tables of solved games and publishes their manifests: for each game and
# removal rule, `morris tables` from DB_DIR into TABLES_DIR, `check --tables`, then
# data/results/GAME-REMOVAL-tables.json (scripts/tables_manifest.py: sizes, SHA-256 and
# checksum of every file; the files themselves stay out of git).
#
# Usage: scripts/tables.sh DB_DIR TABLES_DIR [GAME...]   (games default to six six-diag five seven)
# Environment: MORRIS_BIN=path uses that binary; THREADS (default 2); REMOVALS (default
# "standard strict"). The games must be solved in DB_DIR (scripts/results.sh solves them).
# A downloaded set is checked with: scripts/tables_manifest.py check MANIFEST TABLES/FOLDER
set -euo pipefail
cd "$(dirname "$0")/.."
db=${1:?usage: scripts/tables.sh DB_DIR TABLES_DIR [GAME...]}
tables=${2:?usage: scripts/tables.sh DB_DIR TABLES_DIR [GAME...]}
shift 2
games=("$@")
[ ${#games[@]} -gt 0 ] || games=(six six-diag five seven)
if [ -z "${MORRIS_BIN:-}" ]; then
  cargo build --release --quiet
fi
bin=${MORRIS_BIN:-target/release/morris}
report=$(mktemp)
trap 'rm -f "$report"' EXIT
for game in "${games[@]}"; do
  for removal in ${REMOVALS:-standard strict}; do
    rules=(--variant "$game" --removal "$removal")
    name="$game-$removal"
    echo "== $name: tables"
    /usr/bin/time -f "$name tables: %e s wall, %M KB peak" \
      "$bin" "${rules[@]}" tables --db "$db" --out "$tables" --threads "${THREADS:-2}" --quiet --json > "$report"
    echo "== $name: check"
    "$bin" "${rules[@]}" check --tables "$tables" --quiet
    folder=$(ls -d "$tables/$game".pieces-*.removal-"$removal".* | head -1)
    python3 scripts/tables_manifest.py make "$report" "$folder" > "data/results/$name-tables.json"
    python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))
print("%s: wdl %d + depth %d bytes, database %d" % (sys.argv[2], m["wdl_bytes"], m["depth_bytes"], m["database_bytes"]))' \
      "data/results/$name-tables.json" "$name"
  done
done
