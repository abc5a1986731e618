//! Moves: placements, slides and flies, each with an optional removal.

use std::fmt;

use super::board::Board;
use super::point::Point;
use crate::invalid::InvalidInput;

const NONE: u8 = u8::MAX;

/// A move: place on or move to `to` (from `from` unless a placement), then maybe remove a piece.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Move {
    from: u8,
    to: u8,
    remove: u8,
}

impl Move {
    /// A placement on `to`.
    #[inline]
    pub const fn place(to: Point) -> Move {
        Move {
            from: NONE,
            to: to.index() as u8,
            remove: NONE,
        }
    }

    /// A slide or fly from `from` to `to`.
    #[inline]
    pub const fn shift(from: Point, to: Point) -> Move {
        Move {
            from: from.index() as u8,
            to: to.index() as u8,
            remove: NONE,
        }
    }

    /// The same move with the opponent's piece on `p` removed.
    #[inline]
    pub const fn removing(self, p: Point) -> Move {
        Move {
            remove: p.index() as u8,
            ..self
        }
    }

    /// The point left, or `None` for a placement.
    #[inline]
    pub fn from(self) -> Option<Point> {
        (self.from != NONE).then_some(Point::new(self.from))
    }

    /// The point placed on or moved to.
    #[inline]
    pub fn to(self) -> Point {
        Point::new(self.to)
    }

    /// The opponent's point emptied by a mill, if any.
    #[inline]
    pub fn removed(self) -> Option<Point> {
        (self.remove != NONE).then_some(Point::new(self.remove))
    }

    /// The move in notation: `d7`, `a1-a4`, `d7xg7`, `a1-a4xg7`.
    pub fn to_notation(self, board: &Board) -> String {
        let mut s = String::with_capacity(8);
        if let Some(f) = self.from() {
            s.push_str(board.point_name(f));
            s.push('-');
        }
        s.push_str(board.point_name(self.to()));
        if let Some(r) = self.removed() {
            s.push('x');
            s.push_str(board.point_name(r));
        }
        s
    }

    /// Parses notation into a move on `board` (whether it is legal is not checked here).
    ///
    /// # Errors
    /// `InvalidInput::Move` when the text is malformed or names a point the board lacks.
    pub fn parse(board: &Board, text: &str) -> Result<Move, InvalidInput> {
        let fail = |why: String| InvalidInput::Move {
            input: text.to_string(),
            why,
        };
        let point = |s: &str| {
            board.point(s).ok_or_else(|| {
                fail(format!(
                    "{s:?} is not a point of the {} board",
                    board.name()
                ))
            })
        };
        let (body, remove) = match text.split_once('x') {
            Some((b, r)) => (b, Some(point(r)?)),
            None => (text, None),
        };
        let mv = match body.split_once('-') {
            Some((f, t)) => Move::shift(point(f)?, point(t)?),
            None => Move::place(point(body)?),
        };
        Ok(match remove {
            Some(r) => mv.removing(r),
            None => mv,
        })
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Move({:?}->{}x{:?})",
            self.from(),
            self.to,
            self.removed()
        )
    }
}
