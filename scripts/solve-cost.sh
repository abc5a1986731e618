#!/usr/bin/env bash
# The cost of solving, unit by unit: runs `solve --sector` once per work unit of a plan, in
# dependency order, each in its own process, and prints per unit the index slots, wall time and
# peak resident memory (bytes per slot too), then the totals and the database's size on disk.
#
# Usage: scripts/solve-cost.sh DB_DIR [solve options, e.g. --variant nine --max-pieces 6 --threads 2]
# MORRIS_BIN=path uses that binary instead of building target/release/morris.
set -euo pipefail
cd "$(dirname "$0")/.."
db=${1:?usage: scripts/solve-cost.sh DB_DIR [solve options]}
shift
if [ -z "${MORRIS_BIN:-}" ]; then
  cargo build --release --quiet
fi
bin=${MORRIS_BIN:-target/release/morris}
variant_args=()
solve_args=()
plan_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --variant|--flying|--removal|--phases|--full-board) variant_args+=("$1" "$2"); shift 2 ;;
    --threads) solve_args+=("$1" "$2"); shift 2 ;;
    *) plan_args+=("$1"); shift ;;
  esac
done
printf '%-26s %14s %10s %10s %12s\n' unit slots "wall s" "peak MB" "bytes/slot"
total_wall=0
"$bin" "${variant_args[@]}" solve --plan "${plan_args[@]}" | awk '$3 == "cyclic" || $3 == "forward"' | while read -r _ slots _ sectors; do
  first=${sectors%% *}
  /usr/bin/time -f '%e %M' -o "$db.time" "$bin" "${variant_args[@]}" solve --quiet --db "$db" --sector "$first" "${solve_args[@]}" >/dev/null
  read -r wall kb < "$db.time"
  printf '%-26s %14s %10.2f %10.1f %12.2f\n' "$sectors" "$slots" "$wall" "$(echo "$kb/1024" | bc -l)" "$(echo "$kb*1024/$slots" | bc -l)"
done
du -sh "$db"
