//! Perfect play from a database: the value of a position and of each of its legal moves.

use crate::error::{Damage, Error};
use crate::rules::Move;
use crate::rules::Position;
use crate::rules::Value;
use crate::rules::{generate, play, value_without_moves};
use crate::store::Database;

/// A legal move with the value it gives the side to move (depth counted from before it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// What the side to move gets by playing it.
    pub value: Value,
}

/// A position's value and all its legal moves, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The value for the side to move.
    pub value: Value,
    /// Every legal move, best first (ties in notation order).
    pub moves: Vec<MoveValue>,
}

impl Analysis {
    /// The moves that keep the position's value (all of them carry it exactly).
    pub fn best(&self) -> impl Iterator<Item = &MoveValue> {
        self.moves.iter().filter(move |m| m.value == self.value)
    }
}

impl Database {
    /// The value of `pos` and of every legal move, best first.
    ///
    /// # Errors
    /// A sector of the position or of a move's result is missing or damaged, or the stored
    /// value disagrees with the best move's (which only a damaged database can do).
    pub fn analyse(&self, pos: &Position) -> Result<Analysis, Error> {
        let value = self.probe(pos)?;
        let board = self.variant().board();
        // Each move's notation once, for the tie-break, not once per comparison.
        let mut named = generate(self.variant(), pos)
            .iter()
            .map(|&mv| {
                let value = self.probe(&play(pos, mv))?.before_move();
                Ok((MoveValue { mv, value }, mv.to_notation(board)))
            })
            .collect::<Result<Vec<_>, Error>>()?;
        named.sort_by(|(a, an), (b, bn)| a.value.preference(b.value).then_with(|| an.cmp(bn)));
        let moves: Vec<MoveValue> = named.into_iter().map(|(m, _)| m).collect();
        let consistent = match moves.first() {
            Some(best) => best.value == value,
            None => value == value_without_moves(self.variant(), pos),
        };
        if !consistent {
            return Err(Error::damaged(
                &self.path(crate::space::Sector::of(pos)),
                Damage::Inconsistent {
                    stored: value,
                    best: moves.first().map(|m| m.value),
                },
            ));
        }
        Ok(Analysis { value, moves })
    }
}
