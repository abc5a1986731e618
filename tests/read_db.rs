//! The reference reader `scripts/read_db.py`, written from `docs/format.md` alone, answers what
//! `morris query` answers; and the format document's worked example holds.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Instant;

mod common;

use common::Rng;
use morris::rules::{generate, play};
use morris::space::Sector;
use morris::space::{Orbits, SectorIndex};
use morris::{Color, Position, Variant};

/// Runs `program args`, feeding `input` from a thread (the answers stream out while the
/// questions stream in, so neither pipe may fill up), and returns standard output.
fn pipe(program: &str, args: &[&str], input: String) -> String {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap().unwrap();
    assert!(
        out.status.code().is_some_and(|c| c <= 2),
        "{program} {args:?} crashed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn solve(name: &str, variant: &str, extra: &[&str]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = fs::remove_dir_all(&dir);
    let mut args = vec!["--variant", variant, "solve", "--quiet", "--db"];
    args.push(dir.to_str().unwrap());
    args.extend(extra);
    let out = Command::new(env!("CARGO_BIN_EXE_morris"))
        .args(&args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

/// Positions from random play from the start, of lengths 0 to `max_plies`.
fn played(v: &Variant, rng: &mut Rng, count: usize, max_plies: u64) -> Vec<String> {
    (0..count)
        .map(|_| {
            let mut pos = Position::start(v);
            let mut turn = Color::White;
            for _ in 0..rng.below(max_plies + 1) {
                let moves = generate(v, &pos);
                if moves.is_empty() {
                    break;
                }
                pos = play(&pos, moves[rng.below(moves.len() as u64) as usize]);
                turn = turn.other();
            }
            pos.to_notation(v, turn)
        })
        .collect()
}

/// Random moving-phase boards with `low..=high` pieces a side and either side to move.
fn boards(v: &Variant, rng: &mut Rng, count: usize, low: u64, high: u64) -> Vec<String> {
    let all = v.board().all();
    (0..count)
        .map(|_| {
            let w = low + rng.below(high - low + 1);
            let b = low + rng.below(high - low + 1);
            let mover = rng.subset(all, w as u32);
            let opponent = rng.subset(all - mover, b as u32);
            let pos = Position {
                mover,
                opponent,
                mover_hand: 0,
                opponent_hand: 0,
            };
            let turn = [Color::White, Color::Black][rng.below(2) as usize];
            pos.to_notation(v, turn)
        })
        .collect()
}

/// Asks `morris query` and the Python reader about every position; returns how many query
/// answered (every one of them the reader must answer alike).
fn compare(db: &Path, variant: &str, positions: &[String]) -> usize {
    let input: String = positions.iter().map(|p| format!("{p}\n")).collect();
    let db = db.to_str().unwrap();
    let query = pipe(
        env!("CARGO_BIN_EXE_morris"),
        &["--variant", variant, "query", "--db", db, "-"],
        input.clone(),
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/read_db.py");
    let reader = pipe(
        "python3",
        &[script.to_str().unwrap(), "--db", db, "--variant", variant],
        input,
    );
    let query: Vec<&str> = query.lines().collect();
    let reader: Vec<&str> = reader.lines().collect();
    assert_eq!(query.len(), positions.len(), "query answers one line each");
    assert_eq!(
        reader.len(),
        positions.len(),
        "the reader answers one line each"
    );
    let mut answered = 0;
    for ((position, q), r) in positions.iter().zip(query).zip(reader) {
        let json: serde_json::Value = serde_json::from_str(q).unwrap();
        if json.get("error").is_some() {
            continue;
        }
        answered += 1;
        let depth = json["depth"]
            .as_u64()
            .map_or("-".to_string(), |d| d.to_string());
        let expected = format!("{} {depth}", json["value"].as_str().unwrap());
        assert_eq!(r, expected, "{variant} {position}: reader vs query");
    }
    answered
}

#[test]
fn python_reader_agrees_with_query() {
    let python = Command::new("python3").arg("--version").output();
    assert!(
        python.is_ok_and(|o| o.status.success()),
        "python3 is needed to run scripts/read_db.py (the format's reference reader); install it"
    );
    let start = Instant::now();
    let mut rng = Rng::new(2024);

    let six = Variant::by_name("six").unwrap();
    let db = solve("read-db-six", "six", &[]);
    let mut positions = Vec::new();
    for max_plies in [8, 14, 30, 80] {
        positions.extend(played(&six, &mut rng, 2500, max_plies));
    }
    let six_answered = compare(&db, "six", &positions);
    assert!(
        six_answered * 100 >= positions.len() * 95,
        "six: query answered {six_answered}"
    );

    let nine = Variant::by_name("nine").unwrap();
    let db = solve("read-db-nine", "nine", &["--max-pieces", "5"]);
    let positions = boards(&nine, &mut rng, 10_000, 3, 5);
    let answered = compare(&db, "nine", &positions);
    assert!(
        answered * 100 >= positions.len() * 95,
        "nine: query answered {answered}"
    );
    eprintln!(
        "read_db: six {six_answered} and nine {answered} of 10000 answered alike, {:.1?}",
        start.elapsed()
    );
}

/// The worked example of docs/format.md, computed by the library.
#[test]
fn format_document_worked_example() {
    let nine = Variant::by_name("nine").unwrap();
    let (pos, turn) = Position::parse(&nine, ".WW/.../.B./B....B/.../.../..W b 0 0").unwrap();
    assert_eq!(turn, Color::Black);
    assert_eq!((pos.mover.0, pos.opponent.0), (17024, 8388614));
    let sector = Sector::of(&pos);
    assert_eq!(sector.to_string(), "3-3-0-0");
    let orbits = Arc::new(Orbits::new(&nine));
    assert_eq!(orbits.count(3), 158);
    let index = SectorIndex::new(orbits, sector);
    assert_eq!(index.size(), 158 * 1330);
    let slot = index.index(&pos);
    let canonical = index.position(slot).unwrap();
    assert_eq!(slot, 96 * 1330 + 240);
    assert_eq!((canonical.mover.0, canonical.opponent.0), (6146, 32960));
    assert_eq!(
        canonical.to_notation(&nine, Color::Black),
        ".B./.../WW./..BB../W../.../... b 0 0"
    );
    // The other image of the opponent's set under the representative's stabiliser.
    assert_eq!(index.position(96 * 1330 + 391), None);
}
