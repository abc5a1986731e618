"""The Python package against the command line: every answer, every error message, from the
same folders.

The fixtures solve six (the whole game), seven and nine (`--max-pieces 5`) with the `morris`
binary ($MORRIS_BIN, default target/release/morris of the repository) and build six's tables;
the tests ask the package and `morris query --json -` the same thousands of positions and want
the same answers, the same analyses and the same error messages.
"""

import json
import os
import random
import shutil
import sqlite3
import struct
import subprocess
import threading
import time
from pathlib import Path

import pytest

import morris

REPO = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("MORRIS_BIN", REPO / "target" / "release" / "morris"))

# Positions per variant compared with the command line.
SAMPLE = 3000


def cli(*args, stdin=None, check=True):
    """Runs `morris ARGS...` and returns its standard output."""
    run = subprocess.run(
        [str(BIN), *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
    )
    if check and run.returncode != 0:
        raise AssertionError(f"morris {' '.join(map(str, args))}: exit {run.returncode}\n{run.stderr}")
    return run.stdout


def cli_query(variant, source, texts, extra=()):
    """`morris --variant V query SOURCE --json [EXTRA] -` for each text: its JSON objects, in
    order."""
    out = subprocess.run(
        [str(BIN), "--variant", variant, "query", *map(str, source), "--json", *extra, "-"],
        input="".join(t + "\n" for t in texts),
        capture_output=True,
        text=True,
    ).stdout
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == len(texts)
    return lines


@pytest.fixture(scope="session")
def folders(tmp_path_factory):
    """Six solved whole, seven and nine up to five pieces a side, and six's tables."""
    if not BIN.exists():
        pytest.fail(f"no morris binary at {BIN}: run `cargo build --release` or set MORRIS_BIN")
    root = tmp_path_factory.mktemp("morris")
    db, tables = root / "db", root / "tables"
    cli("--variant", "six", "solve", "--db", db, "-q")
    cli("--variant", "seven", "solve", "--max-pieces", "5", "--db", db, "-q")
    cli("--variant", "nine", "solve", "--max-pieces", "5", "--db", db, "-q")
    cli("--variant", "six", "tables", "--db", db, "--out", tables, "-q")
    return {"db": db, "tables": tables, "root": root}


def board_text(variant, white, black, turn, white_hand=0, black_hand=0):
    """The notation of a board with `white` and `black` (point names) on it."""
    rows = str(variant.start()).split()[0].split("/")
    points = iter(variant.points)
    ranks = []
    for row in rows:
        rank = ""
        for _ in row:
            p = next(points)
            rank += "W" if p in white else "B" if p in black else "."
        ranks.append(rank)
    return f"{'/'.join(ranks)} {turn} {white_hand} {black_hand}"


def random_boards(variant, n, rng, low=3, high=5):
    """`n` random moving-phase boards with `low` to `high` pieces a side."""
    out = []
    for _ in range(n):
        w, b = rng.randint(low, high), rng.randint(low, high)
        chosen = rng.sample(variant.points, w + b)
        out.append(board_text(variant, set(chosen[:w]), set(chosen[w:]), rng.choice("wb")))
    return out


def random_games(variant, n, rng):
    """`n` distinct positions met in random games from the start."""
    seen, out = set(), []
    while len(out) < n:
        p = variant.start()
        for _ in range(rng.randint(1, 80)):
            if str(p) not in seen:
                seen.add(str(p))
                out.append(str(p))
            moves = p.moves()
            if not moves:
                break
            p = p.play(rng.choice(moves))
    return out[:n]


@pytest.fixture(scope="session")
def samples():
    rng = random.Random(20261202)
    return {
        "six": random_games(morris.Variant("six"), SAMPLE, rng),
        "seven": random_boards(morris.Variant("seven"), SAMPLE, rng),
        "nine": random_boards(morris.Variant("nine"), SAMPLE, rng),
    }


def test_analysis_under_the_n_move_rule_is_the_command_lines(folders, samples):
    """`analysis(p, n_move_rule=N)` is `query --json --n-move-rule N`, a cursed win among them."""
    t = morris.open(folders["db"], "six")
    cursed = "WBW/WWB/WBW./.B./B.. w 0 0"
    texts = samples["six"][:80] + [cursed]
    expected = cli_query("six", ["--db", folders["db"]], texts, ["--n-move-rule", "100"])
    answered = 0
    for text, want in zip(texts, expected):
        if "error" not in want:
            assert t.analysis(text, n_move_rule=100) == want, text
            answered += 1
    assert answered > 40
    got = t.analysis(cursed, n_move_rule=100)
    assert (got["value"], got["rule_value"], got["n_move_rule"]) == ("win", "cursed-win", 100)
    assert t.analysis(cursed, n_move_rule=1000)["rule_value"] == "win"
    plain = t.analysis(cursed)
    assert "rule_value" not in plain and "rule_value" not in plain["moves"][0]
    for n in (0, 30001):
        with pytest.raises(morris.BadInputError, match=f"n_move_rule takes N from 1 to 30000 plies, not {n}"):
            t.analysis(cursed, n_move_rule=n)


def agree(t, variant, source, texts):
    """Every text answered by the package as the command line answers it."""
    expected = cli_query(variant, source, texts)
    answered = errors = 0
    singles = []
    for i, (text, want) in enumerate(zip(texts, expected)):
        if "error" in want:
            with pytest.raises(morris.Error) as e:
                t.analysis(text)
            assert want["error"] == f"line {i + 1}: {e.value}"
            with pytest.raises(type(e.value)) as e2:
                t.probe(text)
            assert str(e2.value) == str(e.value)
            errors += 1
            singles.append(None)
            continue
        assert t.analysis(text) == want, text
        probe = t.probe(text)
        assert (probe.value, probe.depth) == (want["value"], want["depth"]), text
        assert t.outcome(text) == want["value"]
        position = morris.Position.parse(text, variant)
        assert str(position) == want["position"]
        assert t.probe(position) == probe
        best = t.best_move(text)
        assert t.best_move(position) == best
        if want["moves"]:
            # A move that keeps the position's value: as good as the analysis's first.
            first = want["moves"][0]
            chosen = [m for m in want["moves"] if m["move"] == best]
            assert chosen and (chosen[0]["value"], chosen[0]["depth"]) == (first["value"], first["depth"]), text
        else:
            assert best is None
        singles.append(probe)
        answered += 1
    assert t.probe_many(texts, errors="none") == singles
    assert answered > len(texts) // 2
    return answered, errors


@pytest.mark.parametrize("variant", ["six", "seven", "nine"])
def test_database_answers_as_the_command_line(folders, samples, variant):
    t = morris.open(folders["db"], variant)
    assert not t.is_tables
    assert t.variant == morris.Variant(variant)
    agree(t, variant, ["--db", folders["db"]], samples[variant])


def test_tables_answer_as_the_command_line(folders, samples):
    t = morris.open(folders["tables"], "six")
    assert t.is_tables
    agree(t, "six", ["--tables", folders["tables"]], samples["six"])


def test_wdl_only_tables_answer_values_and_never_a_depth(folders, samples, tmp_path):
    """Tables built with `--wdl-only` answer every value as the command line does (`analysis`
    with every depth None and "metric": None); a win's or a loss's depth is refused with
    NoDistanceError, never guessed; `outcome` and numpy batches answer without one."""
    wdl = tmp_path / "wdl"
    cli("--variant", "six", "tables", "--db", folders["db"], "--out", wdl, "--wdl-only", "-q")
    t, full = morris.open(wdl, "six"), morris.open(folders["db"], "six")
    assert t.is_tables
    texts = samples["six"]
    decided = 0
    for text, want in zip(texts, cli_query("six", ["--tables", wdl], texts)):
        if "error" in want:
            continue
        assert t.analysis(text) == want, text
        truth = full.probe(text)
        assert t.outcome(text) == truth.value == want["value"]
        if "metric" not in want:  # a finished position: lost at depth 0, read from no file
            assert (truth.value, truth.depth) == ("loss", 0) and want["depth"] == 0
            assert t.probe(text) == truth
            continue
        assert want["metric"] is None and want["depth"] is None
        assert all(m["depth"] is None for m in want["moves"])
        if truth.value == "draw":
            assert t.probe(text) == truth
            continue
        with pytest.raises(morris.NoDistanceError, match="Database.outcome") as e:
            t.probe(text)
        assert e.value.sector == morris.Position.parse(text, "six").sector
        decided += 1
    assert decided > len(texts) // 10


def test_positions_as_bitboards_round_trip_as_the_c_library_numbers_them(samples):
    for variant in ["six", "seven", "nine"]:
        v = morris.Variant(variant)
        for text in samples[variant][:300]:
            try:
                p = morris.Position.parse(text, variant)
            except morris.BadPositionError:
                continue
            white, black, white_hand, black_hand = p.bits
            # Bit i is the i-th point of the notation's ranks, slashes skipped.
            rows = str(p).split()[0].replace("/", "")
            assert white == sum(1 << i for i, c in enumerate(rows) if c == "W"), text
            assert black == sum(1 << i for i, c in enumerate(rows) if c == "B"), text
            assert len(rows) == len(v.points)
            q = morris.Position.from_bits(white, black, white_hand, black_hand, p.turn, variant)
            assert q == p and str(q) == str(p)
    nine = morris.Position.parse("W.B/.../.../...W../.../.../..B w 7 7", "nine")
    assert nine.bits == (1 | 1 << 12, 1 << 2 | 1 << 23, 7, 7)
    with pytest.raises(morris.BadPositionError, match="bit 24 is set"):
        morris.Position.from_bits(1 << 24, 0, 9, 9, "w", "nine")
    with pytest.raises(morris.BadPositionError, match="in both"):
        morris.Position.from_bits(1, 1, 8, 8, "w", "nine")
    with pytest.raises(morris.BadPositionError, match='"w" or "b"'):
        morris.Position.from_bits(0, 0, 9, 9, "x", "nine")
    with pytest.raises(morris.BadPositionError):
        morris.Position.from_bits(7, 0, 9, 9, "w", "nine")  # three white pieces, none placed
    assert morris.Position.from_bits(0, 0, 9, 9, "w") == morris.Position.start("nine")


def test_moves_are_move_objects(samples):
    import copy
    import pickle

    for text in samples["six"][:300] + samples["nine"][:300]:
        p = morris.Position.parse(text, "six" if text in samples["six"] else "nine")
        points = p.variant.points
        mine = p.bits[0] if p.turn == "w" else p.bits[1]
        for m in p.moves():
            assert isinstance(m, morris.Move) and isinstance(m, str)
            assert p.move(str(m)) == m and p.play(m) == p.play(str(m))
            rebuilt = (f"{m.from_point}-" if m.from_point else "") + m.to_point
            rebuilt += f"x{m.removed}" if m.removed else ""
            assert rebuilt == m
            bit = lambda name: 0 if name is None else 1 << points.index(name)  # noqa: E731
            assert m.bits == (bit(m.from_point), bit(m.to_point), bit(m.removed))
            assert (m.kind == "place") == (m.from_point is None)
            if m.from_point is not None:
                assert mine & m.bits[0]
    # Nine's board: a1-a4 and a1-d1 join; a1-b2 (no diagonals), a1-g7, d5-d3 do not.
    p = morris.Position.parse(".WW/.../.B./B....B/.../.../..W b 0 0", "nine")
    kinds = {m: m.kind for m in p.moves()}
    assert kinds["d5-d6"] == "slide" and kinds["a4-a1"] == "slide" and kinds["a4-b4"] == "slide"
    assert kinds["d5-d3"] == "fly" and kinds["a4-b2"] == "fly" and kinds["g4-a1"] == "fly"
    m = p.move(" d5-d6 ")
    assert (m, m.kind, m.from_point, m.to_point, m.removed, m.bits) == ("d5-d6", "slide", "d5", "d6", None, (128, 16, 0))
    assert repr(m) == "Move('d5-d6')" and str(m) == "d5-d6" and type(str(m)) is str
    assert json.dumps({m: [m]}) == '{"d5-d6": ["d5-d6"]}' and {m: 1}["d5-d6"] == 1
    for other in (pickle.loads(pickle.dumps(m)), copy.copy(m), copy.deepcopy(m)):
        assert type(other) is morris.Move and other == m and other.bits == m.bits and other.kind == "slide"
    with pytest.raises(AttributeError, match="immutable"):
        m.kind = "fly"
    with pytest.raises(morris.BadMoveError, match="not a legal move"):
        p.move("d5-d7")
    with pytest.raises(morris.BadMoveError):
        p.move("z9")
    with pytest.raises(TypeError):
        p.move(7)


def held_files(folder):
    """Every file of a folder's rule-set subfolders, by its path inside the folder."""
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(Path(folder).glob("*/*"))
        if p.is_file()
    }


