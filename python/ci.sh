#!/usr/bin/env bash
# What CI runs for the Python package: a fresh virtual environment, `pip install ./python pytest
# tqdm matplotlib` into it (pip fetches maturin from PyPI through pyproject.toml's build-system and
# builds the abi3 wheel with cargo), then the tests against the `morris` binary, docs/python.md's
# examples among them (python/tests/test_docs.py). Needs `cargo build --release` of the
# repository first (the tests solve their databases with the binary).
# Exits non-zero when anything fails.
#
#   bash python/ci.sh               # from anywhere in a clone
#   MORRIS_BIN=/path/to/morris bash python/ci.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
target=${CARGO_TARGET_DIR:-$root/target}
export MORRIS_BIN=${MORRIS_BIN:-$target/release/morris}
if [ ! -x "$MORRIS_BIN" ]; then
  echo "python/ci.sh: no morris binary at $MORRIS_BIN: run \`cargo build --release\` first" >&2
  exit 1
fi

started=$(date +%s)
cargo clippy --release -p morris-python -- -D warnings
venv=${MORRIS_PYTHON_VENV:-$target/python-ci}
rm -rf "$venv"
if ! python3 -m venv "$venv"; then
  # Debian's python3 keeps venv (ensurepip) in a package of its own.
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-venv >/dev/null
  rm -rf "$venv"
  python3 -m venv "$venv"
fi
# tqdm and matplotlib are no dependencies of the package, but docs/python.md's examples use them
# and python/tests/test_docs.py runs every example (under CI=true a missing one fails, not skips).
"$venv/bin/python" -m pip install -q ./python pytest tqdm matplotlib
echo "python/ci.sh: installed in $(( $(date +%s) - started )) s"

# The one abi3 wheel imports and answers on every other CPython from 3.9 on that the machine
# has (pyenv's versions, where there are any): the wheel pip built above, installed as is.
wheels="$target/python-wheels"
rm -rf "$wheels"
"$venv/bin/python" -m pip wheel -q --no-deps -w "$wheels" ./python
wheel=$(ls "$wheels"/morris-*.whl)
echo "python/ci.sh: $(basename "$wheel")"
case "$(basename "$wheel")" in *-cp39-abi3-*) ;; *) echo "not an abi3 wheel for CPython 3.9+" >&2; exit 1 ;; esac
for py in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.*/bin/python3; do
  [ -x "$py" ] || continue
  version=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  "$py" -c 'import sys; sys.exit(sys.version_info < (3, 9))' || continue
  other="$target/python-ci-$version"
  rm -rf "$other"
  "$py" -m venv "$other"
  "$other/bin/python" -m pip install -q "$wheel"
  "$other/bin/python" -c '
import morris
p = morris.Position.start("six").play("a5")
assert str(p) == "W../.../..../.../... b 5 6", p
assert "nine" in morris.variants()
' && echo "python/ci.sh: the wheel imports and plays on CPython $version"
  rm -rf "$other"
done

# From the repository root, so that `import morris` is the installed package, not python/morris.
"$venv/bin/python" -m pytest python/tests -q -p no:cacheprovider "$@"

# The speed benchmarks, small, so that they keep running: python/bench.py on nine's tables and
# database to 4 pieces a side, then the library's tables bench on the very positions Python
# timed (criterion's --test mode: each benchmark once), as docs/python.md compares them.
bench="$target/bench-small"
rm -rf "$bench"
"$MORRIS_BIN" --variant nine solve --max-pieces 4 --db "$bench/db" >/dev/null 2>&1
"$MORRIS_BIN" --variant nine tables --db "$bench/db" --out "$bench/tables" >/dev/null 2>&1
"$venv/bin/python" python/bench.py "$bench/tables" --count 2000 --runs 1 --write-sample "$bench/sample"
"$venv/bin/python" python/bench.py "$bench/db" --count 2000 --runs 1
MORRIS_TABLES="$bench/tables" MORRIS_SAMPLE="$bench/sample" cargo bench -q --bench tables -- --test
echo "python/ci.sh: done in $(( $(date +%s) - started )) s"
