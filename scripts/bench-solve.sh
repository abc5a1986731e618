#!/usr/bin/env bash
# Whole-run timings: solves nine --max-pieces 5, and the whole of six and seven, each into a fresh
# folder with one and with two threads, RUNS times (default 3). Prints per run the wall time,
# canonical positions solved per second and peak memory, then min/median/max per job, and the
# determinism hash of the files (sha256 over the sorted sector files), which must be the same for
# every run and thread count.
#
# Usage: scripts/bench-solve.sh [RUNS]       (needs GNU time at /usr/bin/time)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
cargo build --release --quiet
bin=target/release/morris
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

hash_of() { (cd "$1"/*/ && sha256sum -- *.sec | sha256sum | cut -c1-16); }
positions_of() { "$bin" --variant "$1" stats --json --db "$2" | python3 -c 'import json,sys; print(sum(s["positions"] for s in json.load(sys.stdin)["sectors"]))'; }

printf '%-28s %7s %3s %9s %14s %9s  %s\n' job threads run "wall s" "positions/s" "peak MB" hash
declare -A times hashes
for job in "nine --max-pieces 5" "six" "seven"; do
  set -- $job
  variant=$1; shift
  for threads in 1 2; do
    for run in $(seq 1 "$runs"); do
      db="$work/db"
      rm -rf "$db"
      /usr/bin/time -f '%e %M' -o "$work/time" "$bin" --variant "$variant" solve --quiet --threads "$threads" --db "$db" "$@" >/dev/null
      read -r wall kb < "$work/time"
      n=$(positions_of "$variant" "$db")
      h=$(hash_of "$db")
      printf '%-28s %7s %3s %9.2f %14.0f %9.1f  %s\n' "$variant $*" "$threads" "$run" "$wall" "$(echo "$n / $wall" | bc -l)" "$(echo "$kb / 1024" | bc -l)" "$h"
      times["$variant $* $threads"]+="$wall "
      hashes["$variant $*"]+="$h "
    done
  done
done
echo
echo "min / median / max wall seconds:"
for key in "${!times[@]}"; do
  echo "${times[$key]}" | tr ' ' '\n' | grep . | sort -n | awk -v k="$key" '{a[NR]=$1} END {printf "  %-30s threads=%s  %.2f / %.2f / %.2f\n", substr(k,1,length(k)-2), substr(k,length(k)), a[1], a[int((NR+1)/2)], a[NR]}'
done | sort
status=0
for key in "${!hashes[@]}"; do
  distinct=$(echo "${hashes[$key]}" | tr ' ' '\n' | grep . | sort -u | wc -l)
  if [ "$distinct" -ne 1 ]; then
    echo "DETERMINISM FAILURE: $key gave $distinct different hashes: ${hashes[$key]}"
    status=1
  fi
done
[ "$status" -eq 0 ] && echo "determinism: every run and thread count gave the same files"
exit "$status"
