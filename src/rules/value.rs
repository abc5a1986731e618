//! Values: win, loss or draw for the mover, with the depth in plies to the end.

use std::cmp::Ordering;
use std::fmt;

/// The game-theoretic value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The mover wins in this many plies (odd) against any defence.
    Win(u32),
    /// The mover loses in this many plies (even) under the longest defence; 0 = finished.
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

/// A value without its depth: what a win/draw/loss table answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The mover wins.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The mover loses.
    Loss,
}

impl Outcome {
    /// `win`, `loss` or `draw`.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Loss => "loss",
            Outcome::Draw => "draw",
        }
    }

    /// The outcome for the side to move before a move into a position of outcome `self`.
    #[must_use]
    pub fn before_move(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
        }
    }

    /// Orders outcomes from the mover's point of view: wins first, then draws, then losses.
    pub fn preference(self, other: Outcome) -> Ordering {
        let key = |o| match o {
            Outcome::Win => 0,
            Outcome::Draw => 1,
            Outcome::Loss => 2,
        };
        key(self).cmp(&key(other))
    }
}

impl Value {
    /// Win, draw or loss, without the depth.
    pub fn outcome(self) -> Outcome {
        match self {
            Value::Win(_) => Outcome::Win,
            Value::Loss(_) => Outcome::Loss,
            Value::Draw => Outcome::Draw,
        }
    }

    /// The value of a resolved depth: odd depths are wins, even ones losses (the side that
    /// makes the last move wins).
    #[inline]
    pub fn from_depth(depth: u32) -> Value {
        if depth % 2 == 1 {
            Value::Win(depth)
        } else {
            Value::Loss(depth)
        }
    }

    /// The depth, or `None` for a draw.
    pub fn depth(self) -> Option<u32> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
        }
    }

    /// `win`, `loss` or `draw`.
    pub fn name(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Loss(_) => "loss",
            Value::Draw => "draw",
        }
    }

    /// The value for the side to move before a move into a position of value `self`.
    #[must_use]
    pub fn before_move(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Loss(d) => Value::Win(d + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// Orders values from the mover's point of view: quick wins first, then draws, then long
    /// losses, then short losses.
    pub fn preference(self, other: Value) -> Ordering {
        fn key(v: Value) -> (u8, i64) {
            match v {
                Value::Win(d) => (0, d as i64),
                Value::Draw => (1, 0),
                Value::Loss(d) => (2, -(d as i64)),
            }
        }
        key(self).cmp(&key(other))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win in {d}"),
            Value::Loss(d) => write!(f, "loss in {d}"),
            Value::Draw => f.write_str("draw"),
        }
    }
}
