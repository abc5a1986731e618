//! Positions as bitboards, the form engines hold them in: bit `i` of a set is the board's
//! point `i` in notation order (the `i`-th character of the ranks, slashes skipped). The C
//! library and the Python package convert through here.

use crate::invalid::InvalidInput;
use crate::rules::{Color, Point, PointSet, Position, Variant};

/// A position's bitboards: each side's points and pieces in hand, by colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bits {
    /// White's points.
    pub white: u32,
    /// Black's points.
    pub black: u32,
    /// White's pieces still to place.
    pub white_hand: u8,
    /// Black's pieces still to place.
    pub black_hand: u8,
}

/// The bitboards of `pos` with `turn` to move.
pub fn bits_of(pos: &Position, turn: Color) -> Bits {
    let (white, black, white_hand, black_hand) = match turn {
        Color::White => (pos.mover, pos.opponent, pos.mover_hand, pos.opponent_hand),
        Color::Black => (pos.opponent, pos.mover, pos.opponent_hand, pos.mover_hand),
    };
    Bits {
        white: white.bits(),
        black: black.bits(),
        white_hand,
        black_hand,
    }
}

/// The position of bitboards with `turn` to move, checked as [`Position::parse`] checks the
/// notation [`notation_of_bits`] writes (and refused alike, in the same words), without
/// writing it: the path of batches of bitboards.
///
/// # Errors
/// As [`notation_of_bits`], then `InvalidInput::Position` as the parser's.
pub fn position_of_bits(
    variant: &Variant,
    bits: Bits,
    turn: Color,
) -> Result<(Position, Color), InvalidInput> {
    check_sets(variant, bits)?;
    let sides = [bits.white, bits.black].map(PointSet::from_bits);
    let hands = [bits.white_hand, bits.black_hand];
    match Position::from_sides(variant, sides, hands, turn) {
        Ok(found) => Ok(found),
        // The parser's error, in its words (a refusal is the slow path).
        Err(_) => Position::parse(variant, &notation_of_bits(variant, bits, turn)?),
    }
}

/// The notation of bitboards with `turn` to move (`ROWS TURN WHITE_HAND BLACK_HAND`), for the
/// notation's parser to check the rest (hands, piece counts, reachability).
///
/// # Errors
/// `InvalidInput::Request` for a bit outside the board or a point in both sets.
pub fn notation_of_bits(
    variant: &Variant,
    bits: Bits,
    turn: Color,
) -> Result<String, InvalidInput> {
    check_sets(variant, bits)?;
    let board = variant.board();
    let (white, black) = (bits.white, bits.black);
    let rows: Vec<String> = board
        .ranks()
        .iter()
        .map(|rank| {
            rank.iter()
                .map(|&p| match p.set().bits() {
                    b if white & b != 0 => 'W',
                    b if black & b != 0 => 'B',
                    _ => '.',
                })
                .collect()
        })
        .collect();
    Ok(format!(
        "{} {} {} {}",
        rows.join("/"),
        turn.letter(),
        bits.white_hand,
        bits.black_hand
    ))
}

/// Refuses a bit outside the board and a point in both sets.
fn check_sets(variant: &Variant, bits: Bits) -> Result<(), InvalidInput> {
    let board = variant.board();
    let (white, black) = (bits.white, bits.black);
    let outside = (white | black) & !board.all().bits();
    if outside != 0 {
        return Err(InvalidInput::Request(format!(
            "bit {} is set, but the {} board has {} points (bits 0 to {})",
            outside.trailing_zeros(),
            variant.name(),
            board.len(),
            board.len() - 1
        )));
    }
    let both = white & black;
    if both != 0 {
        let p = Point::new(both.trailing_zeros() as u8);
        return Err(InvalidInput::Request(format!(
            "point {} (bit {}) is in both the white and the black set",
            board.point_name(p),
            p.index()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bitboards become the position the parser makes of their notation, and are refused
    /// where it refuses the notation, in the same words: every hand pair of a few boards
    /// (sound, overfull, uneven), both sides to move, under both phase rules.
    #[test]
    fn bits_become_what_the_parser_makes_of_their_notation() {
        let mut compared = 0;
        for (name, phases) in [
            ("nine", "separate"),
            ("six", "lasker"),
            ("three", "separate"),
        ] {
            let v = Variant::by_name(name)
                .unwrap()
                .with_overrides(crate::rules::RuleOverrides {
                    phases: Some(phases.parse().unwrap()),
                    ..Default::default()
                });
            let n = v.board().len();
            let mut seed = 0x9e37_79b9_7f4a_7c15u64;
            for _ in 0..400 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let mask = (1u32 << n) - 1;
                let white = (seed as u32) & mask & (seed >> 32) as u32;
                let black = ((seed >> 20) as u32) & mask & !white & (seed >> 40) as u32;
                for (wh, bh) in [(0, 0), (1, 1), (1, 2), (3, 3), (9, 10), (12, 0), (200, 255)] {
                    for turn in [Color::White, Color::Black] {
                        let bits = Bits {
                            white,
                            black,
                            white_hand: wh,
                            black_hand: bh,
                        };
                        let text = notation_of_bits(&v, bits, turn).unwrap();
                        let parsed = Position::parse(&v, &text).map_err(|e| e.to_string());
                        let direct = position_of_bits(&v, bits, turn).map_err(|e| e.to_string());
                        assert_eq!(direct, parsed, "{text}");
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 10_000);
    }

    #[test]
    fn bits_and_notation_round_trip_and_bad_bits_are_refused() {
        let v = Variant::by_name("nine").unwrap();
        let text = "W.B/.../.../...W../.../.../..B w 7 7";
        let (pos, turn) = Position::parse(&v, text).unwrap();
        let bits = bits_of(&pos, turn);
        assert_eq!(bits.white, 1 | 1 << 12);
        assert_eq!(bits.black, 1 << 2 | 1 << 23);
        assert_eq!((bits.white_hand, bits.black_hand), (7, 7));
        assert_eq!(notation_of_bits(&v, bits, turn).unwrap(), text);
        let black = bits_of(&pos.flipped(), turn.other());
        assert_eq!(black, bits, "the same position with Black to move");
        let outside = Bits {
            white: 1 << 24,
            ..bits
        };
        assert!(notation_of_bits(&v, outside, turn)
            .unwrap_err()
            .to_string()
            .contains("bit 24"));
        let both = Bits {
            black: bits.black | 1,
            ..bits
        };
        assert!(notation_of_bits(&v, both, turn)
            .unwrap_err()
            .to_string()
            .contains("both"));
    }
}
