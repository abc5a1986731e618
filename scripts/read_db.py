#!/usr/bin/env python3
"""Reference reader of morris databases (format 2, index layout 1), written from docs/format.md.

    python3 scripts/read_db.py --db DIR --variant NAME [--flying X] [--removal X]
                               [--phases X] [--full-board X] < positions

Reads one position per line in the notation `ROWS TURN WHITE_HAND BLACK_HAND` (or `start`) and
prints one line each: `win 13`, `loss 0`, `draw -`, or `error: <reason>` (then it goes on, and
exits 1 at the end). It answers what `morris query --json -` answers for the position's own value:

- a position that cannot occur in a game (the side that just moved has fewer than three pieces,
  or no game from the start reaches its sector) is an error;
- a finished position (the mover has fewer than three pieces on the board and in hand) is
  `loss 0`, solved or not;
- a position whose sector, or the sector of one of its moves' results, is not solved is an
  error (query values every move too);
- otherwise the value is the cell of the position's slot.

The options select the rule-set folder `DIR/VARIANT.RULESETID` (docs/format.md §1): a built-in
variant's defaults, each overridden by its option; for any other name (a custom board) the one
folder of that name whose rules fit the options given. Everything else (pieces per side, every
rule, the board's points, lines, mills and symmetry group) is read from the sector files'
headers, so the reader is right for any board and rule set; a built-in variant's board is only
checked against (`morris query` refuses a file of another board) and used when nothing of the
rule set is solved, to answer the positions that need no file. Every header field
that can be checked without hashing is checked; the xxh3-64 checksums are not verified, since
Python's standard library has no xxh3. Dependency-free, Python 3.11.
"""
import argparse
import os
import re
import struct
import sys
from math import comb

MAGIC, FORMAT, LAYOUT, HEADER_SIZE = b"MORRISDB", 2, 1, 4096
# The rule switches, each value's header code being its place in the list, in rule-set id order.
RULES = {"flying": ["never", "three", "always"], "removal": ["standard", "strict", "lenient"],
         "phases": ["separate", "lasker"], "full-board": ["loss", "draw"], "no-move": ["loss"]}
# The built-in variants (src/variant.rs): pieces, default flying, phases and full board (every
# one defaults to removal standard and no-move loss), and the board's lines, used to find the
# folder, to check the files' boards, and to answer finished positions when nothing is solved.
NINE = ("a7-d7-g7 b6-d6-f6 c5-d5-e5 a4-b4-c4 e4-f4-g4 c3-d3-e3 b2-d2-f2 a1-d1-g1 "
        "a7-a4-a1 b6-b4-b2 c5-c4-c3 d7-d6-d5 d3-d2-d1 e5-e4-e3 f6-f4-f2 g7-g4-g1")
TWELVE = NINE + " a7-b6-c5 g7-f6-e5 a1-b2-c3 g1-f2-e3"
SIX = ("a5-c5-e5 e5-e3-e1 a1-c1-e1 a5-a3-a1 b4-c4-d4 d4-d3-d2 b2-c2-d2 b4-b3-b2 "
       "c5-c4 a3-b3 d3-e3 c1-c2")
SIX_DIAG = SIX + " a5-b4 e5-d4 a1-b2 e1-d2"
SEVEN = ("a5-c5-e5 e5-e3-e1 a1-c1-e1 a5-a3-a1 b4-c4-d4 d4-d3-d2 b2-c2-d2 b4-b3-b2 "
         "c5-c4-c3-c2-c1 a3-b3-c3-d3-e3")
