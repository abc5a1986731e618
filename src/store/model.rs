//! The context model of win/draw/loss tables: a guess of each position's value from what a
//! glance at the board shows (mills one move from closing, room to move), so that a table
//! stores how far the truth is from the guess rather than the value itself. Random access
//! survives: a prober computes the context of the one position it reads.
//!
//! `docs/tables.md` specifies the context exactly, for other readers.

use crate::rules::{PointSet, Position, Variant};

/// Contexts of model 1: three threat counts of the mover × three of the opponent × three
/// mobility buckets of the mover.
pub(crate) const CONTEXTS: usize = 27;

/// The order byte of the identity model: symbol 0 first, then 1, then 2.
pub(crate) const IDENTITY: u8 = 0b10_01_00;

/// The context (0..27) of a position of `variant`: `t(mover) + 3·t(opponent) + 9·m`, where
/// `t(side)` is how many empty points (at most 2 counted) would close a mill of the side
/// with one more piece that the side could bring there on its turn (any empty point while
/// it places or flies, else a point next to one of its pieces), and `m` buckets the empty
/// points next to the mover's pieces: none 0, one or two 1, more 2.
///
/// It depends only on the board's lines, so every symmetric image of a position has the same
/// context.
#[inline]
pub(crate) fn context(variant: &Variant, pos: &Position) -> usize {
    let board = variant.board();
    let rules = variant.rules();
    let empty = pos.empty(variant);
    let near = |set: PointSet| {
        set.iter()
            .fold(PointSet::EMPTY, |acc, p| acc | board.adjacent(p))
            & empty
    };
    let threat = |set: PointSet, hand: u8, near: PointSet| {
        let reach = if hand > 0 || rules.flies(set.len() + hand as u32) {
            empty
        } else {
            near
        };
        (board.closing_points(set) & reach).len().min(2) as usize
    };
    let mover_near = near(pos.mover);
    let opponent_near = near(pos.opponent);
    let m = match mover_near.len() {
        0 => 0,
        1 | 2 => 1,
        _ => 2,
    };
    threat(pos.mover, pos.mover_hand, mover_near)
        + 3 * threat(pos.opponent, pos.opponent_hand, opponent_near)
        + 9 * m
}

/// The order byte of each context learnt from counts of win/draw/loss symbols (0 draw,
/// 1 win, 2 loss): the most frequent symbol first (in bits 0-1), then the next (bits 2-3),
/// then the last (bits 4-5); ties keep the symbols' order.
pub(crate) fn orders(counts: &[[u64; 3]; CONTEXTS]) -> [u8; CONTEXTS] {
    let mut out = [IDENTITY; CONTEXTS];
    for (o, c) in out.iter_mut().zip(counts) {
        let mut symbols = [0u8, 1, 2];
        symbols.sort_by_key(|&s| std::cmp::Reverse(c[s as usize]));
        *o = symbols[0] | symbols[1] << 2 | symbols[2] << 4;
    }
    out
}

/// Whether an order byte is a permutation of the three symbols.
pub(crate) fn order_is_valid(order: u8) -> bool {
    let s = [order & 3, (order >> 2) & 3, (order >> 4) & 3];
    order >> 6 == 0 && s.contains(&0) && s.contains(&1) && s.contains(&2)
}

/// The stored rank of `symbol` under `order` (0: the guess was right).
#[inline]
pub(crate) fn rank_of(order: u8, symbol: u8) -> u8 {
    if order & 3 == symbol {
        0
    } else if (order >> 2) & 3 == symbol {
        1
    } else {
        2
    }
}

/// The symbol a stored rank stands for under `order` (rank 3 reads as 2: never written).
#[inline]
pub(crate) fn symbol_of(order: u8, rank: u8) -> u8 {
    (order >> (2 * rank.min(2))) & 3
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{for_each_move, generate, play, too_few_pieces, Symmetry, Variant};

    #[test]
    fn orders_rank_by_frequency_and_round_trip() {
        let mut counts = [[0u64; 3]; CONTEXTS];
        counts[0] = [5, 9, 1];
        counts[1] = [0, 0, 7];
        let o = orders(&counts);
        assert_eq!(o[0], 0x21, "win, draw, loss");
        assert_eq!(o[1], 0x12, "loss, draw, win");
        assert_eq!(o[2], IDENTITY);
        for &order in &o {
            assert!(order_is_valid(order));
            for s in 0..3 {
                assert_eq!(symbol_of(order, rank_of(order, s)), s);
            }
        }
        assert!(!order_is_valid(0));
        assert!(!order_is_valid(IDENTITY | 0x40));
    }

    /// The context is the same for every symmetric image, and the threat count agrees
    /// with the moves that close a mill.
    #[test]
    fn contexts_are_symmetric_and_count_real_threats() {
        let variant = Variant::by_name("nine").unwrap();
        let syms = Symmetry::automorphisms(variant.board());
        let mut pos = Position::start(&variant);
        let mut seen = [false; CONTEXTS];
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..4000 {
            let c = context(&variant, &pos);
            seen[c] = true;
            for s in &syms {
                let image = Position {
                    mover: s.apply(pos.mover),
                    opponent: s.apply(pos.opponent),
                    ..pos
                };
                assert_eq!(context(&variant, &image), c);
            }
            // A mill the mover can close now means a threat counted.
            let mut closes = false;
            for_each_move(&variant, &pos, |m| closes |= m.removed().is_some());
            if closes {
                assert!(!c.is_multiple_of(3), "{pos:?}");
            }
            let moves = generate(&variant, &pos);
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            if moves.is_empty() || too_few_pieces(&pos) {
                pos = Position::start(&variant);
            } else {
                pos = play(&pos, moves[(rng % moves.len() as u64) as usize]);
            }
        }
        assert!(seen.iter().filter(|&&s| s).count() > 15);
    }
}
