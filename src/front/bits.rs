//! Positions as bitboards, the form engines hold them in: bit `i` of a set is the board's
//! point `i` in notation order (the `i`-th character of the ranks, slashes skipped). The C
//! library and the Python package convert through here.

use crate::invalid::InvalidInput;
use crate::rules::{Color, Point, Position, Variant};

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

#[cfg(test)]
mod tests {
    use super::*;

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