THREE = "a3-b3-c3 a2-b2-c2 a1-b1-c1 a3-a2-a1 b3-b2-b1 c3-c2-c1"
DEFAULTS = {
    "nine": (9, "three", "separate", "loss", NINE),
    "six": (6, "never", "separate", "loss", SIX),
    "six-diag": (6, "never", "separate", "loss", SIX_DIAG),
    "five": (5, "never", "separate", "loss", SIX),
    "seven": (7, "never", "separate", "loss", SEVEN),
    "three": (3, "never", "separate", "loss", THREE),
    "three-diag": (3, "never", "separate", "loss", THREE + " a1-b2-c3 a3-b2-c1"),
    "twelve": (12, "never", "separate", "draw", TWELVE),
    "lasker": (10, "three", "lasker", "loss", NINE),
    "morabaraba": (12, "three", "separate", "draw", TWELVE),
}
HEAD = struct.Struct("<8sIIII32s128s8B4BIQ8QIIQQQI1024s")
ID = re.compile(r"pieces-(\d+)\.flying-(\w+)\.removal-(\w+)\.phases-(\w+)\.full-board-(\w+)"
                r"\.no-move-(\w+)")


def rule_set_id(rules):
    """The stable text of a rule set (§1), from {switch: value} with "pieces" an int."""
    return ".".join([f"pieces-{rules['pieces']}"] + [f"{k}-{rules[k]}" for k in RULES])


def parse_rule_set_id(text):
    """{switch: value} of a rule-set id, or None when the text is not one."""
    m = ID.fullmatch(text)
    if not m or any(v not in RULES[k] for k, v in zip(RULES, m.groups()[1:])):
        return None
    return dict(pieces=int(m[1]), **dict(zip(RULES, m.groups()[1:])))


def read_header(path):
    with open(path, "rb") as f:
        raw = f.read(HEADER_SIZE)
        size = f.seek(0, os.SEEK_END)
    if len(raw) < HEADER_SIZE:
        raise ValueError(f"{path}: {len(raw)} bytes, shorter than the header")
    v = HEAD.unpack_from(raw)
    text = lambda b: b.rstrip(b"\0").decode("ascii")
    h = dict(magic=v[0], format=v[1], layout=v[2], header_size=v[3], block_size=v[4],
             variant=text(v[5]), rules=text(v[6]), sector=tuple(v[15:19]), width=v[19],
             slots=v[20], blocks=v[31], payload=v[32], lines=v[35][:v[34]].decode("ascii"),
             rule_bytes=tuple(v[7:13]), file_size=size)
    if h["magic"] != MAGIC:
        raise ValueError(f"{path}: not a morris database file (bad magic)")
    for key, want in (("format", FORMAT), ("layout", LAYOUT), ("header_size", HEADER_SIZE)):
        if h[key] != want:
            raise ValueError(f"{path}: {key} {h[key]}, this reader knows {want}")
    return h


def header_rules(h, path):
    """The rule set the header's rule bytes (184-189) spell, checked against its rule-set id."""
    pieces, *codes = h["rule_bytes"]
    if any(c >= len(RULES[k]) for k, c in zip(RULES, codes)):
        raise ValueError(f"{path}: unknown rule codes {h['rule_bytes']}")
    rules = dict(pieces=pieces, **{k: RULES[k][c] for k, c in zip(RULES, codes)})
    if rule_set_id(rules) != h["rules"]:
        raise ValueError(f"{path}: rule bytes {h['rule_bytes']} say {rule_set_id(rules)}, "
                         f"the rule-set id says {h['rules']}")
    return rules


def popcount(x):
    return bin(x).count("1")