def test_files_held_in_memory_answer_as_the_command_line(folders, samples):
    files = held_files(folders["tables"])
    # Any buffer will do: a memoryview and a bytearray among the bytes.
    first, second = sorted(files)[:2]
    files[first] = memoryview(files[first])
    files[second] = bytearray(files[second])
    t = morris.open_files(files)
    assert t.is_tables and t.variant == morris.Variant("six")
    agree(t, "six", ["--tables", folders["tables"]], samples["six"])
    # A database folder's files, of one rule set among several: named.
    db = {k: v for k, v in held_files(folders["db"]).items() if k.startswith("six.")}
    d = morris.open_files(db, "six", cache_bytes=1 << 20)
    assert not d.is_tables
    agree(d, "six", ["--db", folders["db"]], samples["six"][:200])
    with pytest.raises(morris.BadInputError, match="not bytes"):
        morris.open_files({first: 5})
    with pytest.raises(morris.BadInputError, match="not a path"):
        morris.open_files({5: b""})
    with pytest.raises(morris.MissingSectorError):
        morris.open_files({}, "six")
    # A damaged file is found as it is read, as from a folder: the start's table, one byte of
    # its header changed.
    damaged = dict(files)
    start = next(k for k in files if k.endswith("/0-0-6-6.wdl"))
    flipped = bytearray(files[start])
    flipped[100] ^= 0xFF
    damaged[start] = bytes(flipped)
    with pytest.raises(morris.DamagedFileError, match="0-0-6-6.wdl"):
        morris.open_files(damaged).outcome("start")


