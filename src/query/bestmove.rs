//! The move perfect play picks against a fallible opponent.
//!
//! 1. Value first: only the moves that keep the position's value (a win at the shortest
//!    depth, a draw, a loss at the longest depth) are candidates.
//! 2. A win takes any of the fastest winning moves ([`Rule::FastestWin`]): every reply loses.
//! 3. A draw sets traps: it takes the candidate after which an opponent choosing at random
//!    most often loses within [`traps::DEPTH`] of its moves ([`super::traps`]; one move when
//!    that search would pass its budget), then the one with the fewest replies that keep the
//!    draw, then the most that lose ([`Rule::DrawMostTraps`]).
//! 4. A loss looks one reply further: the opponent's *good* replies are those that still win;
//!    it takes the candidate with the fewest, then the most mistakes
//!    ([`Rule::SlowestLossFewestWinningReplies`]).
//! 5. Candidates still equal are taken in notation order, or, with a seed, one of them at
//!    random (the same seed, the same choice).

use std::cmp::Reverse;

use super::random::SplitMix64;
use super::traps::{self, Traps};
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
    /// A draw: the most traps, then the fewest replies that do not lose, then the most that lose.
    DrawMostTraps,
    /// A loss: one of the slowest, with the fewest winning replies, then the most others.
    SlowestLossFewestWinningReplies,
}

impl Rule {
    /// The rule's name in the API.
    pub fn name(self) -> &'static str {
        match self {
            Rule::FastestWin => "fastest-win",
            Rule::DrawMostTraps => "draw-most-traps",
            Rule::SlowestLossFewestWinningReplies => "slowest-loss-fewest-winning-replies",
        }
    }
}

/// The chosen move and why.
#[derive(Clone, Copy, Debug, PartialEq)]
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
    /// For a draw, the traps the move sets ([`super::traps`]).
    pub traps: Option<Traps>,
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
        Value::Draw => Rule::DrawMostTraps,
        Value::Loss(_) => Rule::SlowestLossFewestWinningReplies,
    };
    if rule == Rule::DrawMostTraps {
        let after: Vec<Position> = best.iter().map(|&mv| play(pos, mv)).collect();
        let found = traps::deepest(db, &after, traps::DEPTH, traps::budget(db))?;
        // The chance compared to nine places, so that sums taken in another order tie.
        let key = |t: &Traps| {
            (
                Reverse((t.chance * 1e9).round() as u64),
                t.replies - t.losing,
                Reverse(t.losing),
            )
        };
        let Some(top) = found.iter().map(key).min() else {
            return Ok(None);
        };
        let tied: Vec<usize> = (0..best.len()).filter(|&i| key(&found[i]) == top).collect();
        let i = pick(&tied, seed);
        let t = found[i];
        return Ok(Some(Choice {
            mv: best[i],
            value: analysis.value,
            rule,
            candidates: best.len(),
            good_replies: Some((t.replies - t.losing) as usize),
            replies: t.replies as usize,
            traps: Some(t),
        }));
    }
    // (move, good replies, replies)
    let mut scored = Vec::with_capacity(best.len());
    for &mv in &best {
        let next = play(pos, mv);
        let replies = generate(variant, &next);
        let good = match rule {
            Rule::FastestWin => None,
            _ => {
                // The value the opponent faces: a win after a losing move; a reply keeps it
                // when it has the same kind.
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
    let tied: Vec<usize> = (0..scored.len())
        .filter(|&i| key(&scored[i]) == top)
        .collect();
    let chosen = &scored[pick(&tied, seed)];
    Ok(Some(Choice {
        mv: chosen.0,
        value: analysis.value,
        rule,
        candidates: best.len(),
        good_replies: chosen.1,
        replies: chosen.2,
        traps: None,
    }))
}

/// The first of `tied`, or with a seed one of them chosen by it.
fn pick(tied: &[usize], seed: Option<u64>) -> usize {
    match seed {
        Some(s) => tied[(SplitMix64::new(s).next_u64() % tied.len() as u64) as usize],
        None => tied[0],
    }
}
