#!/usr/bin/env python3
"""Reference reader of morris compact tables (table format 1, index layout 1), written from
docs/tables.md (and docs/format.md for the index, §5, and the reading rules, §7).

    python3 scripts/read_tables.py --tables DIR --variant NAME [--flying X] [--removal X]
                                   [--phases X] [--full-board X] < positions

Reads one position per line in the notation `ROWS TURN WHITE_HAND BLACK_HAND` (or `start`) and
prints one line each: `win 13`, `loss 0`, `draw -`, `win -` or `loss -` (a win or a loss of a
sector held without its depth file), or `error: <reason>` (then it goes on, and exits 1 at the
end). It answers what `morris query --tables DIR --json -` answers for the
position's own value, with the same refusals as scripts/read_db.py (whose Reader it extends: the
board, the index, position parsing, reachability and move generation are that reader's):

- a position that cannot occur in a game is an error; a finished position is `loss 0`;
- a position whose sector, or the sector of one of its moves' results, is not in the tables
  (its `.wdl` file, with or without its `.dtm` file) is an error (query values every move too);
- otherwise the value is the `.wdl` file's symbol of the position's slot, turned into a value by
  the context model (docs/tables.md §5) when the file uses it, and for a win or a loss the depth
  is the `.dtm` file's symbol k of the slot: `win 2k+1` or `loss 2k`; without a `.dtm` file (a
  WDL-only sector, docs/tables.md §1) `win -` or `loss -`, as query over a WDL-only set.

The options select the rule-set folder `DIR/VARIANT.RULESETID` as read_db.py's do. Every
checksum the format defines is verified: each file's header checksum, rule-set checksum and
index checksum when it is opened (every header field is checked too, against the rules, board
and sector asked for, and the two files of a sector must record the same source checksum), and
each block's xxh3-64 before it is decompressed, with its decompressed length. A damaged file is
an error naming the file (and the block). Decoded blocks are kept in a bounded cache.

Needs Python 3.11 and the PyPI packages zstandard and xxhash (`pip install zstandard xxhash`).
"""
import argparse
import os
import struct
import sys
from collections import OrderedDict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import read_db  # noqa: E402  (the database reader, beside this file)

try:
    import xxhash
    import zstandard
except ImportError as e:
    sys.exit(f"read_tables.py needs the Python packages zstandard and xxhash ({e}): "
             "pip install zstandard xxhash")

MAGIC, FORMAT, LAYOUT, HEADER_SIZE = b"MORRISTB", 1, 1, 4096
KINDS = {".wdl": 1, ".dtm": 2}
CODEC_ZSTD = 1
CACHE_BLOCKS = 256  # decoded blocks kept (at most 16 KiB each as written)
# The header of docs/tables.md §2, field by field.
HEAD = struct.Struct("<8sIIIIII32s128sQ6sH4sIQ8QIIQQQQQQQQI1024s27s2673sQ")
assert HEAD.size == HEADER_SIZE
FIELDS = ("magic version kind layout bits per_block codec variant rules rule_sum rule_bytes "
          "reserved1 sector reserved2 slots s0 s1 s2 s3 s4 s5 s6 s7 max_depth model blocks "
          "dict_offset dict_len index_offset data_offset file_length source_sum index_sum L "
          "lines order zeros header_sum").split()


def xxh3(data):
    return xxhash.xxh3_64_intdigest(data)


