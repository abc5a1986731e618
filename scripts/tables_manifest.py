#!/usr/bin/env python3
"""Published compact tables: make their manifest, or check a downloaded set against it.

    scripts/tables_manifest.py make [REPORT] RULESET_DIR > data/results/GAME-RULES-tables.json
    scripts/tables_manifest.py check MANIFEST RULESET_DIR

`make` reads the table files of one rule-set folder (TABLES/VARIANT.RULESETID) and prints the
manifest: the variant and rule set, the sizes of the tables and of the database they were built
from, and every file with its size, its SHA-256 and its morris checksum (the header checksum at
byte 4088, docs/tables.md §2). REPORT, the output of `morris tables --json`, is optional: with it
every checksum must be the one the report gives, and the database's size is the report's (the
size of its files); without it (tables written by `morris solve --compact`, whose database files
are gone) the database's size is the one its files would have, from each header's slots and
largest depth (docs/format.md §2, §3: 4096 + 8 bytes a 1 MiB block, rounded up to 4096, then a
cell a slot, one byte or two).

`check` recomputes every file's size and SHA-256 in RULESET_DIR and compares them with the
manifest: it names each file missing, extra, or different, and exits 1 if any is. Only Python's
standard library is needed.
"""
import hashlib
import json
import os
import re
import struct
import sys

TABLE = re.compile(r"\d+-\d+-\d+-\d+\.(wdl|dtm)")


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def table_files(folder):
    return sorted(n for n in os.listdir(folder) if TABLE.fullmatch(n))


def header(path):
    """The fields of a table file's header the manifest needs (docs/tables.md §2)."""
    with open(path, "rb") as f:
        head = f.read(4096)
    if len(head) < 4096 or head[:8] != b"MORRISTB":
        sys.exit(f"{path}: not a morris table file")
    u32 = lambda at: struct.unpack_from("<I", head, at)[0]
    u64 = lambda at: struct.unpack_from("<Q", head, at)[0]
    text = lambda at, n: head[at:at + n].rstrip(b"\0").decode("ascii")
    return {
        "format": u32(8),
        "variant": text(32, 32),
        "rule_set": text(64, 128),
        "slots": u64(216),
        "max_depth": u32(288),
        "checksum": f"{u64(4088):016x}",
    }


def database_file_bytes(slots, max_depth):
    """The length of the database file of a sector (docs/format.md §2, §3)."""
    width = 1 if max_depth <= 253 else 2
    blocks = -(-slots * width // (1 << 20))
    payload = -(-(4096 + 8 * blocks) // 4096) * 4096
    return payload + slots * width


def make(report_path, folder):
    report = None
    if report_path is not None:
        with open(report_path) as f:
            report = json.load(f)
    files, heads = [], {}
    for name in table_files(folder):
        path = os.path.join(folder, name)
        heads[name] = header(path)
        files.append({
            "name": name,
            "bytes": os.path.getsize(path),
            "sha256": sha256(path),
            "checksum": heads[name]["checksum"],
        })
    if not files:
        sys.exit(f"{folder}: no table files")
    if report is not None:
        checksums = {}
        for s in report["sectors"]:
            checksums[f"{s['sector']}.wdl"] = s["wdl_checksum"]
            if s["depth_checksum"] is not None:  # null: built without its depth table
                checksums[f"{s['sector']}.dtm"] = s["depth_checksum"]
        missing = sorted(set(checksums) - set(heads))
        if missing:
            sys.exit(f"{folder}: the report lists files that are not there: {', '.join(missing)}")
        for f in files:
            if checksums.get(f["name"]) != f["checksum"]:
                sys.exit(f"{folder}/{f['name']}: checksum {f['checksum']}, the report says "
                         f"{checksums.get(f['name'])}")
    first = next(iter(heads.values()))
    wdl = {n: h for n, h in heads.items() if n.endswith(".wdl")}
    if report is not None:
        variant, rule_set = report["variant"], report["rule_set"]
        database = report["database_bytes"]
    else:
        variant, rule_set = first["variant"], first["rule_set"]
        database = sum(database_file_bytes(h["slots"], h["max_depth"]) for h in wdl.values())
    for n, h in heads.items():
        if (h["variant"], h["rule_set"], h["format"]) != (variant, rule_set, 1):
            sys.exit(f"{folder}/{n}: {h['variant']} {h['rule_set']} format {h['format']}, "
                     f"not {variant} {rule_set} format 1")
    size = lambda kind: sum(f["bytes"] for f in files if f["name"].endswith(kind))
    manifest = {
        "variant": variant,
        "rule_set": rule_set,
        "table_format": 1,
        "sectors": len(wdl),
        "database_bytes": database,
        "wdl_bytes": size(".wdl"),
        "depth_bytes": size(".dtm"),
        "files": files,
    }
    json.dump(manifest, sys.stdout, indent=1)
    print()


def check(manifest_path, folder):
    with open(manifest_path) as f:
        manifest = json.load(f)
    expected = {f["name"]: f for f in manifest["files"]}
    present = set(table_files(folder))
    bad = 0
    for name in sorted(set(expected) | present):
        if name not in present:
            print(f"missing: {name}")
            bad += 1
        elif name not in expected:
            print(f"extra (not in the manifest): {name}")
            bad += 1
        else:
            path = os.path.join(folder, name)
            size, want = os.path.getsize(path), expected[name]
            if size != want["bytes"]:
                print(f"different: {name}: {size} bytes, published {want['bytes']}")
                bad += 1
            elif sha256(path) != want["sha256"]:
                print(f"different: {name}: SHA-256 differs from the published one")
                bad += 1
    total = len(expected)
    if bad:
        print(f"{bad} of {total} files missing, extra or different", file=sys.stderr)
        sys.exit(1)
    print(f"all {total} files of {manifest['variant']} {manifest['rule_set']} match")


def main():
    args = sys.argv[1:]
    if args[:1] == ["make"] and len(args) in (2, 3):
        make(*([None] * (3 - len(args)) + args[1:]))
    elif args[:1] == ["check"] and len(args) == 3:
        check(args[1], args[2])
    else:
        sys.exit(__doc__.strip())


if __name__ == "__main__":
    main()
