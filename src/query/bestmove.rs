//! The move perfect play picks against a fallible opponent.
//!
//! 1. Value first: only the moves that keep the position's value (a win at the shortest
//!    depth, a draw, a loss at the longest depth) are candidates.
//! 2. A win takes any of the fastest winning moves ([`Rule::FastestWin`]): every reply loses.
//! 3. A draw or a loss looks one reply further: for each candidate, the opponent's *good*
//!    replies are those that keep the value of the position it faces (that still draw after
//!    a drawing move, that still win after a losing move); the rest are mistakes. It takes the
//!    candidate with the fewest good replies, then the most mistakes
//!    ([`Rule::DrawFewestSafeReplies`], [`Rule::SlowestLossFewestWinningReplies`]).
//! 4. Candidates still equal are taken in notation order, or, with a seed, one of them at
//!    random (the same seed, the same choice).

use std::cmp::Reverse;

use super::random::SplitMix64;
use crate::error::Error;
use crate::rules::Move;
use crate::rules::Position;
use crate::rules::Value;
use crate::rules::{generate, play};
use crate::store::Database;

/// Which rule chose the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// A win: one of the fastest.
    FastestWin,
    /// A draw: the fewest replies that do not lose, then the most that lose.
    DrawFewestSafeReplies,
    /// A loss: one of the slowest, with the fewest winning replies, then the most others.
    SlowestLossFewestWinningReplies,
}

impl Rule {
    /// The rule's name in the API.
    pub fn name(self) -> &'static str {
        match self {
            Rule::FastestWin => "fastest-win",
            Rule::DrawFewestSafeReplies => "draw-fewest-safe-replies",
            Rule::SlowestLossFewestWinningReplies => "slowest-loss-fewest-winning-replies",
        }
    }
}

/// The chosen move and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move.
    pub mv: Move,
    /// Its value for the side to move (the position's value).
    pub value: Value,
    /// The rule that chose it.
    pub rule: Rule,
    /// The moves that keep the position's value.
    pub candidates: usize,
    /// For a draw or a loss, the opponent's replies after the move that keep its value.
    pub good_replies: Option<usize>,
    /// The opponent's legal replies after the move.
    pub replies: usize,
}

/// The move to play in `pos`, or `None` when the game is over.
///
/// # Errors
/// A sector of the position, a move's result or a reply's result is not solved or damaged.
pub fn choose(db: &Database, pos: &Position, seed: Option<u64>) -> Result<Option<Choice>, Error> {
    let analysis = db.analyse(pos)?;
    // Best first, and in notation order among equal values.
    let best: Vec<Move> = analysis.best().map(|m| m.mv).collect();
    if best.is_empty() {
        return Ok(None);
    }
    let variant = db.variant();
    let rule = match analysis.value {
        Value::Win(_) => Rule::FastestWin,
        Value::Draw => Rule::DrawFewestSafeReplies,
        Value::Loss(_) => Rule::SlowestLossFewestWinningReplies,
    };
    // (move, good replies, replies)
    let mut scored = Vec::with_capacity(best.len());
    for &mv in &best {
        let next = play(pos, mv);
        let replies = generate(variant, &next);
        let good = match rule {
            Rule::FastestWin => None,
            _ => {
                // The value the opponent faces: a draw after a drawing move, a win after a
                // losing one; a reply keeps it when it has the same kind.
                let faces = db.probe(&next)?;
                let mut good = 0;
                for &r in &replies {
                    let v = db.probe(&play(&next, r))?.before_move();
                    if v.name() == faces.name() {
                        good += 1;
                    }
                }
                Some(good)
            }
        };
        scored.push((mv, good, replies.len()));
    }
    // Every fastest win ties (every reply loses): they are taken in notation order.
    let key = |&(_, good, replies): &(Move, Option<usize>, usize)| match good {
        None => (0, Reverse(0)),
        Some(good) => (good, Reverse(replies - good)),
    };
    let Some(top) = scored.iter().map(key).min() else {
        return Ok(None);
    };
    let tied: Vec<_> = scored.iter().filter(|s| key(s) == top).collect();
    let pick = match seed {
        Some(s) => tied[(SplitMix64::new(s).next_u64() % tied.len() as u64) as usize],
        None => tied[0],
    };
    Ok(Some(Choice {
        mv: pick.0,
        value: analysis.value,
        rule,
        candidates: best.len(),
        good_replies: pick.1,
        replies: pick.2,
    }))
}
