//! The second reader of compact tables, `scripts/read_tables.py`, written from docs/tables.md,
//! answers what `morris query --tables` answers (WDL-only sets included); and the document's
//! worked example holds.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

mod common;
mod prerequisite;

use common::{boards, output_text, played, reader_agrees, run_morris, scratch, Rng};
use morris::Variant;

/// Solves `variant` (with `extra` arguments) and builds its tables; returns the tables' folder.
fn tables_of(name: &str, variant: &str, extra: &[&str]) -> PathBuf {
    let dir = scratch(name);
    let (db, tables) = (dir.join("db"), dir.join("tables"));
    let mut args = vec!["--variant", variant, "solve", "--quiet", "--db"];
    args.push(db.to_str().unwrap());
    args.extend(extra);
    let out = run_morris(&args, "");
    assert!(out.status.success(), "solve: {}", output_text(&out));
    let out = run_morris(
        &[
            "--variant",
            variant,
            "tables",
            "--quiet",
            "--db",
            db.to_str().unwrap(),
            "--out",
            tables.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "tables: {}", output_text(&out));
    tables
}

/// How many of `positions` query answered, the reader answering every one alike.
fn compare(python: &str, tables: &Path, variant: &str, positions: &[String]) -> usize {
    let tables = tables.to_str().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/read_tables.py");
    let reader = [
        python,
        script.to_str().unwrap(),
        "--tables",
        tables,
        "--variant",
        variant,
    ];
    let query = ["--variant", variant, "query", "--tables", tables];
    reader_agrees(&query, &reader, positions)
}

#[test]
fn python_tables_reader_agrees_with_query() {
    let Some(python) = prerequisite::python_with("read_tables", &["zstandard", "xxhash"]) else {
        return;
    };
    let start = Instant::now();
    let mut rng = Rng::new(2026);
    let six = Variant::by_name("six").unwrap();
    let tables = tables_of("read-tables-six", "six", &[]);
    let mut positions = Vec::new();
    for max_plies in [8, 14, 30, 80] {
        positions.extend(played(&six, &mut rng, 2500, max_plies));
    }
    let six_answered = compare(&python, &tables, "six", &positions);
    assert!(
        six_answered * 100 >= positions.len() * 95,
        "six: {six_answered}"
    );
    // A WDL-only set of six (`tables --wdl-only`): values without depths, alike.
    let db = tables.with_file_name("db");
    let wdl = tables.with_file_name("wdl");
    let out = run_morris(
        &[
            "--variant",
            "six",
            "tables",
            "--quiet",
            "--wdl-only",
            "--db",
            db.to_str().unwrap(),
            "--out",
            wdl.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "tables: {}", output_text(&out));
    let wdl_answered = compare(&python, &wdl, "six", &positions);
    assert_eq!(wdl_answered, six_answered, "six WDL-only");

    let nine = Variant::by_name("nine").unwrap();
    let tables = tables_of("read-tables-nine", "nine", &["--max-pieces", "5"]);
    let positions = boards(&nine, &mut rng, 10_000, 3, 5);
    let answered = compare(&python, &tables, "nine", &positions);
    assert!(answered * 100 >= positions.len() * 95, "nine: {answered}");
    eprintln!(
        "read_tables: six {six_answered} and nine {answered} of 10000 answered alike, {:.1?}",
        start.elapsed()
    );
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

/// Block `b` of a table file, decompressed (the file has no dictionary).
fn block(file: &[u8], b: usize, len: usize) -> Vec<u8> {
    assert_eq!(u64_at(file, 312), 0, "no dictionary");
    let (index, data) = (u64_at(file, 320) as usize, u64_at(file, 328) as usize);
    let start = data + u64_at(file, index + 16 * b) as usize;
    let end = data + u64_at(file, index + 16 * (b + 1)) as usize;
    zstd::bulk::decompress(&file[start..end], len).unwrap()
}

/// The worked example of docs/tables.md §7, byte by byte.
#[test]
fn tables_document_worked_example() {
    let tables = tables_of("tables-example", "nine", &["--max-pieces", "4"]);
    let folder = common::rule_dir(&tables, "nine");
    let wdl = fs::read(folder.join("3-3-0-0.wdl")).unwrap();
    assert_eq!(&wdl[..8], b"MORRISTB");
    assert_eq!(
        [8, 12, 16, 20, 24, 28].map(|at| u32_at(&wdl, at)),
        [1, 1, 1, 2, 32768, 1]
    );
    assert_eq!(u64_at(&wdl, 192), 0xef9e07a6acf73466, "rule-set checksum");
    assert_eq!(&wdl[200..212], &[9, 1, 0, 0, 0, 0, 0, 0, 3, 3, 0, 0]);
    assert_eq!(u64_at(&wdl, 216), 210_140, "slots");
    let stats = [224, 232, 240, 248].map(|at| u64_at(&wdl, at));
    assert_eq!(stats, [169_626, 140_621, 28_736, 269]);
    assert_eq!(
        (u32_at(&wdl, 288), u32_at(&wdl, 292)),
        (26, 1),
        "max depth, model"
    );
    assert_eq!(u64_at(&wdl, 296), 7, "blocks");
    assert_eq!(
        [304, 312, 320, 328].map(|at| u64_at(&wdl, at)),
        [4096, 0, 4096, 4208]
    );
    assert_eq!(u64_at(&wdl, 336), wdl.len() as u64);
    let entry = |b: usize| u64_at(&wdl, 4096 + 16 * b);
    assert_eq!(
        (entry(3), entry(4)),
        (3015, 4306),
        "block 3: 1291 bytes at 4208 + 3015"
    );
    assert_eq!(wdl[1388 + 21], 0x06, "order byte of context 21");
    let slot = 96 * 1330 + 240;
    let packed = block(&wdl, slot / 32768, 8192);
    let i = slot % 32768;
    assert_eq!((i, i / 4), (29_616, 7404));
    assert_eq!((packed[i / 4] >> (2 * (i % 4))) & 3, 0, "rank 0: a loss");

    let dtm = fs::read(folder.join("3-3-0-0.dtm")).unwrap();
    assert_eq!((u32_at(&dtm, 12), u32_at(&dtm, 20)), (2, 8));
    assert_eq!(u32_at(&dtm, 24), 8192);
    assert_eq!(u64_at(&dtm, 344), u64_at(&wdl, 344), "one source");
    let depths = block(&dtm, slot / 8192, 8192);
    assert_eq!((slot / 8192, slot % 8192), (15, 5040));
    assert_eq!(depths[slot % 8192], 13, "a loss in 26");

    let position = ".WW/.../.B./B....B/.../.../..W b 0 0";
    let out = run_morris(
        &[
            "--variant",
            "nine",
            "query",
            "--json",
            "--tables",
            tables.to_str().unwrap(),
            position,
        ],
        "",
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (json["value"].as_str(), json["depth"].as_u64()),
        (Some("loss"), Some(26))
    );
}