def test_several_folders_read_as_one(folders, samples, tmp_path):
    """Six's sectors split between two folders, some as sector files and some as tables, read
    through one Database as the whole folder is; each folder alone misses what the other
    holds."""
    (rule_set,) = [d for d in (folders["db"]).iterdir() if d.name.startswith("six.")]
    tables_dir = folders["tables"] / rule_set.name
    sectors = sorted(f.stem for f in rule_set.glob("*.sec"))
    halves = [tmp_path / "first", tmp_path / "second"]
    for k, half in enumerate(halves):
        (half / rule_set.name).mkdir(parents=True)
    for i, sector in enumerate(sectors):
        into = halves[i % 2] / rule_set.name
        if i % 4 == 1:  # some of the second folder's as tables
            for ext in ("wdl", "dtm"):
                shutil.copy(tables_dir / f"{sector}.{ext}", into / f"{sector}.{ext}")
        else:
            shutil.copy(rule_set / f"{sector}.sec", into / f"{sector}.sec")
    texts = samples["six"]
    whole = morris.open(folders["db"], "six")
    for both in (morris.open(halves, "six"), morris.open(tuple(halves)), morris.open(halves, "six", cache_bytes=1 << 20)):
        assert both.probe_many(texts, errors="none") == whole.probe_many(texts, errors="none")
        assert both.analysis("start") == whole.analysis("start")
    alone = morris.open(halves[0], "six")
    missed = [p for p in alone.probe_many(texts, errors="none") if p is None]
    assert len(missed) > len(texts) // 10
    with pytest.raises(morris.BadInputError, match="empty"):
        morris.open([], "six")
    with pytest.raises(morris.BadInputError, match="not a folder"):
        morris.open([halves[0], rule_set / f"{sectors[0]}.sec"], "six")