class Board:
    """Points in notation order, the lines and mills, and the automorphism group."""

    def __init__(self, lines_text):
        self.text = lines_text
        coords = [[(ord(p[0]) - 97, int(p[1:])) for p in l.split("-")] for l in lines_text.split()]
        pts = sorted({c for l in coords for c in l}, key=lambda c: (-c[1], c[0]))
        if len(pts) > 32:
            raise ValueError(f"a board of {len(pts)} points; a set of points is a u32")
        self.n, number = len(pts), {c: i for i, c in enumerate(pts)}
        self.all = (1 << self.n) - 1
        self.names = [chr(97 + f) + str(r) for f, r in pts]
        self.ranks = []  # point numbers per rank, top rank first
        for i, (f, r) in enumerate(pts):
            if self.ranks and pts[self.ranks[-1][0]][1] == r:
                self.ranks[-1].append(i)
            else:
                self.ranks.append([i])
        self.lines = [tuple(number[c] for c in l) for l in coords]
        self.mills = {frozenset(l[i:i + 3]) for l in self.lines for i in range(len(l) - 2)}
        self.adj = [set() for _ in range(self.n)]
        for l in self.lines:
            for a, b in zip(l, l[1:]):
                self.adj[a].add(b)
                self.adj[b].add(a)
        # The same as bit sets, for move generation.
        self.adj_mask = [sum(1 << q for q in a) for a in self.adj]
        mill_masks = [sum(1 << p for p in m) for m in self.mills]
        self.mills_at = [[m for m in mill_masks if m >> p & 1] for p in range(self.n)]
        self.mill_masks = mill_masks
        self.syms = []
        self._search([])
        # Each symmetry as four byte tables: applying it to a bit set costs four look-ups.
        self.tables = []
        for s in self.syms:
            t = [[0] * 256 for _ in range(4)]
            for chunk in range(4):
                for byte in range(256):
                    for bit in range(8):
                        p = 8 * chunk + bit
                        if byte >> bit & 1 and p < self.n:
                            t[chunk][byte] |= 1 << s[p]
            self.tables.append(t)
        self.orbits = {}

    def in_mill(self, pieces, p):
        """Whether the set `pieces` holds a whole mill through point p."""
        return any(pieces & m == m for m in self.mills_at[p])

    def mill_points(self, pieces):
        """The points of `pieces` that lie in a mill of `pieces`."""
        out = 0
        for m in self.mill_masks:
            if pieces & m == m:
                out |= m
        return out

    def _search(self, image):
        p = len(image)
        if p == self.n:
            line_set = set(self.lines) | {l[::-1] for l in self.lines}
            if all(tuple(image[q] for q in l) in line_set for l in self.lines) and \
                    all(frozenset(image[q] for q in m) in self.mills for m in self.mills):
                self.syms.append(tuple(image))
            return
        for c in range(self.n):
            if c not in image and len(self.adj[c]) == len(self.adj[p]) and \
                    all((q in self.adj[p]) == (image[q] in self.adj[c]) for q in range(p)):
                self._search(image + [c])

    def apply(self, s, x):
        t = self.tables[s]
        return t[0][x & 255] | t[1][x >> 8 & 255] | t[2][x >> 16 & 255] | t[3][x >> 24 & 255]

    def orbit_table(self, w):
        """For sets of w points: {set: orbit rank} and the representatives in increasing order."""
        if w not in self.orbits:
            rank, reps = {}, []
            x = (1 << w) - 1
            while x < 1 << self.n:  # every w-set in increasing numeric (= colex) order
                if x not in rank:
                    for s in range(len(self.syms)):
                        rank.setdefault(self.apply(s, x), len(reps))
                    reps.append(x)
                if x == 0:
                    break
                t = x | (x - 1)  # Gosper's hack: the next larger number with w bits
                x = (t + 1) | (((~t & -~t) - 1) >> ((x & -x).bit_length()))
            self.orbits[w] = (rank, reps)
        return self.orbits[w]

    def slot(self, mover, opponent, b):
        """The slot of a position within its sector: orbit rank * C(n - W, B) + k."""
        rank, reps = self.orbit_table(bin(mover).count("1"))
        r = rank[mover]
        rep = reps[r]
        free = ~rep & ((1 << self.n) - 1)
        k = min(squeezed_rank(self.apply(s, opponent), free)
                for s in range(len(self.syms)) if self.apply(s, mover) == rep)
        return r * comb(bin(free).count("1"), b) + k

    def slots(self, w, b):
        return len(self.orbit_table(w)[1]) * comb(self.n - w, b)


def squeezed_rank(x, free):
    """Colex rank of the set x among the sets of its size of the points of `free`."""
    rank, i = 0, 1
    while x:
        low = x & -x
        rank += comb(bin(free & (low - 1)).count("1"), i)
        i += 1
        x ^= low
    return rank


def sector_name(s):
    return "-".join(map(str, s))


