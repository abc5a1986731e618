//! Positions (mover-relative) and their notation `ROWS TURN WHITE_HAND BLACK_HAND`.

use std::fmt;

use super::point::PointSet;
use super::variant::{Phases, Variant};
use crate::invalid::{clip, InvalidInput};

/// A side: White places first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// The side that places first.
    White,
    /// The side that places second.
    Black,
}

impl Color {
    /// The other side.
    #[inline]
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `w` or `b`, as in the notation.
    pub fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "White",
            Color::Black => "Black",
        })
    }
}

/// A position seen from the side to move: the mover's and the opponent's pieces and hands.
///
/// Colours are not part of it: the value of a position does not depend on who is White.
/// Notation carries the colour separately (see [`Position::parse`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// The mover's pieces on the board.
    pub mover: PointSet,
    /// The opponent's pieces on the board.
    pub opponent: PointSet,
    /// Pieces the mover still has to place.
    pub mover_hand: u8,
    /// Pieces the opponent still has to place.
    pub opponent_hand: u8,
}

impl Position {
    /// The start position of a variant (White to move).
    pub fn start(variant: &Variant) -> Position {
        Position {
            mover: PointSet::EMPTY,
            opponent: PointSet::EMPTY,
            mover_hand: variant.pieces(),
            opponent_hand: variant.pieces(),
        }
    }

    /// The empty points.
    #[inline]
    pub fn empty(&self, variant: &Variant) -> PointSet {
        variant.board().all() - self.mover - self.opponent
    }

    /// The mover's pieces on the board and in hand.
    #[inline]
    pub fn mover_pieces(&self) -> u32 {
        self.mover.len() + self.mover_hand as u32
    }

    /// The opponent's pieces on the board and in hand.
    #[inline]
    pub fn opponent_pieces(&self) -> u32 {
        self.opponent.len() + self.opponent_hand as u32
    }

    /// The same position seen from the other side (as if the opponent were to move).
    #[inline]
    #[must_use]
    pub fn flipped(&self) -> Position {
        Position {
            mover: self.opponent,
            opponent: self.mover,
            mover_hand: self.opponent_hand,
            opponent_hand: self.mover_hand,
        }
    }

    /// Checks that the position can be stored: disjoint sides on the board, no side with more
    /// pieces than it owns, and hands that alternate (the mover holds as many pieces as the
    /// opponent, or one more).
    ///
    /// # Errors
    /// The reason, as text.
    pub fn check(&self, variant: &Variant) -> Result<(), String> {
        let pieces = variant.pieces() as u32;
        if !(self.mover & self.opponent).is_empty() {
            return Err("a point holds pieces of both sides".into());
        }
        if !variant
            .board()
            .all()
            .is_superset(self.mover | self.opponent)
        {
            return Err("a piece lies outside the board".into());
        }
        if self.mover_pieces() > pieces || self.opponent_pieces() > pieces {
            return Err(format!("a side has more than its {pieces} pieces"));
        }
        let (m, o) = (self.mover_hand, self.opponent_hand);
        if !variant.rules().hands_alternate(m, o) {
            return Err(format!(
                "hands {m} (mover) and {o} (opponent) cannot alternate"
            ));
        }
        Ok(())
    }

    /// Parses `ROWS TURN WHITE_HAND BLACK_HAND` (or `start`, the empty board with White to
    /// move) into the position and the colour to move.
    ///
    /// # Errors
    /// `InvalidInput::Position` naming the problem: field count, rank count, points per rank,
    /// characters, turn, hands, piece counts, or hands that cannot occur with that side to move.
    pub fn parse(variant: &Variant, text: &str) -> Result<(Position, Color), InvalidInput> {
        let fail = |why: String| InvalidInput::Position {
            input: clip(text),
            why,
        };
        if text.trim() == "start" {
            return Ok((Position::start(variant), Color::White));
        }
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [rows, turn, white_hand, black_hand] = fields[..] else {
            return Err(fail(format!(
                "expected 4 fields `ROWS TURN WHITE_HAND BLACK_HAND`, found {}",
                fields.len()
            )));
        };
        let sides = parse_rows(variant, rows).map_err(fail)?;
        let turn = match turn {
            "w" => Color::White,
            "b" => Color::Black,
            t => {
                let t = clip(t);
                return Err(fail(format!("turn must be w or b, found {t:?}")));
            }
        };
        // Each hand read and checked in turn, so that the first fault is the one reported.
        let w = parse_hand(variant, Color::White, white_hand).map_err(fail)?;
        check_hand(variant, Color::White, w, sides[0]).map_err(fail)?;
        let b = parse_hand(variant, Color::Black, black_hand).map_err(fail)?;
        check_hand(variant, Color::Black, b, sides[1]).map_err(fail)?;
        hands_to_move(variant, sides, [w, b], turn).map_err(fail)
    }

    /// The position of White's and Black's points (`sides`) and hands (`hands`) with `turn`
    /// to move, checked as [`Position::parse`] checks them: piece counts, and hands that
    /// cannot occur with that side to move. The points must lie on the board, each on one
    /// side's set at most (the caller's sets come from the board).
    ///
    /// # Errors
    /// What is wrong, in the parser's words.
    pub(crate) fn from_sides(
        variant: &Variant,
        sides: [PointSet; 2],
        hands: [u8; 2],
        turn: Color,
    ) -> Result<(Position, Color), String> {
        check_hand(variant, Color::White, hands[0], sides[0])?;
        check_hand(variant, Color::Black, hands[1], sides[1])?;
        hands_to_move(variant, sides, hands, turn)
    }

