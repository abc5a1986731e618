//! Perft: counting move sequences, the standard check of a move generator.

use super::movegen::{for_each_move, generate, play, MoveList};
use super::position::Position;
use super::variant::Variant;

/// The number of move sequences of length `depth` from `pos` (1 at depth 0).
///
/// The walk keeps its own stack (a list of moves per ply), so that no depth overflows the
/// thread's stack; the count grows exponentially with the depth, and [`perft_estimate`] says
/// beforehand about how large it will be.
pub fn perft(variant: &Variant, pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    // Each frame: the position, its moves and the next one to play.
    let mut stack: Vec<(Position, MoveList, usize)> = vec![(*pos, generate(variant, pos), 0)];
    let mut count = 0u64;
    loop {
        let ply = stack.len() as u32;
        let Some((at, moves, next)) = stack.last_mut() else {
            break;
        };
        if ply == depth {
            count += moves.len() as u64;
            stack.pop();
            continue;
        }
        let Some(&mv) = moves.get(*next) else {
            stack.pop();
            continue;
        };
        *next += 1;
        let child = play(at, mv);
        if ply + 1 == depth {
            // The last ply only counts: no list needed.
            let mut n = 0;
            for_each_move(variant, &child, |_| n += 1);
            count += n;
        } else {
            stack.push((child, generate(variant, &child), 0));
        }
    }
    count
}

/// About how many sequences `perft(variant, pos, depth)` counts: the exact count up to a few
/// plies, then the growth of its last ply carried on. A finished position estimates 0.
pub fn perft_estimate(variant: &Variant, pos: &Position, depth: u32) -> f64 {
    const EXACT: u32 = 3;
    if depth <= EXACT {
        return perft(variant, pos, depth) as f64;
    }
    let last = perft(variant, pos, EXACT) as f64;
    let before = perft(variant, pos, EXACT - 1) as f64;
    if before == 0.0 || last == 0.0 {
        return 0.0;
    }
    last * (last / before).powi((depth - EXACT) as i32)
}