class Reader:
    # The sector files' extension and the option naming the folder above the rule-set folders.
    # scripts/read_tables.py subclasses this reader, overriding these, read_header, header and
    # read_value to read compact tables instead of sector files.
    EXT, OPTION = ".sec", "--db"

    def __init__(self, args):
        self.variant = args.variant
        root = getattr(args, self.OPTION[2:].replace("-", "_"))
        chosen = {"flying": args.flying, "removal": args.removal, "phases": args.phases,
                  "full-board": args.full_board}
        chosen = {k: v for k, v in chosen.items() if v is not None}
        if os.path.isdir(root) and any(f.endswith(self.EXT) for f in os.listdir(root)):
            raise ValueError(f"{root} is a rule-set folder (it holds sector files); pass the "
                             f"folder above it to {self.OPTION}")
        builtin = DEFAULTS.get(self.variant)
        if builtin:
            pieces, flying, phases, full_board, lines = builtin
            rules = {"pieces": pieces, "flying": flying, "removal": "standard", "phases": phases,
                     "full-board": full_board, "no-move": "loss"}
            rules.update(chosen)
        else:
            rules, lines = self.find_rules(root, chosen), None
        self.rule_id = rule_set_id(rules)
        self.dir = os.path.join(root, f"{self.variant}.{self.rule_id}")
        # The rules and the board from the first sector file whose header reads and holds this
        # variant and rule set (and a built-in variant's board: query refuses another).
        names = sorted(os.listdir(self.dir)) if os.path.isdir(self.dir) else []
        first, why = None, (f"{self.dir} holds no sector files" if os.path.isdir(self.dir) else
                            f"nothing of {self.variant} with these rules is solved: no {self.dir}")
        sector_file = re.compile(r"\d+-\d+-\d+-\d+" + re.escape(self.EXT))
        for name in filter(sector_file.fullmatch, names):
            path = os.path.join(self.dir, name)
            try:
                h = self.read_header(path)
                if (h["variant"], header_rules(h, path)) != (self.variant, rules) or \
                        lines not in (None, h["lines"]):
                    raise ValueError(f"{path}: holds {h['variant']}.{h['rules']} on the board "
                                     f"{h['lines']!r}, not {self.variant}.{self.rule_id}")
                first = h
                break
            except (OSError, ValueError) as e:
                why = str(e)
        if first is None and not builtin:
            raise ValueError(why)  # a custom board with no readable file: nothing to go on
        # With nothing solved, a built-in variant's rules and board still answer the positions
        # that need no file (finished or impossible ones), as `morris query` does.
        self.rules = header_rules(first, self.dir) if first else rules
        self.lines = first["lines"] if first else lines
        self.rule_bytes = first["rule_bytes"] if first else (rules["pieces"],) + tuple(
            RULES[k].index(rules[k]) for k in RULES)
        self.pieces = self.rules["pieces"]
        self.lasker = self.rules["phases"] == "lasker"
        self.board = Board(self.lines)
        self.reachable = self.reachable_sectors()
        self.headers = {}

    def find_rules(self, db, chosen):
        """The rules of the one folder `VARIANT.RULESETID` in db that fits the options given."""
        found = []
        for name in sorted(os.listdir(db)) if os.path.isdir(db) else []:
            rules = name.startswith(self.variant + ".") and \
                parse_rule_set_id(name[len(self.variant) + 1:])
            if rules and all(rules[k] == v for k, v in chosen.items()):
                found.append(rules)
        if not found:
            raise ValueError(f"nothing of {self.variant} with these rules is solved in {db}")
        if len(found) > 1:
            raise ValueError(f"{db} holds {len(found)} rule sets of {self.variant}: "
                             f"{', '.join(map(rule_set_id, found))}; choose one with the options")
        return found[0]

    # The sector graph, as docs/format.md's sectors and the rules define it.

    def successors(self, sector):
        """Every sector one move leads to, seen from the new mover (terminal ones included): a
        placement while pieces are in hand; a move with none in hand, or with some under
        Lasker's phases; each plain, or with a removal once the mover has three on the board."""
        w, b, wh, bh = sector
        kinds = []
        if wh > 0:
            kinds.append((w + 1, wh - 1))
        if (wh == 0 or self.lasker) and w > 0:
            kinds.append((w, wh))
        out = []
        for after, hand in kinds:
            if after + b > self.board.n:
                continue
            out.append((b, after, bh, hand))
            if after >= 3 and b > 0:
                out.append((b - 1, after, bh, hand))
        return out

    def reachable_sectors(self):
        """Every sector some game from the start reaches, the terminal ones included."""
        start = (0, 0, self.pieces, self.pieces)
        inner, out, todo = {start}, set(), [start]
        while todo:
            for s in self.successors(todo.pop()):
                out.add(s)
                if s[0] + s[2] >= 3 and s not in inner:
                    inner.add(s)
                    todo.append(s)
        return inner | out

    def flies(self, pieces):
        """Whether a side that moves, with `pieces` on the board and in hand, may fly."""
        return {"never": False, "three": pieces == 3, "always": True}[self.rules["flying"]]

    def removable(self, opponent):
        free = opponent & ~self.board.mill_points(opponent)
        removal = self.rules["removal"]
        if removal == "lenient" or (removal == "standard" and not free):
            return opponent
        return free

    def child_sectors(self, mover, opponent, mh, oh):
        """The sectors of the positions the legal moves lead to (seen from the new mover)."""
        board, out = self.board, set()
        empty = board.all & ~(mover | opponent)
        if self.rules["full-board"] == "draw" and not empty:
            return out  # a full board is a draw: the game is over
        w, b = popcount(mover), popcount(opponent)

        def emit(after, to, hand):
            took = board.in_mill(after, to) and self.removable(opponent)
            out.add((b - 1 if took else b, popcount(after), oh, hand))

        points = lambda x: (p for p in range(board.n) if x >> p & 1)
        if mh > 0:
            for to in points(empty):
                emit(mover | 1 << to, to, mh - 1)
        if mh == 0 or self.lasker:
            fly = self.flies(w + mh)
            for src in points(mover):
                for to in points(empty if fly else board.adj_mask[src] & empty):
                    emit(mover & ~(1 << src) | 1 << to, to, mh)
        return out

    # Positions and files.

    def parse(self, text):
        """(mover set, opponent set, mover's hand, opponent's hand), refusing what query does."""
        text = text.strip()
        if text == "start":
            return 0, 0, self.pieces, self.pieces
        fields = text.split()
        if len(fields) != 4:
            raise ValueError(f"expected 4 fields `ROWS TURN WHITE_HAND BLACK_HAND`, found {len(fields)}")
        rows = fields[0].split("/")
        if len(rows) != len(self.board.ranks) or any(
                len(r) != len(pts) for r, pts in zip(rows, self.board.ranks)):
            raise ValueError("ROWS do not fit the board")
        sides = {"W": 0, "B": 0}
        for row, pts in zip(rows, self.board.ranks):
            for c, p in zip(row, pts):
                if c in sides:
                    sides[c] |= 1 << p
                elif c != ".":
                    raise ValueError(f"unexpected character {c!r}")
        if fields[1] not in ("w", "b"):
            raise ValueError(f"turn must be w or b, found {fields[1]!r}")
        hands = {}
        for c, field in zip("WB", fields[2:]):
            if not re.fullmatch(r"[0-9]+", field) or int(field) > self.pieces:
                raise ValueError(f"{c}'s hand {field!r} is not a number up to {self.pieces}")
            hands[c] = int(field)
            if popcount(sides[c]) + hands[c] > self.pieces:
                raise ValueError(f"{c} has more than {self.pieces} pieces")
        w, b = hands["W"], hands["B"]
        if not self.lasker and fields[1] == "w" and w != b:
            raise ValueError(f"with White to move both hands must be equal, found {w} and {b}")
        if not self.lasker and fields[1] == "b" and not (b == w + 1 or w == b == 0):
            raise ValueError(f"with Black to move Black's hand must be one more than White's "
                             f"(or both 0), found {w} and {b}")
        me, you = ("W", "B") if fields[1] == "w" else ("B", "W")
        return sides[me], sides[you], hands[me], hands[you]

    def read_header(self, path):
        return read_header(path)

    def header(self, sector):
        """The checked header of a sector's file (opened), or an error if it is not solved."""
        if sector not in self.headers:
            path = os.path.join(self.dir, sector_name(sector) + ".sec")
            if not os.path.lexists(path):
                raise ValueError(f"sector {sector_name(sector)} is not solved")
            h = read_header(path)
            slots = self.board.slots(sector[0], sector[1])
            want = dict(variant=self.variant, rules=self.rule_id, rule_bytes=self.rule_bytes,
                        sector=sector, lines=self.lines, slots=slots)
            for key, value in want.items():
                if h[key] != value:
                    raise ValueError(f"{path}: {key} {h[key]!r}, expected {value!r}")
            if h["width"] not in (1, 2):
                raise ValueError(f"{path}: cell width {h['width']}")
            if h["block_size"] < 4096 or h["block_size"] & (h["block_size"] - 1):
                raise ValueError(f"{path}: block size {h['block_size']}")
            size = slots * h["width"]
            blocks = -(-size // h["block_size"])
            if h["blocks"] != blocks or h["payload"] != -(-(4096 + 8 * blocks) // 4096) * 4096:
                raise ValueError(f"{path}: block count {h['blocks']} or payload offset "
                                 f"{h['payload']} does not fit {slots} slots")
            if h["file_size"] != h["payload"] + size:
                raise ValueError(f"{path}: {h['file_size']} bytes, the header promises "
                                 f"{h['payload'] + size}")
            h["file"] = open(path, "rb")
            self.headers[sector] = h
        return self.headers[sector]

    def value(self, text):
        mover, opponent, mh, oh = self.parse(text)
        sector = (popcount(mover), popcount(opponent), mh, oh)
        if sector[1] + oh < 3:
            raise ValueError("cannot occur in a game: the side that just moved has fewer than "
                             "three pieces, so the game ended before this position")
        if sector not in self.reachable:
            raise ValueError(f"cannot occur in a game: no game from the start reaches sector "
                             f"{sector_name(sector)}")
        if sector[0] + mh < 3:
            return "loss 0"  # finished: no file holds it
        answer = self.read_value(sector, mover, opponent)
        # `morris query` values every move too: a move into a sector that is not solved (or
        # whose file is refused) makes the question unanswerable. Only when some successor
        # sector is missing are the moves generated, to see whether one leads there.
        missing = {}
        for s in self.successors(sector):
            if s[0] + s[2] >= 3:
                try:
                    self.header(s)
                except (OSError, ValueError) as e:
                    missing[s] = e
        if missing:
            for s in self.child_sectors(mover, opponent, mh, oh):
                if s in missing:
                    raise ValueError(f"a move leads to sector {sector_name(s)}: {missing[s]}")
        return answer

    def read_value(self, sector, mover, opponent):
        """The answer (`win 13`, `loss 0`, `draw -`) the cell of the position's slot holds."""
        h = self.header(sector)
        w = h["width"]
        h["file"].seek(h["payload"] + w * self.board.slot(mover, opponent, sector[1]))
        cell = int.from_bytes(h["file"].read(w), "little")
        top = 255 if w == 1 else 65535
        if cell == top - 1:
            raise ValueError("the position's slot is marked unused")
        return "draw -" if cell == top else f"{'win' if cell % 2 else 'loss'} {cell}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--variant", required=True,
                    help=f"{', '.join(DEFAULTS)}, or the name of a custom board's folder")
    for rule in ("flying", "removal", "phases", "full-board"):
        ap.add_argument(f"--{rule}", choices=RULES[rule], help="default: the variant's")
    args = ap.parse_args()
    try:
        reader = Reader(args)
    except (OSError, ValueError) as e:
        reader, why = None, str(e)
    failed = False
    for raw in sys.stdin.buffer:
        try:
            if reader is None:
                raise ValueError(why)
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise ValueError("not UTF-8") from None
            out = reader.value(line)
        except (OSError, ValueError) as e:
            out, failed = f"error: {e}", True
        print(out)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
