//! Every position of three, five and six: the solver's database equals the brute-force solver
//! of tests/brute (no symmetry, no index, forward moves only).

mod brute;
mod common;

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

use brute::{BruteForce, Outcome};
use common::variant;
use morris::db::Database;
use morris::sector::Sector;
use morris::Value;

fn compare(name: &str) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("brute-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(env!("CARGO_BIN_EXE_morris"))
        .args([
            "--variant",
            name,
            "solve",
            "--quiet",
            "--db",
            dir.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = variant(name, None, None);
    let db = Database::new(&dir, &v).unwrap();
    let solved: HashMap<Sector, u64> = db
        .present()
        .into_iter()
        .map(|s| (s, db.sector(s).unwrap().header().stats.raw_positions))
        .collect();
    let brute = BruteForce::solve(&v);
    let mut compared: HashMap<Sector, u64> = HashMap::new();
    let mut mismatches = Vec::new();
    brute.for_each(|pos, expected| {
        let sector = Sector::of(&pos);
        if !solved.contains_key(&sector) {
            return; // a sector no game reaches: the solver rightly skips it
        }
        *compared.entry(sector).or_default() += 1;
        let got = db.probe(&pos).unwrap();
        let same = match (got, expected) {
            (Value::Win(a), Outcome::Win(b)) | (Value::Loss(a), Outcome::Loss(b)) => a == b,
            (Value::Draw, Outcome::Draw) => true,
            _ => false,
        };
        if !same && mismatches.len() < 10 {
            mismatches.push(format!("{pos:?}: solver {got:?}, brute force {expected:?}"));
        }
    });
    assert!(mismatches.is_empty(), "{name}: {mismatches:#?}");
    // Every board of every solved sector was compared.
    assert_eq!(compared, solved, "{name}");
}

#[test]
fn three_equals_brute_force() {
    compare("three");
}

#[test]
fn five_equals_brute_force() {
    compare("five");
}

#[test]
fn six_equals_brute_force() {
    compare("six");
}