def test_open_finds_the_folders_rule_set(folders):
    # The one-liner: a folder of six alone needs no variant.
    t = morris.open(folders["tables"])
    assert t.variant == morris.Variant("six") and t.is_tables
    assert repr(t.probe(morris.Position.start("six"))) == "Probe(value='draw', depth=None)"
    assert morris.stats(folders["tables"])["variant"] == "six"
    # A folder of three games asks which.
    with pytest.raises(morris.BadInputError, match="holds 3 rule sets") as e:
        morris.open(folders["db"])
    assert all(name in str(e.value) for name in ("six", "seven", "nine"))
    # Rule keywords narrow the search; none of these rules is solved there.
    with pytest.raises(morris.MissingSectorError, match="no solved rule set with these rules"):
        morris.open(folders["tables"], removal="strict")
    with pytest.raises(morris.MissingSectorError, match="no solved rule set"):
        morris.open(folders["root"])


def test_best_move_at_a_strength(folders):
    t = morris.open(folders["db"], "six")
    # Two of the four moves win, two draw: the strong level all but always wins, the novice
    # gives the win away far more often; each is the same move for the same seed.
    position = ".W./WBB/WWB./BBW/... w 0 0"
    analysis = t.analysis(position)
    values = {m["move"]: m["value"] for m in analysis["moves"]}
    assert analysis["value"] == "win" and sorted(values.values()) == ["draw", "draw", "win", "win"]

    def wins(strength):
        return sum(values[t.best_move(position, strength=strength, seed=s)] == "win" for s in range(300))

    strong, novice = wins("strong"), wins("novice")
    assert strong >= 285 and novice <= 250 and novice >= 120, (strong, novice)
    for s in range(20):
        assert t.best_move(position, strength="club", seed=s) == t.best_move(position, strength="club", seed=s)
        # Perfect play keeps the value whatever the seed.
        assert values[t.best_move(position, seed=s)] == "win"
    assert t.best_move(position, strength="perfect") == t.best_move(position)
    with pytest.raises(morris.BadInputError, match='unknown strength value "master"'):
        t.best_move(position, strength="master")


def test_moves_are_the_command_lines(samples):
    texts = samples["six"][:500]
    out = cli("--variant", "six", "moves", "--json", "-", stdin="".join(t + "\n" for t in texts))
    for text, line in zip(texts, out.splitlines()):
        assert morris.Position.parse(text, "six").moves() == json.loads(line)


def test_variants_are_the_command_lines():
    listed = json.loads(cli("variants", "--json"))
    assert morris.variants() == [v["name"] for v in listed]
    for v in listed:
        assert morris.Variant(v["name"]).info == v


def test_positions():
    six = morris.Variant("six")
    p = morris.Position.start(six)
    assert p == six.start() == morris.Position.parse("start", "six")
    assert str(p).endswith(" w 6 6") and set(str(p).split()[0]) == {".", "/"}
    assert p.turn == "w" and p.sector == "0-0-6-6"
    assert p.variant == six
    q = p.play(p.moves()[0])
    assert q.turn == "b" and q.sector == "0-1-6-5"
    assert morris.Position.parse(str(q), six) == q
    assert len({p, q, six.start()}) == 2
    nine = morris.Position.start()
    assert nine.variant.name == "nine"
    assert str(nine) == ".../.../.../....../.../.../... w 9 9"
    assert morris.Position.parse(".../.../.../....../.../.../... w 9 9") == nine
    strict = morris.Variant("nine", removal="strict")
    assert strict.rules["removal"] == "strict" and repr(strict) == "Variant('nine', removal='strict')"
    assert strict != morris.Variant("nine")
    assert morris.Probe("win", 3) == morris.Probe("win", 3)
    value, depth = morris.Probe("draw")
    assert (value, depth) == ("draw", None)


def test_errors(folders):
    six = morris.Variant("six")
    t = morris.open(folders["db"], six)
    white = six.points[:2]
    black = six.points[5:8]
    cases = [
        "not a position",
        "W/B w 0 0",
        # Black to move, White (who just moved) with two pieces: no game gets there.
        board_text(six, set(white), set(black), "b"),
    ]
    expected = cli_query("six", ["--db", folders["db"]], cases)
    for i, (text, want) in enumerate(zip(cases, expected)):
        with pytest.raises(morris.BadPositionError) as e:
            t.probe(text)
        assert want["error"] == f"line {i + 1}: {e.value}"
        with pytest.raises(morris.BadPositionError):
            six.parse(text)
        with pytest.raises(morris.BadPositionError):
            t.probe_many(["start", text])
    assert isinstance(e.value, morris.BadInputError) and isinstance(e.value, morris.Error)
    assert "cannot occur in a game" in str(e.value)
    with pytest.raises(morris.BadInputError, match="unknown variant"):
        morris.Variant("ten")
    with pytest.raises(morris.BadInputError, match="unknown removal value"):
        morris.Variant("nine", removal="gentle")
    with pytest.raises(morris.BadMoveError):
        six.start().play("z9")
    with pytest.raises(morris.BadMoveError, match="not a legal move"):
        six.start().play("a1-a3")
    with pytest.raises(TypeError):
        t.probe(42)
    with pytest.raises(morris.BadPositionError, match="a position of nine"):
        t.probe(morris.Position.start("nine"))


