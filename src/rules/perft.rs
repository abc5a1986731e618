//! Perft: counting move sequences, the standard check of a move generator.

use super::movegen::{for_each_move, generate, play};
use super::position::Position;
use super::variant::Variant;

/// The number of move sequences of length `depth` from `pos` (1 at depth 0).
pub fn perft(variant: &Variant, pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => {
            let mut n = 0;
            for_each_move(variant, pos, |_| n += 1);
            n
        }
        _ => generate(variant, pos)
            .iter()
            .map(|&m| perft(variant, &play(pos, m), depth - 1))
            .sum(),
    }
}
