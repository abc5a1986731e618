#!/usr/bin/env python3
"""Every example of docs/c.md runs and shows what the library really prints.

    python3 capi/tests/docs_examples.py TARGET_DIR WORK_DIR      (capi/ci.sh runs it)

TARGET_DIR holds release/ (libmorris.a, libmorris.so, morris) as `cargo build --release` left
it. The document runs from top to bottom in WORK_DIR, laid out as a checkout so that its commands
run as written: capi/include and target/release are links to the real ones, `morris` is first on
PATH, and every source block named in its info string (```` ```c example.c ````) is saved under
that name before anything runs, as a reader who saved the page's examples would have them.

By kind of block:

- ```` ```c NAME ````, ```` ```cpp NAME ````: compiled as C11 / C++17 with -Wall -Wextra -Werror
  against the header and libmorris.a (a warning in an example fails); the document's own
  commands compile and run them.
- ```` ```sh ````: commands, one a line (a line ending in `\\` goes on); each runs with bash in
  WORK_DIR and must exit 0. `cargo build` lines are not run: capi/ci.sh has just built the
  library with that command, and this folder is no checkout to build in.
- ```` ```text ```` right after `<!-- output of: COMMAND -->`: COMMAND runs in WORK_DIR, must exit
  0, and its standard output must be the block, line for line (trailing spaces ignored).
- ```` ```text ```` right after `<!-- message of: morris_probe_text(morris_open("F", "V", NULL),
  "P") == CODE -->`: the call is made through ctypes on libmorris.so; it must return CODE, and
  morris_last_error() must be the block's lines joined by spaces (the page wraps one long line).
- ```` ```dart ````: not compiled (no Dart SDK installs from the registries CI reaches); every
  function it looks up must be exported by libmorris.so, and its open and probe, replayed
  through ctypes, must give the value and depth its `// VALUE, DEPTH` comment shows.
- Any other block, or a ```` ```text ```` block without a marker, fails, so that a new example is
  not left unrun.

Prints one line per check and `docs: N passed, M failed`; exits 1 on any failure. Under CI=true
nothing is skipped: a missing C++ compiler fails.
"""

import ctypes
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "c.md"
TIMEOUT = 300
IN_CI = os.environ.get("CI") == "true"

# Commands the page shows that are not run here, by how they start, with why.
NOT_RUN = {
    "cargo build": "capi/ci.sh built the library with this command before running the examples",
    "rustup target add": "a phone's targets: they need the network and that platform's SDK",
    "cargo install cargo-ndk": "a phone's tool, fetched from the network",
    "cargo ndk": "an Android build, which needs the Android NDK",
    "xcodebuild": "an iOS build, which needs Xcode on macOS",
}


class Value(ctypes.Structure):
    _fields_ = [("value", ctypes.c_int32), ("depth", ctypes.c_int32)]


def blocks(text):
    """The fenced blocks: (line of the fence, language, name, body, marker of the line above)."""
    out, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        m = re.match(r"^```(\S*)\s*(\S*)", lines[i])
        if m is None:
            i += 1
            continue
        fence = i
        marker = None
        if i > 0:
            mm = re.match(r"^<!-- (output of|message of): (.*) -->$", lines[i - 1])
            if mm:
                marker = (mm.group(1), mm.group(2))
        i += 1
        while i < len(lines) and lines[i] != "```":
            i += 1
        if i == len(lines):
            raise SystemExit(f"{DOC.name}:{fence + 1}: a block that is never closed")
        body = "\n".join(lines[fence + 1 : i]) + "\n"
        out.append((fence + 1, m.group(1), m.group(2), body, marker))
        i += 1
    return out


def commands(body):
    """A sh block's commands: lines joined where one ends in `\\`, remarks dropped."""
    out, pending = [], ""
    for line in body.splitlines():
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line, pending = (pending + line).strip(), ""
        if line and not line.startswith("#"):
            out.append(line)
    return out


def needs_skipped(command, skipped):
    """Whether a command names a skipped source (`example.cpp`) or runs a skipped program (`./x`)."""
    return any(re.search(rf"(^|\s)(\./)?{re.escape(n)}(\s|$)", command) for n in skipped)


def header_constants():
    """The header's `#define MORRIS_NAME value`s."""
    text = (REPO / "capi" / "include" / "morris.h").read_text()
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"#define (MORRIS_\w+) (-?\d+)", text)}


