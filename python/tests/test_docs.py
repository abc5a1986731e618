"""Every example of docs/python.md runs and shows what the package really prints.

The document is read as its fenced blocks, run from top to bottom in one temporary folder, so
that the relative paths the examples use ("db", "tables", ...) land there and a later block reads
what an earlier one wrote, as a reader following the page would. The `morris` under test
($MORRIS_BIN, default target/release/morris) is first on PATH, named `morris`. By kind:

- A ```` ```python ```` block whose first line starts with `>>>` is a session: doctest runs it,
  with no option flags, so every output and every exception (type and message) must be exactly
  what the document shows.
- Any other ```` ```python ```` block is a script: this interpreter runs it and it must exit 0
  within two minutes, with MPLBACKEND=Agg so that `plt.show()` returns instead of opening a window.
- A ```` ```sh ```` block is commands, one a line: each must exit 0 within two minutes. `pip
  install` lines are not run (python/ci.sh installs the package, tqdm and matplotlib into its
  environment, and installing here would change the environment under test); the module each
  names must import instead.
- A block of any other kind fails the test, so that a new kind of example is seen.

Each block runs in a namespace of its own: a session's names do not reach the next block. The
document makes each block self-contained (its imports, its `morris.open`), so that a reader can
copy any one alone; only the folders on disk carry over, in document order. Sharing one
namespace would let a block lean on a name defined far above it, which a reader copying that
block would not have.

A block that imports tqdm or matplotlib is skipped, with the reason, where the module is not
installed; under CI=true it fails instead, so that CI never passes by skipping.
"""

import doctest
import importlib.util
import io
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "python.md"
BIN = Path(os.environ.get("MORRIS_BIN", REPO / "target" / "release" / "morris"))
IN_CI = os.environ.get("CI") == "true"
TIMEOUT = 120

# What a `pip install X` line of the document installs, as the module that must import.
PIP_MODULES = {"./python": "morris", "tqdm": "tqdm", "matplotlib": "matplotlib"}

# Modules an example may need that are not the package's dependencies (python/ci.sh installs them).
OPTIONAL = {"tqdm", "matplotlib"}


def blocks(text):
    """The fenced blocks of a Markdown text: (language, first line number of the body, body)."""
    out, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        m = re.match(r"^```(\S*)", lines[i])
        if m is None:
            i += 1
            continue
        start, i = i + 1, i + 1
        while i < len(lines) and lines[i] != "```":
            i += 1
        if i == len(lines):
            raise AssertionError(f"{DOC.name}:{start}: a block that is never closed")
        out.append((m.group(1), start + 1, "\n".join(lines[start:i]) + "\n"))
        i += 1
    return out


BLOCKS = blocks(DOC.read_text())


def commands(body):
    """The commands of a sh block: lines joined where one ends in `\\`, remarks dropped."""
    out, pending = [], ""
    for line in body.splitlines():
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line, pending = (pending + line).strip(), ""
        if line and not line.startswith("#"):
            out.append(line)
    return out


def imported(body):
    """The top-level modules a Python block imports."""
    return set(re.findall(r"^(?:>>> |\.\.\. )?\s*(?:import|from)\s+(\w+)", body, re.M))


def missing_optional(names):
    """Fails under CI, skips elsewhere, when an optional module the example needs is missing."""
    missing = sorted(n for n in names if n in OPTIONAL and importlib.util.find_spec(n) is None)
    if missing:
        why = f"not installed: {', '.join(missing)} (python/ci.sh installs them: pip install {' '.join(missing)})"
        if IN_CI:
            pytest.fail(why)
        pytest.skip(why)


