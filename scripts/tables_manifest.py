#!/usr/bin/env python3
"""Published compact tables: make their manifest, or check a downloaded set against it.

    scripts/tables_manifest.py make REPORT RULESET_DIR > data/results/GAME-RULES-tables.json
    scripts/tables_manifest.py check MANIFEST RULESET_DIR

`make` reads REPORT, the output of `morris tables --json`, and the table files of one rule-set
folder (TABLES/VARIANT.RULESETID), and prints the manifest: the variant and rule set, the
sizes of the tables and of the database they were built from, and every file with its size, its
SHA-256 and its morris checksum (the header's xxh3-64, docs/tables.md §2).

`check` recomputes every file's size and SHA-256 in RULESET_DIR and compares them with the
manifest: it names each file missing, extra, or different, and exits 1 if any is. Only Python's
standard library is needed.
"""
import hashlib
import json
import os
import re
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


def make(report_path, folder):
    with open(report_path) as f:
        report = json.load(f)
    checksums = {}
    for s in report["sectors"]:
        checksums[f"{s['sector']}.wdl"] = s["wdl_checksum"]
        if s["depth_checksum"] is not None:  # null: built without its depth table
            checksums[f"{s['sector']}.dtm"] = s["depth_checksum"]
    files = []
    for name in table_files(folder):
        path = os.path.join(folder, name)
        files.append({
            "name": name,
            "bytes": os.path.getsize(path),
            "sha256": sha256(path),
            "checksum": checksums.get(name),
        })
    missing = sorted(set(checksums) - {f["name"] for f in files})
    if missing:
        sys.exit(f"{folder}: the report lists files that are not there: {', '.join(missing)}")
    manifest = {
        "variant": report["variant"],
        "rule_set": report["rule_set"],
        "table_format": 1,
        "sectors": len(report["sectors"]),
        "database_bytes": report["database_bytes"],
        "wdl_bytes": report["wdl_bytes"],
        "depth_bytes": report["depth_bytes"],
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
    if len(sys.argv) != 4 or sys.argv[1] not in ("make", "check"):
        sys.exit(__doc__.strip())
    {"make": make, "check": check}[sys.argv[1]](sys.argv[2], sys.argv[3])


if __name__ == "__main__":
    main()
