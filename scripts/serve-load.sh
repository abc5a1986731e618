#!/usr/bin/env bash
# The serve load test on its own: solves nine's endgames (--max-pieces 4), starts `morris serve`
# on a free loopback port, and has 50 clients make 20,000 random queries over keep-alive
# connections, each answer checked byte for byte against the library's. Prints the throughput
# and the p50/p99/max latencies (also in target/tmp/serve-load.txt). Loopback only; bounded.
#
# Usage: scripts/serve-load.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1}
for run in $(seq 1 "$runs"); do
  cargo test --release --quiet --test serve_load -- --exact fifty_clients_make_twenty_thousand_queries_of_nine_endgames >/dev/null 2>&1 \
    || { echo "run $run: the load test failed; rerun with: cargo test --release --test serve_load -- --nocapture" >&2; exit 1; }
  echo "run $run: $(cat target/tmp/serve-load.txt)"
done
