//! Every position of three, five and six: the solver's database, and the query answers drawn
//! from it, equal the brute-force solver of tests/brute (no symmetry, no index, forward moves
//! only).

mod brute;
mod common;

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Mutex;

use brute::{BruteForce, Outcome};
use common::variant;
use morris::db::Database;
use morris::movegen::{play, too_few_pieces};
use morris::sector::Sector;
use morris::{Position, Value};
use rayon::prelude::*;

fn as_value(o: Outcome) -> Value {
    match o {
        Outcome::Win(d) => Value::Win(d),
        Outcome::Loss(d) => Value::Loss(d),
        Outcome::Draw => Value::Draw,
    }
}

/// Checks one position's analysis against the brute force; returns a description of a mismatch.
fn check(db: &Database, brute: &BruteForce, pos: &Position, expected: Value) -> Option<String> {
    let a = match db.analyse(pos) {
        Ok(a) => a,
        Err(e) => return Some(format!("{pos:?}: {e}")),
    };
    if a.value != expected {
        return Some(format!(
            "{pos:?}: solver {:?}, brute force {expected:?}",
            a.value
        ));
    }
    for m in &a.moves {
        let child = play(pos, m.mv);
        let child_value = if too_few_pieces(&child) {
            Value::Loss(0)
        } else {
            as_value(brute.value(&child).unwrap())
        };
        if m.value != child_value.before_move() {
            return Some(format!(
                "{pos:?} {:?}: query {:?}, brute force {child_value:?} after",
                m.mv, m.value
            ));
        }
    }
    // Best first, and the best moves carry the position's value and depth.
    let sorted = a
        .moves
        .windows(2)
        .all(|w| w[0].value.preference(w[1].value).is_le());
    let best_ok = a
        .moves
        .first()
        .map_or(a.value == Value::Loss(0), |m| m.value == a.value);
    (!sorted || !best_ok).then(|| format!("{pos:?}: moves out of order or best move off value"))
}

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
    let mismatches = Mutex::new(Vec::new());
    let mut batch = Vec::with_capacity(1 << 20);
    let run = |batch: &mut Vec<(Position, Value)>| {
        batch.par_iter().for_each(|(pos, expected)| {
            if let Some(m) = check(&db, &brute, pos, *expected) {
                let mut list = mismatches.lock().unwrap();
                if list.len() < 10 {
                    list.push(m);
                }
            }
        });
        batch.clear();
    };
    brute.for_each(|pos, expected| {
        let sector = Sector::of(&pos);
        if !solved.contains_key(&sector) {
            return; // a sector no game reaches: the solver rightly skips it
        }
        *compared.entry(sector).or_default() += 1;
        batch.push((pos, as_value(expected)));
        if batch.len() == batch.capacity() {
            run(&mut batch);
        }
    });
    run(&mut batch);
    let mismatches = mismatches.into_inner().unwrap();
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