def test_mapped_and_cached_reading_answer_alike(folders, samples, tmp_path):
    """Sector files are mapped by default, as the command line reads them; with cache_bytes
    they are read through a cache of checked blocks, the answers the same. A file truncated
    under a cached reader is a DamagedFileError naming it, never a crash, and answers again
    once it is whole."""
    mapped = morris.open(folders["db"], "nine")
    cached = morris.open(folders["db"], "nine", cache_bytes=1 << 20)
    texts = samples["nine"][:500]
    assert mapped.probe_many(texts, errors="none") == cached.probe_many(texts, errors="none")
    tables = morris.open(folders["tables"], "six", cache_bytes=4096)
    assert tables.probe_many(samples["six"][:300], errors="none") == morris.open(
        folders["db"], "six"
    ).probe_many(samples["six"][:300], errors="none")
    with pytest.raises(morris.BadInputError, match="must be an integer from 0 to"):
        morris.open(folders["db"], "six", cache_bytes=-1)
    copy = tmp_path / "db"
    shutil.copytree(folders["db"], copy)
    t = morris.open(copy, "six", cache_bytes=1 << 20)
    position = samples["six"][0]
    rule_set = next(d for d in os.listdir(copy) if d.startswith("six."))
    path = copy / rule_set / f"{morris.Position.parse(position, 'six').sector}.sec"
    whole = path.read_bytes()
    value = t.probe(position)
    fresh = morris.open(copy, "six", cache_bytes=1 << 20)
    with open(path, "r+b") as f:
        f.truncate(len(whole) // 2)
    with pytest.raises(morris.DamagedFileError) as e:
        fresh.probe(position)
    assert e.value.path.endswith(path.name)
    path.write_bytes(whole)
    assert fresh.probe(position) == value


def test_with_close_and_get_as_chess_syzygy_has_them(folders):
    """A Database is a context manager and closes (later calls raise ValueError, closing again
    does nothing); get() answers None or the default for an unsolved sector, and raises the
    other errors as probe() does."""
    with morris.open(folders["db"], "nine") as t:
        assert not t.closed
        assert t.get("start") is None and t.get("start", "unsolved") == "unsolved"
        endgame = morris.Position.parse(".WW/.../.B./B....B/.../.../..W b 0 0", "nine")
        assert t.get(endgame) == t.probe(endgame)
        with pytest.raises(morris.BadPositionError):
            t.get("not a position")
    assert t.closed
    for call in (lambda: t.probe("start"), t.sectors, lambda: t.is_tables, lambda: t.probe_many(["start"])):
        with pytest.raises(ValueError, match="is closed"):
            call()
    t.close()


def test_a_missing_sector_is_a_key_error_whose_text_is_the_message(folders):
    """As chess.syzygy's MissingTableError: `except KeyError` catches a position the folder
    does not cover, and the exception still reads as morris's message, not as a quoted key."""
    assert issubclass(morris.MissingSectorError, morris.Error)
    assert issubclass(morris.MissingSectorError, KeyError)
    assert morris.MissingSectorError.__module__ == "morris"
    t = morris.open(folders["db"], "nine")
    with pytest.raises(KeyError) as caught:
        t.probe("start")
    e = caught.value
    assert type(e) is morris.MissingSectorError
    assert e.sector == "0-0-9-9" and e.command.startswith("morris solve --variant nine")
    assert str(e).startswith("sector 0-0-9-9 ") and not str(e).startswith("'")
    assert e.command in str(e)


def test_a_position_of_other_rules_is_refused(folders):
    """A position means something only under its own rules: a database of the standard rules
    never answers a position parsed under strict removal (it would give another game's value),
    from sector files or tables, one by one or by the batch; the message names both rule sets."""
    text = "..W/.B./BB.W/..B/.BW w 0 0"
    strict = morris.Position.parse(text, "six", removal="strict")
    standard = morris.Position.parse(text, "six")
    for source in (folders["db"], folders["tables"]):
        t = morris.open(source, "six")
        assert t.probe(standard) == t.probe(text)
        for call in (t.probe, t.outcome, t.analysis, t.best_move, lambda p: t.probe_many([p])):
            with pytest.raises(morris.BadPositionError) as e:
                call(strict)
            message = str(e.value)
            assert "removal-strict" in message and "removal-standard" in message, message
        assert t.probe_many([strict], errors="none") == [None]


def test_text_and_counts_that_python_cannot_pass_on_are_bad_input(folders, tmp_path):
    """A lone surrogate in a text, a negative or huge count: the documented errors, never
    UnicodeEncodeError, TypeError for a str or OverflowError."""
    t = morris.open(folders["db"], "six")
    six = morris.Variant("six")
    lone = "W.B/.../.W.B/.../W.. b 3 4\ud800"
    with pytest.raises(morris.BadPositionError, match="lone surrogate"):
        t.probe(lone)
    with pytest.raises(morris.BadPositionError, match="^item 1: .*lone surrogate"):
        t.probe_many(["start", lone])
    assert t.probe_many(["start", lone], errors="none")[1] is None
    with pytest.raises(morris.BadPositionError, match="lone surrogate"):
        six.parse(lone)
    with pytest.raises(morris.BadPositionError, match="lone surrogate"):
        morris.Position.parse(lone, "six")
    with pytest.raises(morris.BadMoveError, match="lone surrogate"):
        six.start().play("a5\udc80")
    for bad in (
        lambda: morris.Variant("six\ud800"),
        lambda: morris.Variant("six", removal="strict\ud800"),
        lambda: morris.open(folders["db"], "six\ud800"),
        lambda: morris.open(str(tmp_path / "db\ud800"), "six"),
        lambda: t.best_move("start", strength="club\ud800"),
        lambda: t.probe_many(["start"], errors="none\ud800"),
        lambda: morris.solve(tmp_path / "s", "six", sector="3-3-0-0\ud800"),
        lambda: morris.Probe("win\ud800", 1),
    ):
        with pytest.raises(morris.BadInputError):
            bad()
    for bad in (
        lambda: t.best_move("start", seed=-1),
        lambda: t.best_move("start", seed=2**64),
        lambda: morris.solve(tmp_path / "s", "six", max_pieces=-1),
        lambda: morris.solve(tmp_path / "s", "six", max_pieces=300),
        lambda: morris.solve(tmp_path / "s", "six", threads=-1),
        lambda: morris.verify(folders["db"], "six", max_faults=-1),
        lambda: morris.Probe("win", -1),
    ):
        with pytest.raises(morris.BadInputError, match="must be an integer from 0 to"):
            bad()
    with pytest.raises(TypeError):
        t.best_move("start", seed="7")
    assert not (tmp_path / "s").exists()


def test_a_missing_sector_names_the_command_that_solves_it(folders):
    nine = morris.Variant("nine")
    t = morris.open(folders["db"], nine)
    pts = nine.points
    # Six pieces a side in the moving phase: sector 6-6-0-0, beyond --max-pieces 5.
    text = board_text(nine, set(pts[0:6]), set(pts[10:16]), "w")
    [want] = cli_query("nine", ["--db", folders["db"]], [text])
    with pytest.raises(morris.MissingSectorError) as e:
        t.probe(text)
    assert want["error"] == f"line 1: {e.value}"
    assert e.value.sector == "6-6-0-0"
    assert e.value.command.startswith("morris solve --variant nine")
    assert f"run `{e.value.command}`" in str(e.value)
    assert t.probe_many([text], errors="none") == [None]
    solved = board_text(nine, set(pts[:3]), set(pts[5:8]), "w")
    with pytest.raises(morris.MissingSectorError, match="item 1: sector 6-6-0-0 is not solved"):
        t.probe_many([solved, text])
    # A folder with nothing of the rule set.
    with pytest.raises(morris.MissingSectorError, match="no solved sectors of nine"):
        morris.open(folders["root"] / "empty", "nine")
    with pytest.raises(morris.MissingSectorError, match="no such folder"):
        morris.open(folders["root"] / "empty")
    with pytest.raises(morris.MissingSectorError, match="no solved sectors of nine"):
        morris.open(folders["db"], "nine", flying="always")
    with pytest.raises(morris.BadInputError, match="not a folder"):
        morris.open(Path(__file__))


def damaged_copy(folders, tmp_path, tables=False):
    """A copy of six's database (or tables) with a byte of sector 3-3-0-0's payload flipped."""
    source = folders["tables" if tables else "db"]
    copy = tmp_path / ("tables" if tables else "db")
    shutil.copytree(source, copy)
    [folder] = [d for d in copy.iterdir() if d.name.startswith("six.")]
    path = folder / ("3-3-0-0.wdl" if tables else "3-3-0-0.sec")
    data = bytearray(path.read_bytes())
    if tables:
        at = len(data) - 1  # in the last block's compressed bytes
    else:
        (payload,) = struct.unpack_from("<Q", data, 288)
        at = payload + 7
    data[at] ^= 0xFF
    path.write_bytes(bytes(data))
    return copy, path


@pytest.mark.parametrize("tables", [False, True])
def test_a_damaged_file_is_reported(folders, tmp_path, tables):
    copy, path = damaged_copy(folders, tmp_path, tables)
    six = morris.Variant("six")
    t = morris.open(copy, six)
    pts = six.points
    text = board_text(six, {pts[0], pts[1], pts[6]}, {pts[3], pts[9], pts[12]}, "w")
    source = ["--tables" if tables else "--db", copy]
    [want] = cli_query("six", source, [text])
    with pytest.raises(morris.DamagedFileError) as e:
        t.probe(text)
    assert want["error"] == f"line 1: {e.value}"
    assert "damaged" in str(e.value) and e.value.path == str(path)
    report = morris.verify(copy, six, sector="3-3-0-0")
    assert not report["sound"] and report["fault_count"] >= 1


def test_probe_many_is_probe_one_by_one(folders):
    nine = morris.Variant("nine")
    t = morris.open(folders["db"], nine)
    texts = random_boards(nine, 100_000, random.Random(7))
    start = time.perf_counter()
    many = t.probe_many(texts, errors="none")
    batch = time.perf_counter() - start
    start = time.perf_counter()
    ones = []
    for text in texts:
        try:
            ones.append(t.probe(text))
        except morris.Error:
            ones.append(None)
    single = time.perf_counter() - start
    assert many == ones
    assert sum(p is not None for p in many) > 90_000
    positions = [nine.parse(text) for text in texts[:10_000]]
    assert t.probe_many(positions) == t.probe_many(texts[:10_000])
    assert t.probe_many(iter(positions[:10])) == many[:10]
    assert t.probe_many(tuple(positions[:10])) == many[:10]

    # A batch whose items come from a generator that runs batches of its own.
    def nested():
        for i, p in enumerate(positions[:300]):
            assert t.probe_many([p, texts[i]]) == [many[i], many[i]]
            yield p

    assert t.probe_many(nested()) == many[:300]
    assert t.probe_many(positions[:10]) == many[:10]

    # An iterable other than a list runs on the calling thread: objects bound to it (a
    # sqlite3 cursor refuses any other thread) serve as they would in a loop.
    con = sqlite3.connect(":memory:")
    con.execute("create table p (text)")
    con.executemany("insert into p values (?)", ((text,) for text in texts[:5_000]))
    me = threading.get_ident()
    seen = set()

    def rows():
        for (text,) in con.execute("select text from p order by rowid"):
            seen.add(threading.get_ident())
            yield text

    assert t.probe_many(rows(), errors="none") == many[:5_000]
    assert seen == {me}
    con.close()

    # Batches are probed a chunk at a time while the next chunk is taken apart: the first
    # failure in the mixed's order is raised, whichever chunk (and whichever kind) it is in.
    pts = nine.points
    miss = board_text(nine, set(pts[0:6]), set(pts[10:16]), "w")  # 6-6-0-0, not solved
    solved = texts[:20_000]
    mixed = list(solved)
    mixed[15_000] = miss
    mixed[3] = "not a position"
    with pytest.raises(morris.BadPositionError, match="^item 3: "):
        t.probe_many(mixed)
    mixed = list(solved)
    mixed[17] = miss
    mixed[9_000] = "not a position"
    with pytest.raises(morris.MissingSectorError, match="^item 17: "):
        t.probe_many(mixed)
    mixed[17] = solved[17]
    with pytest.raises(morris.BadPositionError, match="^item 9000: "):
        t.probe_many(iter(mixed))
    got = t.probe_many(mixed, errors="none")
    assert got[9_000] is None and got[:9_000] == t.probe_many(solved[:9_000])
    print(f"100000 probes: probe_many {batch:.2f} s, one by one {single:.2f} s")


def test_probe_many_of_a_numpy_array_of_bitboards(folders):
    """An (N, 5) array of bitboards answers as probe_many of the same positions does, in two
    arrays; a bad row is an item's error (or -2 under errors="none"); a wrong shape or dtype
    is refused."""
    np = pytest.importorskip("numpy")
    nine = morris.Variant("nine")
    t = morris.open(folders["db"], nine)
    texts = random_boards(nine, 20_000, random.Random(11))
    rows = []
    for text in texts:
        p = nine.parse(text)
        rows.append(list(p.bits) + [0 if p.turn == "w" else 1])
    for dtype in ("int64", "uint32", "int32"):
        array = np.array(rows, dtype=dtype)
        values, depths = t.probe_many(array, errors="none")
        assert values.dtype == np.int8 and depths.dtype == np.int16
        assert values.shape == depths.shape == (len(texts),)
        probes = t.probe_many(texts, errors="none")
        code = {"win": 1, "draw": 0, "loss": -1}
        for k, p in enumerate(probes):
            if p is None:
                assert (values[k], depths[k]) == (-2, -1), texts[k]
            else:
                assert values[k] == code[p.value], texts[k]
                assert depths[k] == (-1 if p.depth is None else p.depth), texts[k]
    assert (values != -2).sum() > 18_000
    # A column slice (not contiguous) reads the same.
    wide = np.zeros((len(rows), 7), dtype=np.int64)
    wide[:, 1:6] = rows
    assert (t.probe_many(wide[:, 1:6], errors="none")[0] == values).all()
    bad = np.array([rows[0], [1 << 24, 0, 0, 0, 0], rows[1], [0, 0, 0, 0, 2]], dtype=np.int64)
    with pytest.raises(morris.BadInputError, match="item 1: bit 24 is set"):
        t.probe_many(bad)
    got, _ = t.probe_many(bad, errors="none")
    assert list(got[[1, 3]]) == [-2, -2]
    with pytest.raises(morris.BadPositionError, match="item 1: .*turn must be 0"):
        t.probe_many(bad[2:])
    with pytest.raises(morris.BadInputError, match="shape"):
        t.probe_many(np.zeros((3, 4), dtype=np.int64))
    with pytest.raises(TypeError, match="integers"):
        t.probe_many(np.zeros((3, 5), dtype=np.float64))
    empty_values, empty_depths = t.probe_many(np.zeros((0, 5), dtype=np.int64))
    assert empty_values.shape == empty_depths.shape == (0,)


def test_threads_probe_at_once(folders, samples):
    six = morris.open(folders["tables"], "six")
    nine = morris.open(folders["db"], "nine")
    jobs = [(six, samples["six"]), (nine, samples["nine"])]
    expected = [t.probe_many(texts, errors="none") for t, texts in jobs]
    barrier = threading.Barrier(8)
    results, failures = {}, []

    def work(k):
        try:
            t, texts = jobs[k % 2]
            barrier.wait()
            out = []
            for text in texts:
                try:
                    out.append(t.probe(text))
                except morris.Error:
                    out.append(None)
            results[k] = out
            # Batches at once from several threads, each of several chunks, from a list and
            # from a generator: each runs on a pool worker that may probe another's chunks.
            many = texts * (3000 // len(texts) + 1)
            for r in range(3):
                given = many if (k + r) % 2 else (x for x in many)
                if t.probe_many(given, errors="none") != expected[k % 2] * (3000 // len(texts) + 1):
                    failures.append(f"thread {k}: probe_many differs")
        except BaseException as e:  # noqa: BLE001 - reported below
            failures.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not failures
    for k in range(8):
        assert results[k] == expected[k % 2]


def test_solve_stats_verify(folders, tmp_path):
    db = tmp_path / "db"
    calls = []
    ticks = [0]
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks[0] += 1
            time.sleep(0.001)

    # The GIL is released while solving: another thread runs meanwhile.
    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        report = morris.solve(db, "six", progress=lambda done, total: calls.append((done, total)))
    finally:
        stop.set()
        ticker.join()
    assert report["units"] == report["solved"] > 0 and report["already_done"] == 0
    assert report["start"] == {"value": "draw", "depth": None}
    assert calls and calls[-1][0] == calls[-1][1] > 0
    assert all(a[0] <= b[0] for a, b in zip(calls, calls[1:]))
    assert ticks[0] > 10
    again = morris.solve(db, "six")
    assert again["solved"] == 0 and again["already_done"] == report["units"]

    stats = morris.stats(db, "six")
    assert stats == json.loads(cli("--variant", "six", "stats", "--db", db, "--json"))
    # The same solve gives the same files as the command line's.
    assert stats == json.loads(cli("--variant", "six", "stats", "--db", folders["db"], "--json"))
    assert morris.open(db, "six").stats() == stats
    tables = morris.stats(folders["tables"], "six")
    assert tables == json.loads(cli("--variant", "six", "stats", "--tables", folders["tables"], "--json"))

    class Bar:
        """A tqdm-style bar."""

        def __init__(self):
            self.total, self.n = None, 0

        def update(self, n):
            self.n += n

    bar = Bar()
    proof = morris.verify(db, "six", progress=bar)
    assert proof["sound"] and proof["fault_count"] == 0 and proof["faults"] == []
    assert proof["sectors"] == len(stats["sectors"])
    assert bar.total > 0 and bar.n == bar.total
    assert morris.verify(folders["tables"], "six", sector="3-3-0-0")["sound"]
    with pytest.raises(morris.BadInputError, match="invalid sector"):
        morris.verify(db, "six", sector="9-9-9-9")
    with pytest.raises(morris.BadInputError, match="at least 3 pieces"):
        morris.solve(db, "six", max_pieces=2)


def test_a_compact_solve_writes_the_tables_of_the_plain_database(folders, tmp_path):
    db = tmp_path / "compact"
    report = morris.solve(db, "six", compact=True)
    assert report["units"] == report["solved"] > 0
    assert report["start"] == {"value": "draw", "depth": None}

    def files(root):
        (rule_set,) = [d for d in root.iterdir() if d.is_dir()]
        return {f.name: f.read_bytes() for f in rule_set.iterdir() if f.suffix != ".lock"}

    compact = files(db)
    assert compact == files(folders["tables"])
    assert not any(name.endswith(".sec") for name in compact)
    with morris.open(db, "six") as t:
        assert t.probe(morris.Variant("six").start()).value == "draw"


def test_a_failing_callback_stops_the_solve(tmp_path):
    db = tmp_path / "db"

    def progress(done, total):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        morris.solve(db, "nine", max_pieces=4, progress=progress)
    assert not list(db.rglob("*.tmp"))
    # The folder is left as an interrupted command line run leaves it: solving goes on.
    assert morris.solve(db, "nine", max_pieces=4)["units"] > 0


def test_a_failing_callback_stops_the_proof_and_a_resumed_proof_finishes(tmp_path):
    db = tmp_path / "db"
    morris.solve(db, "six")
    calls = []

    def progress(done, total):
        calls.append(done)
        if len(calls) == 3:
            raise RuntimeError("stop the proof")

    with pytest.raises(RuntimeError, match="stop the proof"):
        morris.verify(db, "six", resume=True, progress=progress)
    # What was proved before the stop is recorded; the rest is proved now, and sound.
    report = morris.verify(db, "six", resume=True)
    assert report["faults"] == [] and report["fault_count"] == 0
    assert report["skipped"] < report["sectors"]


def test_ctrl_c_stops_the_solve(tmp_path):
    import _thread
    import signal

    db = tmp_path / "db"
    # A run started in the background of a script begins with SIGINT ignored, and
    # interrupt_main then does nothing: the test installs Python's own handler.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    start = time.perf_counter()
    try:
        with pytest.raises(KeyboardInterrupt):
            morris.solve(db, "nine", max_pieces=5)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert time.perf_counter() - start < 6
    assert not list(db.rglob("*.tmp"))
