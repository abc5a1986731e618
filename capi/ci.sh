#!/usr/bin/env bash
# The C library's check, from a clean clone: the header is what the sources generate, the
# crate's lints and unit tests pass, and a C program compiled by `cc` against the header and
# linked to libmorris.a and to libmorris.so answers thousands of six's positions exactly as
# `morris query --json` does, from a database folder and from compact tables, also from 4
# threads at once, with the right error codes; and every example of docs/c.md compiles, runs and
# prints what the page shows (capi/tests/docs_examples.py).
#
#   bash capi/ci.sh              (from anywhere; builds in $CARGO_TARGET_DIR or target/)
#
# Exits non-zero on any failure. The work folder is removed unless MORRIS_KEEP=1.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
target="${CARGO_TARGET_DIR:-target}"
bin="$target/release/morris"
cc="${CC:-cc}"

work=$(mktemp -d "${TMPDIR:-/tmp}/morris-capi.XXXXXX")
if [ "${MORRIS_KEEP:-0}" != 1 ]; then
  trap 'rm -rf "$work"' EXIT
else
  echo "work folder: $work"
fi
step() { echo "capi: $* ($((SECONDS - started)) s)"; }

step "the header and the library"
# Fails when capi/include/morris.h differs from what capi/src/lib.rs generates.
MORRIS_CHECK_HEADER=1 cargo build --release -p morris-capi
cargo clippy --release -p morris-capi --all-targets -- -D warnings
cargo fmt -p morris-capi --check
cargo test --release -p morris-capi
# The command line, for the databases and the expected answers (CI built it before: a no-op).
cargo build --release --bin morris

step "six solved, its tables built"
"$bin" --variant six solve --db "$work/db" -q
"$bin" --variant six tables --db "$work/db" --out "$work/tables" -q
"$bin" --variant six tables --db "$work/db" --out "$work/wdl" --wdl-only -q
# A folder where only 3-3-0-0 is solved (the start is missing), and one whose start sector
# file is damaged (one byte of its header changed: the header checksum fails).
"$bin" --variant six solve --db "$work/partial" --sector 3-3-0-0 -q
rules=$(basename "$(ls -d "$work"/db/six.*)")
mkdir -p "$work/damaged/$rules"
cp "$work/db/$rules/0-0-6-6.sec" "$work/damaged/$rules/"
python3 - "$work/damaged/$rules/0-0-6-6.sec" <<'EOF'
import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(4000)
    byte = f.read(1)
    f.seek(4000)
    f.write(bytes([byte[0] ^ 0x5A]))
EOF

step "positions and query's answers"
python3 capi/tests/positions.py "$bin" six 60 7 >"$work/positions.txt"
"$bin" --variant six query --json --db "$work/db" - <"$work/positions.txt" >"$work/expected.jsonl"
echo "capi: $(wc -l <"$work/positions.txt") positions"

step "the C test, static and shared"
flags=(-std=c11 -O2 -Wall -Wextra -Werror -pthread -Icapi/include)
"$cc" "${flags[@]}" capi/tests/probe.c "$target/release/libmorris.a" -lm -ldl -o "$work/probe-static"
"$cc" "${flags[@]}" capi/tests/probe.c -L"$target/release" -lmorris -o "$work/probe-shared"
args=(--variant six --positions "$work/positions.txt" --expected "$work/expected.jsonl"
  --partial "$work/partial" --damaged "$work/damaged" --wdl-only "$work/wdl" "$work/db"
  "$work/tables")
"$work/probe-static" "${args[@]}"
LD_LIBRARY_PATH="$target/release" "$work/probe-shared" "${args[@]}"

step "the probe bench, small"
# capi/tests/bench.c times the calls on a sample (docs/c.md#speed has nine's figures); here it
# only has to build without warnings and answer every position of six's database and tables.
"$cc" "${flags[@]}" capi/tests/bench.c "$target/release/libmorris.a" -lm -ldl -o "$work/bench"
"$work/bench" "$work/db" six "$work/positions.txt"
"$work/bench" "$work/tables" six "$work/positions.txt"

step "docs/c.md's examples"
# Every example of the guide, compiled (warnings as errors) and run as the page says, in a folder
# of its own, its output compared with what the page shows.
python3 capi/tests/docs_examples.py "$target" "$work/docs"

step "passed"
