//! `morris moves` and `morris perft`: the legal moves of a position, and move sequences counted.

use std::process::ExitCode;

use morris::rules::{generate, perft, perft_estimate, play};
use morris::{Color, Move, Position, Variant};

use super::output::{bad_input, for_each_position, Failure};

/// `morris moves`.
pub fn moves(variant: &Variant, json: bool, position: &str) -> Result<ExitCode, Failure> {
    for_each_position(
        variant,
        position,
        |e| format!("error: {e}"),
        |pos, _| Ok(moves_line(variant, pos, json)),
    )
}

/// The most move sequences `perft` sets out to count: beyond it the count would run for
/// hours (the estimate grows about as the number of moves per ply to the depth).
const MAX_PERFT_COUNT: f64 = 1e11;
/// Sequences counted a second on one core, about (nine's start to depth 5, 5.1 M, in 17 ms
/// on the reference machine; the last ply is only counted).
const COUNTED_PER_SECOND: f64 = 3e8;

/// `morris perft`.
pub fn perft_command(
    variant: &Variant,
    depth: u32,
    divide: bool,
    position: Option<String>,
) -> Result<ExitCode, Failure> {
    let position =
        position.unwrap_or_else(|| Position::start(variant).to_notation(variant, Color::White));
    for_each_position(
        variant,
        &position,
        |e| format!("error: {e}"),
        |pos, _| {
            let estimate = perft_estimate(variant, pos, depth);
            if estimate > MAX_PERFT_COUNT {
                let about = if estimate.is_finite() {
                    format!("about {estimate:.1e}")
                } else {
                    "more than 1e308".to_string()
                };
                return Err(bad_input(format!(
                    "perft --depth {depth}: {about} move sequences from this position, more than the {MAX_PERFT_COUNT:.0e} this command counts in reasonable time (about {} minutes at {COUNTED_PER_SECOND:.0e} a second); choose a smaller depth",
                    (MAX_PERFT_COUNT / COUNTED_PER_SECOND / 60.0).round()
                )));
            }
            let mut out = String::new();
            if divide {
                for mv in sorted_moves(variant, pos) {
                    let n = perft(variant, &play(pos, mv.1), depth.saturating_sub(1));
                    out.push_str(&format!("{} {n}\n", mv.0));
                }
            }
            out.push_str(&perft(variant, pos, depth).to_string());
            Ok(out)
        },
    )
}

/// The legal moves with their notation, sorted by notation.
fn sorted_moves(variant: &Variant, pos: &Position) -> Vec<(String, Move)> {
    let mut moves: Vec<_> = generate(variant, pos)
        .iter()
        .map(|&m| (m.to_notation(variant.board()), m))
        .collect();
    moves.sort();
    moves
}

fn moves_line(variant: &Variant, pos: &Position, json: bool) -> String {
    let names: Vec<String> = sorted_moves(variant, pos)
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    if json {
        serde_json::to_string(&names).expect("strings serialize")
    } else {
        names.join(" ")
    }
}
