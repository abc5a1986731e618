#!/usr/bin/env bash
# The library as WebAssembly: wasm/ (a program that answers positions from tables) built for
# wasm32-wasip1 with no C code (the library without default features, with `pure-rust-zstd`:
# ruzstd decodes the tables, no libzstd; no thread is started, no file mapped), run under
# Node.js's WASI on tables of six that the command line builds, each answer compared with
# `morris query --json --tables`.
# Needs `cargo build --release` first, Node.js 20 or later, and rustup's wasm32-wasip1 target.
#
#   bash scripts/wasm.sh [GAMES]      # positions of GAMES random games (default 300)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-300}
target=${CARGO_TARGET_DIR:-$PWD/target}
morris=$target/release/morris
[ -x "$morris" ] || { echo "scripts/wasm.sh: no $morris: run \`cargo build --release\` first" >&2; exit 1; }
CARGO_TARGET_DIR="$target" cargo build -q --release --manifest-path wasm/Cargo.toml \
  --target wasm32-wasip1
wasm=$target/wasm32-wasip1/release/read_tables.wasm
work=$target/wasm-check
rm -rf "$work"
mkdir -p "$work"
"$morris" --variant six solve --db "$work/db" >/dev/null 2>&1
"$morris" --variant six tables --db "$work/db" --out "$work/tables" >/dev/null 2>&1
# The flag is needed by Node.js 18 (Debian's) and accepted by later ones.
run() { node --no-warnings --experimental-wasi-unstable-preview1 scripts/wasi_run.mjs "$wasm" "$work" "$@"; }
run --walk "$games" six >"$work/positions"
run /data/tables six <"$work/positions" >"$work/wasm.jsonl"
"$morris" --variant six query --tables "$work/tables" --json - <"$work/positions" >"$work/cli.jsonl"
n=$(wc -l <"$work/positions")
if ! cmp -s "$work/wasm.jsonl" "$work/cli.jsonl"; then
  echo "scripts/wasm.sh: the wasm build's answers differ from query --json:" >&2
  diff "$work/wasm.jsonl" "$work/cli.jsonl" | head -5 >&2
  exit 1
fi
echo "scripts/wasm.sh: $n positions of six answered by the wasm32-wasip1 build ($(du -k "$wasm" | cut -f1) KiB) as by query --json"
