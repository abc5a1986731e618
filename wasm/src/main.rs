//! Answers positions from a compact tables folder as `morris query --json` does, through the
//! library's reading path alone, built without C code (ruzstd in place of libzstd): the
//! program of the library's WebAssembly build (`scripts/wasm.sh` builds it for
//! `wasm32-wasip1` and runs it under Node.js's WASI against the command line's answers).
//!
//!     read_tables TABLES VARIANT < positions     # a position in notation per line
//!     read_tables --walk GAMES VARIANT            # the positions of GAMES random games
//!
//! Each line out is the `query --json` line of the position read, or `{"error": "..."}`.
//! `--walk` prints, one per line, the distinct positions of GAMES random games from the start
//! (up to 80 plies each, from a fixed seed): positions to ask, made without another program.

use std::collections::HashSet;
use std::io::{BufRead, Write};
use std::path::Path;
use std::process::ExitCode;

use morris::query::wire;
use morris::rules::{generate, play};
use morris::space::Reachable;
use morris::store::Reading;
use morris::{Color, Database, Position, Variant};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let done = match args.as_slice() {
        ["--walk", games, name] => match games.parse() {
            Ok(games) => Variant::by_name(name)
                .map_err(|e| e.to_string())
                .and_then(|v| walk(&v, games)),
            Err(_) => Err(format!("--walk takes a number of games, not {games:?}")),
        },
        [dir, name] => Variant::by_name(name)
            .map_err(|e| e.to_string())
            .and_then(|v| answer(Path::new(dir), &v)),
        _ => {
            eprintln!(
                "usage: read_tables TABLES VARIANT < positions | read_tables --walk GAMES VARIANT"
            );
            return ExitCode::from(2);
        }
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("read_tables: {why}");
            ExitCode::FAILURE
        }
    }
}

/// Answers every position of standard input from the tables in `dir`.
fn answer(dir: &Path, variant: &Variant) -> Result<(), String> {
    let db = Database::open_reading(dir, variant, Reading::Mapped).map_err(|e| e.to_string())?;
    let reachable = Reachable::new(variant);
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| e.to_string())?;
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        let answer = Position::parse(variant, text)
            .map_err(|e| e.to_string())
            .and_then(|(pos, turn)| {
                reachable.check(&pos, turn).map_err(|e| e.to_string())?;
                let a = db.answer(&pos).map_err(|e| e.to_string())?;
                Ok(wire::line(&wire::QueryJson::of(variant, &pos, turn, &a)))
            });
        match answer {
            Ok(json) => write!(out, "{json}"),
            Err(why) => writeln!(out, "{}", serde_json::json!({ "error": why })),
        }
        .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Prints the distinct positions of `games` random games from the start.
fn walk(variant: &Variant, games: u32) -> Result<(), String> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut seen = HashSet::new();
    let mut out = std::io::stdout().lock();
    for _ in 0..games {
        let (mut pos, mut turn) = (Position::start(variant), Color::White);
        for _ in 0..80 {
            let text = pos.to_notation(variant, turn);
            if seen.insert(text.clone()) {
                writeln!(out, "{text}").map_err(|e| e.to_string())?;
            }
            let moves = generate(variant, &pos);
            if moves.is_empty() {
                break;
            }
            pos = play(&pos, moves[(next() % moves.len() as u64) as usize]);
            turn = turn.other();
        }
    }
    Ok(())
}