class Walk:
    """The document's blocks run in order, each once, in one folder; later ones may need earlier ones."""

    def __init__(self, root):
        self.root = root
        self.work = root / "work"
        self.work.mkdir()
        bindir = root / "bin"
        bindir.mkdir()
        (bindir / "morris").symlink_to(BIN.resolve())
        self.env = dict(os.environ, PATH=f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}", MPLBACKEND="Agg")
        self.done = {}

    def upto(self, index):
        """Runs every block before `index` not run yet (their failures are their own tests'), then `index`."""
        for i in range(index + 1):
            if i not in self.done:
                try:
                    self.done[i] = (None, self.run(*BLOCKS[i]))
                except BaseException as e:  # pytest's skip and fail are BaseExceptions
                    self.done[i] = (e, None)
        error, seconds = self.done[index]
        if error is not None:
            raise error
        return seconds

    def run(self, lang, line, body):
        started = time.monotonic()
        where = f"{DOC.name}:{line}"
        if lang == "python" and body.lstrip().startswith(">>>"):
            self.session(where, line, body)
        elif lang == "python":
            self.script(where, body)
        elif lang == "sh":
            self.shell(where, body)
        else:
            pytest.fail(f"{where}: a ```{lang} block, which this test does not know how to run")
        return time.monotonic() - started

    def session(self, where, line, body):
        missing_optional(imported(body))
        test = doctest.DocTestParser().get_doctest(
            body, {"__name__": "__main__"}, where, str(DOC), line - 1
        )
        assert test.examples, f"{where}: a session without examples"
        out = io.StringIO()
        runner = doctest.DocTestRunner(verbose=False, optionflags=0)
        cwd = os.getcwd()
        old_path = os.environ.get("PATH")
        os.chdir(self.work)
        os.environ["PATH"] = self.env["PATH"]
        try:
            result = runner.run(test, out=out.write, clear_globs=True)
        finally:
            os.chdir(cwd)
            if old_path is None:
                del os.environ["PATH"]
            else:
                os.environ["PATH"] = old_path
        if result.failed:
            pytest.fail(f"{where}: {result.failed} of {result.attempted} examples differ\n{out.getvalue()}")

    def script(self, where, body):
        missing_optional(imported(body))
        name = self.root / f"block-{where.rsplit(':', 1)[1]}.py"
        name.write_text(body)
        run = subprocess.run(
            [sys.executable, str(name)],
            cwd=self.work,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        if run.returncode != 0:
            pytest.fail(f"{where}: the script exited {run.returncode}\n{run.stdout}\n{run.stderr}")

    def shell(self, where, body):
        # The installs are checked after the other commands have run, so that a missing optional
        # module (a skip outside CI) does not leave the folders the next blocks read unmade.
        installs = []
        for command in commands(body):
            if command.startswith("pip install "):
                for arg in command.split("#")[0].split()[2:]:
                    module = PIP_MODULES.get(arg)
                    assert module, f"{where}: `{command}`: what does {arg} install? (PIP_MODULES)"
                    installs.append(module)
                continue
            run = subprocess.run(
                ["bash", "-o", "pipefail", "-c", command],
                cwd=self.work,
                env=self.env,
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
            )
            if run.returncode != 0:
                pytest.fail(f"{where}: `{command}` exited {run.returncode}\n{run.stdout}\n{run.stderr}")
        missing_optional(set(installs))
        for module in installs:
            assert importlib.util.find_spec(module), f"{where}: {module} does not import"


@pytest.fixture(scope="module")
def walk(tmp_path_factory):
    if not BIN.exists():
        pytest.fail(f"no morris binary at {BIN}: run `cargo build --release` or set MORRIS_BIN")
    return Walk(tmp_path_factory.mktemp("docs"))


def test_the_document_has_examples():
    kinds = {(lang, body.lstrip().startswith(">>>")) for lang, _, body in BLOCKS}
    # A session, a script and commands at least: a parser that finds none of them is broken.
    assert {("python", True), ("python", False), ("sh", False)} <= kinds, kinds


@pytest.mark.parametrize("index", range(len(BLOCKS)), ids=[f"line{b[1]}-{b[0]}" for b in BLOCKS])
def test_example(walk, index):
    seconds = walk.upto(index)
    # Examples stay quick so that the page's reader and CI both run them; a slow one shows here.
    print(f"{DOC.name}:{BLOCKS[index][1]}: {seconds:.1f} s")
