//! Perfect play from a database: the value of a position and of each of its legal moves.

use std::cmp::Ordering;

use crate::error::{Damage, Error};
use crate::rules::Position;
use crate::rules::{generate, play, value_without_moves};
use crate::rules::{Move, Outcome, Value};
use crate::space::Sector;
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

/// A legal move with the outcome it gives the side to move, without a distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveOutcome {
    /// The move.
    pub mv: Move,
    /// What the side to move gets by playing it.
    pub outcome: Outcome,
}

/// A position's outcome and all its legal moves' outcomes, as tables without their depth
/// files answer: wins first, then draws, then losses, ties in notation order. Among several
/// winning moves none is told apart: without a distance, the one that makes progress is not
/// known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutcomeAnalysis {
    /// Win, draw or loss for the side to move.
    pub outcome: Outcome,
    /// Every legal move, wins first (ties in notation order).
    pub moves: Vec<MoveOutcome>,
}

/// What a folder answers of a position: values with their depths, or, where a sector the
/// answer reads is held as win/draw/loss tables without their depth files, outcomes alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Every value with its depth.
    Values(Analysis),
    /// Win, draw or loss only: no distance is known, and none is guessed.
    Outcomes(OutcomeAnalysis),
}

impl Answer {
    /// Every legal move the answer gives, best first.
    pub fn moves(&self) -> Vec<Move> {
        match self {
            Answer::Values(a) => a.moves.iter().map(|m| m.mv).collect(),
            Answer::Outcomes(a) => a.moves.iter().map(|m| m.mv).collect(),
        }
    }
}

impl Database {
    /// The value of `pos` and of every legal move, best first.
    ///
    /// # Errors
    /// A sector of the position or of a move's result is missing or damaged, or the stored
    /// value disagrees with the best move's (which only a damaged database can do);
    /// `Error::NoDistance` when one of them is held without its depth file.
    pub fn analyse(&self, pos: &Position) -> Result<Analysis, Error> {
        let value = self.probe(pos)?;
        let moves: Vec<MoveValue> = self
            .ranked(pos, |p| Ok(self.probe(p)?.before_move()), Value::preference)?
            .into_iter()
            .map(|(mv, value)| MoveValue { mv, value })
            .collect();
        let consistent = match moves.first() {
            Some(best) => best.value == value,
            None => value == value_without_moves(self.variant(), pos),
        };
        if !consistent {
            return Err(Error::damaged(
                &self.path(Sector::of(pos)),
                Damage::Inconsistent {
                    stored: value,
                    best: moves.first().map(|m| m.value),
                },
            ));
        }
        Ok(Analysis { value, moves })
    }

    /// The outcome of `pos` and of every legal move, wins first: only win/draw/loss files
    /// are read.
    ///
    /// # Errors
    /// As [`Database::analyse`], but never `Error::NoDistance`; a stored outcome that
    /// disagrees with the best move's is `Error::Damaged`.
    pub fn analyse_outcomes(&self, pos: &Position) -> Result<OutcomeAnalysis, Error> {
        let outcome = self.probe_outcome(pos)?;
        let moves: Vec<MoveOutcome> = self
            .ranked(
                pos,
                |p| Ok(self.probe_outcome(p)?.before_move()),
                Outcome::preference,
            )?
            .into_iter()
            .map(|(mv, outcome)| MoveOutcome { mv, outcome })
            .collect();
        let best = match moves.first() {
            Some(best) => best.outcome,
            None => value_without_moves(self.variant(), pos).outcome(),
        };
        if best != outcome {
            return Err(Error::damaged(
                &self.path(Sector::of(pos)),
                Damage::InconsistentOutcome {
                    stored: outcome,
                    best: moves.first().map(|m| m.outcome),
                },
            ));
        }
        Ok(OutcomeAnalysis { outcome, moves })
    }

    /// What the folder answers of `pos`: [`Database::analyse`], or, where a sector it reads
    /// (the position's or a move's result's) holds no depths, [`Database::analyse_outcomes`]
    /// (even where every value read is a draw, so that the answer says the folder holds no
    /// distances).
    ///
    /// # Errors
    /// As [`Database::analyse_outcomes`].
    pub fn answer(&self, pos: &Position) -> Result<Answer, Error> {
        let mut every = vec![*pos];
        every.extend(
            generate(self.variant(), pos)
                .iter()
                .map(|&mv| play(pos, mv)),
        );
        for p in &every {
            if !self.has_distances(p)? {
                return self.analyse_outcomes(pos).map(Answer::Outcomes);
            }
        }
        self.analyse(pos).map(Answer::Values)
    }

    /// Every legal move of `pos` with `of` the position it leads to (what the side to move
    /// gets by playing it), best first by `order`, ties in notation order.
    fn ranked<T: Copy>(
        &self,
        pos: &Position,
        of: impl Fn(&Position) -> Result<T, Error>,
        order: fn(T, T) -> Ordering,
    ) -> Result<Vec<(Move, T)>, Error> {
        let board = self.variant().board();
        // Each move's notation once, for the tie-break, not once per comparison.
        let mut named = generate(self.variant(), pos)
            .iter()
            .map(|&mv| Ok((mv, of(&play(pos, mv))?, mv.to_notation(board))))
            .collect::<Result<Vec<_>, Error>>()?;
        named.sort_by(|(_, a, an), (_, b, bn)| order(*a, *b).then_with(|| an.cmp(bn)));
        Ok(named.into_iter().map(|(mv, t, _)| (mv, t)).collect())
    }
}