class Run:
    def __init__(self, target, work):
        self.release = target.resolve() / "release"
        self.work = work
        self.passed = 0
        self.failed = 0
        self.env = dict(os.environ, PATH=f"{self.release}{os.pathsep}{os.environ.get('PATH', '')}")
        self.lib = None

    def ok(self, line, what):
        self.passed += 1
        print(f"docs: ok   {DOC.name}:{line}: {what}")

    def fail(self, line, what, detail=""):
        self.failed += 1
        print(f"docs: FAIL {DOC.name}:{line}: {what}")
        if detail:
            print("    " + detail.rstrip().replace("\n", "\n    "))

    def shell(self, command):
        return subprocess.run(
            ["bash", "-o", "pipefail", "-c", command],
            cwd=self.work,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )

    def library(self):
        if self.lib is None:
            lib = ctypes.CDLL(str(self.release / "libmorris.so"))
            lib.morris_open.restype = ctypes.c_void_p
            lib.morris_open.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p]
            lib.morris_probe_text.restype = ctypes.c_int
            lib.morris_probe_text.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(Value)]
            lib.morris_last_error.restype = ctypes.c_char_p
            lib.morris_last_error.argtypes = []
            lib.morris_close.restype = None
            lib.morris_close.argtypes = [ctypes.c_void_p]
            self.lib = lib
        return self.lib

    def probe(self, folder, variant, rules, position):
        """morris_probe_text(morris_open(folder, variant, rules), position): (code, value, error)."""
        lib = self.library()
        cwd = os.getcwd()
        os.chdir(self.work)  # the page's folders are relative to the checkout's root
        try:
            db = lib.morris_open(folder.encode(), variant.encode(), rules and rules.encode())
            if not db:
                return None, None, lib.morris_last_error().decode()
            v = Value()
            code = lib.morris_probe_text(db, position.encode(), ctypes.byref(v))
            error = lib.morris_last_error().decode()
            lib.morris_close(db)
            return code, (v.value, v.depth), error
        finally:
            os.chdir(cwd)

    def compile(self, line, lang, name):
        if lang == "c":
            compiler = os.environ.get("CC", "cc")
            flags = ["-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-pthread"]
        else:
            compiler = os.environ.get("CXX", "c++")
            flags = ["-std=c++17", "-O2", "-Wall", "-Wextra", "-Werror", "-pthread"]
        if shutil.which(compiler) is None:
            if IN_CI:
                self.fail(line, f"{name}: no {compiler} to compile it with")
            else:
                print(f"docs: SKIP {DOC.name}:{line}: {name}: no {compiler} (under CI=true this fails)")
            return False
        out = self.work / ".strict" / name
        run = subprocess.run(
            [compiler, *flags, "-Icapi/include", name, "target/release/libmorris.a", "-lm", "-ldl", "-o", str(out)],
            cwd=self.work,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        if run.returncode != 0:
            self.fail(line, f"{name} does not compile cleanly with {compiler} {' '.join(flags)}", run.stderr)
            return False
        self.ok(line, f"{name} compiles with {compiler} {' '.join(flags)}")
        return True

    def sh(self, line, body, skipped):
        for command in commands(body):
            why = next((w for p, w in NOT_RUN.items() if command.startswith(p)), None)
            if why:
                print(f"docs: not run {DOC.name}:{line}: `{command}`: {why}")
                continue
            if needs_skipped(command, skipped):
                # What it builds cannot be built either: the commands that run it are skipped too.
                skipped.update(re.findall(r"-o (\S+)", command))
                print(f"docs: SKIP {DOC.name}:{line}: `{command}`: its source was not compiled")
                continue
            run = self.shell(command)
            if run.returncode != 0:
                self.fail(line, f"`{command}` exited {run.returncode}", run.stdout + run.stderr)
            else:
                self.ok(line, f"`{command}`")

    def output(self, line, command, body):
        run = self.shell(command)
        if run.returncode != 0:
            self.fail(line, f"`{command}` exited {run.returncode}", run.stdout + run.stderr)
            return
        got = [l.rstrip() for l in run.stdout.rstrip("\n").split("\n")]
        want = [l.rstrip() for l in body.rstrip("\n").split("\n")]
        if got == want:
            self.ok(line, f"`{command}` prints the {len(want)} lines shown")
            return
        diff = "\n".join(
            [
                f"line {i + 1}: shown {w!r}\n        prints {g!r}"
                for i, (w, g) in enumerate(zip(want + [""] * len(got), got + [""] * len(want)))
                if w != g
            ][:5]
        )
        self.fail(line, f"`{command}` prints something else than the page shows", diff + "\nit prints:\n" + run.stdout)

    def message(self, line, call, body, constants):
        m = re.fullmatch(
            r'morris_probe_text\(morris_open\("([^"]*)", "([^"]*)", (NULL|"[^"]*")\), "([^"]*)"\) == (MORRIS_\w+)',
            call,
        )
        if m is None:
            self.fail(line, f"a message marker this script cannot replay: {call}")
            return
        folder, variant, rules, position, code = m.groups()
        rules = None if rules == "NULL" else rules.strip('"')
        got_code, _, error = self.probe(folder, variant, rules, position)
        want = " ".join(l.strip() for l in body.strip().split("\n"))
        if got_code != constants.get(code):
            self.fail(line, f"{call}: returned {got_code}, not {code}", error)
        elif error != want:
            self.fail(line, f"{call}: another message", f"shown  {want}\nprints {error}")
        else:
            self.ok(line, f"{call}, with the message shown")

    def dart(self, line, body):
        lib = self.library()
        path = re.search(r"DynamicLibrary\.open\('([^']*)'\)", body)
        names = re.findall(r"lookupFunction<[^']*>\('(\w+)'\)", body)
        opened = re.search(r"= open\('([^']*)'\.toNativeUtf8\(\), '([^']*)'\.toNativeUtf8\(\), nullptr\)", body)
        probed = re.search(r"probe\(db, '([^']*)'\.toNativeUtf8\(\), out\)", body)
        shown = re.search(r"print\(.*\);\s*// (-?\d+), (-?\d+)", body)
        if not (path and names and opened and probed and shown):
            self.fail(line, "the Dart example changed: teach capi/tests/docs_examples.py to check it")
            return
        if not (self.work / path.group(1)).exists():
            self.fail(line, f"the Dart example opens {path.group(1)}, which a checkout does not have")
            return
        absent = [n for n in names if not hasattr(lib, n)]
        if absent:
            self.fail(line, f"the Dart example looks up functions libmorris.so lacks: {', '.join(absent)}")
            return
        code, value, error = self.probe(opened.group(1), opened.group(2), None, probed.group(1))
        want = (int(shown.group(1)), int(shown.group(2)))
        if code != 0 or value != want:
            self.fail(line, f"the Dart example's probe, replayed: code {code}, value {value}, not {want}", error)
            return
        self.ok(line, f"the Dart example's {len(names)} functions exist; its probe, replayed, gives {want}")


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__.split("\n\n")[1])
    target, work = Path(sys.argv[1]), Path(sys.argv[2])
    work.mkdir(parents=True)
    (work / "capi").mkdir()
    (work / "capi" / "include").symlink_to(REPO / "capi" / "include")
    (work / "target").mkdir()
    (work / "target" / "release").symlink_to(target.resolve() / "release")
    (work / ".strict").mkdir()
    run = Run(target, work)
    constants = header_constants()
    found = blocks(DOC.read_text())

    for line, lang, name, body, _ in found:
        if lang in ("c", "cpp") and name:
            (work / name).write_text(body)

    skipped = set()  # sources not compiled for want of a compiler, and the programs built from them
    for line, lang, name, body, marker in found:
        if lang in ("c", "cpp"):
            if not name:
                run.fail(line, f"a ```{lang} block without a file name (```{lang} NAME), which is not compiled")
            elif not run.compile(line, lang, name):
                skipped.add(name)
        elif lang == "sh":
            run.sh(line, body, skipped)
        elif lang == "text" and marker and marker[0] == "output of":
            if needs_skipped(marker[1], skipped):
                print(f"docs: SKIP {DOC.name}:{line}: `{marker[1]}`: its program was not compiled")
            else:
                run.output(line, marker[1], body)
        elif lang == "text" and marker and marker[0] == "message of":
            run.message(line, marker[1], body, constants)
        elif lang == "text":
            run.fail(line, "a ```text block without <!-- output of: ... --> or <!-- message of: ... --> above it")
        elif lang == "dart":
            run.dart(line, body)
        else:
            run.fail(line, f"a ```{lang} block, which this script does not know how to check")

    print(f"docs: {run.passed} passed, {run.failed} failed")
    sys.exit(1 if run.failed else 0)


if __name__ == "__main__":
    main()