    /// Writes the position in notation, with `turn` the colour of the mover.
    pub fn to_notation(&self, variant: &Variant, turn: Color) -> String {
        let (white, black, wh, bh) = match turn {
            Color::White => (
                self.mover,
                self.opponent,
                self.mover_hand,
                self.opponent_hand,
            ),
            Color::Black => (
                self.opponent,
                self.mover,
                self.opponent_hand,
                self.mover_hand,
            ),
        };
        let rows: Vec<String> = variant
            .board()
            .ranks()
            .iter()
            .map(|rank| {
                rank.iter()
                    .map(|&p| {
                        if white.contains(p) {
                            'W'
                        } else if black.contains(p) {
                            'B'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect();
        format!("{} {} {wh} {bh}", rows.join("/"), turn.letter())
    }

    /// The colour to move implied by the hands: Black holds one more while placing.
    /// With both hands empty either may move; `fallback` decides.
    pub fn turn_from_hands(&self, fallback: Color) -> Color {
        if self.mover_hand > self.opponent_hand {
            Color::Black
        } else if self.mover_hand > 0 {
            Color::White
        } else {
            fallback
        }
    }
}

/// White's and Black's pieces on the board from the ranks of the notation.
fn parse_rows(variant: &Variant, rows: &str) -> Result<[PointSet; 2], String> {
    let board = variant.board();
    let ranks: Vec<&str> = rows.split('/').collect();
    if ranks.len() != board.ranks().len() {
        return Err(format!(
            "{} has {} ranks separated by '/', found {}",
            variant.name(),
            board.ranks().len(),
            ranks.len()
        ));
    }
    let mut sides = [PointSet::EMPTY; 2];
    for (i, (text_rank, points)) in ranks.iter().zip(board.ranks()).enumerate() {
        let rank_name = board.coord(points[0]).1 + 1;
        if text_rank.chars().count() != points.len() {
            return Err(format!(
                "rank {rank_name} (field {} of ROWS) has {} points, found {}",
                i + 1,
                points.len(),
                text_rank.chars().count()
            ));
        }
        for (c, &p) in text_rank.chars().zip(points) {
            match c {
                'W' => sides[0] = sides[0].with(p),
                'B' => sides[1] = sides[1].with(p),
                '.' => {}
                _ => {
                    return Err(format!(
                        "unexpected character {c:?} at {} (use W, B or .)",
                        board.point_name(p)
                    ))
                }
            }
        }
    }
    Ok(sides)
}

/// The position of White's and Black's points and hands, each hand checked against its
/// side's pieces, with `turn` to move, once the hands are checked to occur with `turn` to move.
fn hands_to_move(
    variant: &Variant,
    sides: [PointSet; 2],
    [w, b]: [u8; 2],
    turn: Color,
) -> Result<(Position, Color), String> {
    check_hands(variant, turn, w, b)?;
    let white = Position {
        mover: sides[0],
        opponent: sides[1],
        mover_hand: w,
        opponent_hand: b,
    };
    Ok(match turn {
        Color::White => (white, turn),
        Color::Black => (white.flipped(), turn),
    })
}

/// The hand of `color` from its field: a number no greater than the variant's pieces.
fn parse_hand(variant: &Variant, color: Color, field: &str) -> Result<u8, String> {
    let pieces = variant.pieces();
    if field.is_empty() || !field.bytes().all(|b| b.is_ascii_digit()) {
        let field = clip(field);
        return Err(format!("{color}'s hand must be a number, found {field:?}"));
    }
    match field.parse::<u8>() {
        Ok(h) if h <= pieces => Ok(h),
        _ => Err(format!(
            "{color}'s hand {} exceeds the {pieces} pieces of {}",
            clip(field),
            variant.name()
        )),
    }
}

/// Checks that `color` may have `hand` pieces in hand with `on_board` on the board.
fn check_hand(variant: &Variant, color: Color, hand: u8, on_board: PointSet) -> Result<(), String> {
    let pieces = variant.pieces();
    if hand > pieces {
        return Err(format!(
            "{color}'s hand {hand} exceeds the {pieces} pieces of {}",
            variant.name()
        ));
    }
    if on_board.len() + hand as u32 > pieces as u32 {
        return Err(format!(
            "{color} has {} on the board and {hand} in hand, more than its {pieces} pieces",
            on_board.len()
        ));
    }
    Ok(())
}

/// Checks that hands `w` (White's) and `b` (Black's) can occur with `turn` to move.
fn check_hands(variant: &Variant, turn: Color, w: u8, b: u8) -> Result<(), String> {
    match turn {
        // Under Lasker's phases a side may move instead of placing: any hands can occur.
        _ if variant.rules().phases == Phases::Lasker => Ok(()),
        Color::White if w != b => Err(format!(
            "with White to move both hands must be equal, found {w} and {b}"
        )),
        Color::Black if !(b == w + 1 || (w == 0 && b == 0)) => Err(format!(
            "with Black to move Black's hand must be one more than White's (or both 0), found {w} and {b}"
        )),
        _ => Ok(()),
    }
}