def read_header(path):
    """The header of a table file, with every check that needs only the file itself."""
    ext = os.path.splitext(path)[1]
    with open(path, "rb") as f:
        raw = f.read(HEADER_SIZE)
        size = f.seek(0, os.SEEK_END)
    if len(raw) < HEADER_SIZE:
        raise ValueError(f"{path}: {len(raw)} bytes, shorter than the header")
    h = dict(zip(FIELDS, HEAD.unpack(raw)))
    if h["magic"] != MAGIC:
        raise ValueError(f"{path}: not a morris table file (bad magic)")
    if xxh3(raw[:4088]) != h["header_sum"]:
        raise ValueError(f"{path}: header checksum mismatch (the header is damaged)")
    for key, want in (("version", FORMAT), ("layout", LAYOUT)):
        if h[key] != want:
            raise ValueError(f"{path}: {key} {h[key]}, this reader knows {want}")
    if h["kind"] != KINDS.get(ext):
        raise ValueError(f"{path}: kind {h['kind']}, a {ext} file is kind {KINDS.get(ext)}")
    if h["bits"] not in ((2,) if ext == ".wdl" else (8, 16)):
        raise ValueError(f"{path}: {h['bits']} bits per symbol")
    p = h["per_block"]
    if not 4 <= p <= 1 << 24 or p & (p - 1):
        raise ValueError(f"{path}: {p} positions per block, not a power of two from 4 to 2^24")
    if h["codec"] != CODEC_ZSTD:
        raise ValueError(f"{path}: codec {h['codec']}, this reader knows {CODEC_ZSTD} (zstd)")
    def text(field):  # NUL-padded ASCII
        t = field.rstrip(b"\0")
        if b"\0" in t or not t.isascii():
            raise ValueError(f"{path}: a text field is not NUL-padded ASCII")
        return t.decode("ascii")

    h["variant"], h["rules"], h["lines"] = text(h["variant"]), text(h["rules"]), text(h["lines"])
    if len(h["lines"]) != h["L"]:
        raise ValueError(f"{path}: board lines of {len(h['lines'])} bytes, L says {h['L']}")
    if xxh3(h["rules"].encode("ascii")) != h["rule_sum"]:
        raise ValueError(f"{path}: rule-set checksum {h['rule_sum']:016x} does not match the "
                         f"rule-set id {h['rules']!r}")
    h["rule_bytes"], h["sector"] = tuple(h["rule_bytes"]), tuple(h["sector"])
    if h["reserved1"] or h["reserved2"] or any(h["zeros"]):
        raise ValueError(f"{path}: reserved bytes are not zero")
    if h["model"] not in ((0, 1) if ext == ".wdl" else (0,)):
        raise ValueError(f"{path}: model {h['model']}")
    order = h["order"]
    if h["model"] == 0 and any(order):
        raise ValueError(f"{path}: order bytes under model 0 are not zero")
    if h["model"] == 1 and any(b >> 6 or {b & 3, b >> 2 & 3, b >> 4 & 3} != {0, 1, 2}
                               for b in order):
        raise ValueError(f"{path}: an order byte is not a permutation of the three values")
    if ext == ".dtm" and h["bits"] != (16 if h["max_depth"] // 2 > 255 else 8):
        raise ValueError(f"{path}: {h['bits']}-bit depths for max depth {h['max_depth']}")
    n = h["blocks"]
    if n != -(-h["slots"] // p):
        raise ValueError(f"{path}: block count {n} does not fit {h['slots']} slots of {p} "
                         f"positions per block")
    if (h["dict_offset"], h["index_offset"], h["data_offset"]) != (
            HEADER_SIZE, HEADER_SIZE + h["dict_len"], HEADER_SIZE + h["dict_len"] + 16 * n):
        raise ValueError(f"{path}: dictionary offset {h['dict_offset']}, block index offset "
                         f"{h['index_offset']} or data offset {h['data_offset']} does not fit "
                         f"the dictionary length {h['dict_len']} and {n} blocks")
    if h["file_length"] != size or h["data_offset"] > size:
        raise ValueError(f"{path}: {size} bytes, the header says {h['file_length']} "
                         f"(data at {h['data_offset']})")
    h["ext"], h["path"] = ext, path
    return h


class Reader(read_db.Reader):
    EXT, OPTION = ".wdl", "--tables"

    def __init__(self, args):
        super().__init__(args)
        self.cache = OrderedDict()  # (path, block) -> decompressed bytes, least recent first

    def read_header(self, path):
        return read_header(path)

    def open_table(self, sector, ext):
        """A table file's header, checked against the sector asked for, with its index read
        and checked, its dictionary loaded and the file left open."""
        path = os.path.join(self.dir, read_db.sector_name(sector) + ext)
        h = read_header(path)
        want = dict(variant=self.variant, rules=self.rule_id, rule_bytes=self.rule_bytes,
                    sector=sector, lines=self.lines,
                    slots=self.board.slots(sector[0], sector[1]))
        for key, value in want.items():
            if h[key] != value:
                raise ValueError(f"{path}: {key} {h[key]!r}, expected {value!r}")
        f = open(path, "rb")
        f.seek(HEADER_SIZE)
        region = f.read(h["data_offset"] - HEADER_SIZE)
        if xxh3(region) != h["index_sum"]:
            f.close()
            raise ValueError(f"{path}: index checksum mismatch (the dictionary or block index "
                             f"is damaged)")
        d, n = h["dict_len"], h["blocks"]
        entries = [struct.unpack_from("<QQ", region, d + 16 * i) for i in range(n)]
        h["starts"] = [o for o, _ in entries] + [h["file_length"] - h["data_offset"]]
        h["sums"] = [s for _, s in entries]
        if n and h["starts"][0] != 0 or any(a > b for a, b in zip(h["starts"], h["starts"][1:])):
            f.close()
            raise ValueError(f"{path}: block offsets do not start at 0 and rise to the file's end")
        h["dctx"] = zstandard.ZstdDecompressor(
            dict_data=zstandard.ZstdCompressionDict(region[:d]) if d else None)
        h["file"] = f
        return h

    def header(self, sector):
        """The sector's pair of tables, (.wdl, .dtm), opened and checked, the .dtm None for a
        sector held without it; an error when the sector is not in the tables."""
        if sector not in self.headers:
            name = read_db.sector_name(sector)
            wdl_there, dtm_there = [os.path.lexists(os.path.join(self.dir, name + e))
                                    for e in KINDS]
            if not wdl_there and not dtm_there:
                raise ValueError(f"sector {name} is not in the tables")
            if not wdl_there:
                raise ValueError(f"sector {name} is not in the tables: {name}.wdl is missing")
            wdl = self.open_table(sector, ".wdl")
            if not dtm_there:
                self.headers[sector] = (wdl, None)
                return self.headers[sector]
            dtm = self.open_table(sector, ".dtm")
            if wdl["source_sum"] != dtm["source_sum"]:
                raise ValueError(f"{dtm['path']}: built from database file "
                                 f"{dtm['source_sum']:016x}, {wdl['path']} from "
                                 f"{wdl['source_sum']:016x}")
            self.headers[sector] = (wdl, dtm)
        return self.headers[sector]

    def block(self, h, i):
        """Block i of a table, checked and decompressed (§3), through the cache."""
        key = (h["path"], i)
        data = self.cache.get(key)
        if data is not None:
            self.cache.move_to_end(key)
            return data
        p, slots, path = h["per_block"], h["slots"], h["path"]
        first, end = i * p, min((i + 1) * p, slots)
        where = f"{path}: block {i} (slots {first}..{end - 1})"
        start, stop = h["starts"][i], h["starts"][i + 1]
        h["file"].seek(h["data_offset"] + start)
        frame = h["file"].read(stop - start)
        if len(frame) != stop - start or xxh3(frame) != h["sums"][i]:
            raise ValueError(f"{where}: checksum mismatch (the block is damaged)")
        want = ((end - first) * h["bits"] + 7) // 8
        try:
            data = h["dctx"].decompress(frame, max_output_size=want)
        except zstandard.ZstdError as e:
            raise ValueError(f"{where}: does not decompress ({e})") from None
        if len(data) != want:
            raise ValueError(f"{where}: decompresses to {len(data)} bytes, not {want}")
        self.cache[key] = data
        if len(self.cache) > CACHE_BLOCKS:
            self.cache.popitem(last=False)
        return data

    def symbol(self, h, slot):
        """The symbol of a slot (§4)."""
        data = self.block(h, slot // h["per_block"])
        i = slot % h["per_block"]
        if h["bits"] == 2:
            return data[i >> 2] >> 2 * (i & 3) & 3
        if h["bits"] == 8:
            return data[i]
        return data[2 * i] | data[2 * i + 1] << 8

    def context(self, mover, opponent, mh, oh):
        """The position's context, 0 to 26 (§5)."""
        board = self.board
        empty = board.all & ~(mover | opponent)

        def near(s):
            out = 0
            for p in range(board.n):
                if s >> p & 1:
                    out |= board.adj_mask[p]
            return out & empty

        def t(s, hand):
            closing = 0
            for m in board.mill_masks:
                rest = m & ~s
                if rest and rest & (rest - 1) == 0:  # every point of the mill but one in s
                    closing |= rest
            reach = empty if hand > 0 or self.flies(read_db.popcount(s) + hand) else near(s)
            return min(2, read_db.popcount(closing & reach))

        n = read_db.popcount(near(mover))
        m = 0 if n == 0 else 1 if n <= 2 else 2
        return t(mover, mh) + 3 * t(opponent, oh) + 9 * m

    def read_value(self, sector, mover, opponent):
        """The answer the tables give for a position of a sector they hold (§6)."""
        wdl, dtm = self.header(sector)
        slot = self.board.slot(mover, opponent, sector[1])
        v = self.symbol(wdl, slot)
        if wdl["model"] == 1:
            order = wdl["order"][self.context(mover, opponent, sector[2], sector[3])]
            v = order >> 2 * min(v, 2) & 3
        if v == 0:
            return "draw -"
        if v == 3:
            raise ValueError(f"{wdl['path']}: symbol 3 at slot {slot}, not a value")
        if dtm is None:
            return "win -" if v == 1 else "loss -"
        k = self.symbol(dtm, slot)
        return f"win {2 * k + 1}" if v == 1 else f"loss {2 * k}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", required=True)
    ap.add_argument("--variant", required=True,
                    help=f"{', '.join(read_db.DEFAULTS)}, or the name of a custom board's folder")
    for rule in ("flying", "removal", "phases", "full-board"):
        ap.add_argument(f"--{rule}", choices=read_db.RULES[rule], help="default: the variant's")
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
