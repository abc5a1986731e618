//! How hard a drawing move makes the opponent's task: the chance that an opponent who picks
//! each of its moves at random loses within a few of them, while the side that drew keeps the
//! draw and answers with the move that sets the most traps.
//!
//! For a drawn position P with the opponent to move, N legal replies of which L lose:
//! `chance(P, 1) = L / N`, and `chance(P, d) = (L + Σ max chance(P', d - 1)) / N`, the sum over
//! the N - L replies that keep the draw, the maximum over our drawing answers to each (P' the
//! position after the answer). One ply deep, f2xc3 (13 of 14 replies lose) and f2xd7 (2 of 14)
//! differ; two deep, so do moves after which no reply loses at once but many lose a move later,
//! as in the opening, where every first move of nine leaves no losing reply.
//!
//! The work grows as the moves' count to the power `2d - 1`, so a search carries a budget of
//! probes: a caller asks the deepest level the budget allows for all the moves it compares
//! ([`deepest`]), and the same level for each, so that their chances compare.

use std::collections::HashMap;

use crate::error::Error;
use crate::rules::{generate, play, Position, Value};
use crate::store::Database;

/// How many of the opponent's moves the explorer and the engine look at, when the budget allows.
pub const DEPTH: u32 = 2;

/// The most probes one search over sector files makes before it falls back to a shallower
/// level: about a tenth of a second of mapped probes.
pub const BUDGET: u64 = 250_000;

/// The same over compact tables, where a probe far from the last decodes a block and costs
/// ten times as much: a second or so, within a server's answer time.
pub const TABLES_BUDGET: u64 = 50_000;

/// The budget of a search over `db`.
pub fn budget(db: &Database) -> u64 {
    if db.is_tables() {
        TABLES_BUDGET
    } else {
        BUDGET
    }
}

/// A drawing move's traps: what the opponent faces after it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Traps {
    /// The opponent's legal replies.
    pub replies: u32,
    /// How many of them lose.
    pub losing: u32,
    /// The chance that an opponent choosing at random loses within `depth` of its moves.
    pub chance: f64,
    /// How many of the opponent's moves the chance looks at.
    pub depth: u32,
}

/// One search: its budget and the chances found so far (positions recur by transposition).
struct Search<'a> {
    db: &'a Database,
    probes_left: u64,
    memo: HashMap<(Position, u32), f64>,
}

/// The budget ran out.
struct Spent;

impl Search<'_> {
    /// The value of `pos` for its side to move, counted against the budget.
    fn probe(&mut self, pos: &Position) -> Result<Result<Value, Spent>, Error> {
        if self.probes_left == 0 {
            return Ok(Err(Spent));
        }
        self.probes_left -= 1;
        Ok(Ok(self.db.probe(pos)?))
    }

    /// `(replies, losing replies, chance)` of `pos`, a drawn position with the opponent to move.
    fn traps(
        &mut self,
        pos: &Position,
        depth: u32,
    ) -> Result<Result<(u32, u32, f64), Spent>, Error> {
        let variant = self.db.variant();
        let replies = generate(variant, pos);
        let (mut losing, mut kept) = (0u32, Vec::new());
        for &r in &replies {
            let next = play(pos, r);
            // The value for the drawing side, to move after the reply: a win means it lost.
            match self.probe(&next)? {
                Err(Spent) => return Ok(Err(Spent)),
                Ok(Value::Win(_)) => losing += 1,
                Ok(Value::Draw) => kept.push(next),
                Ok(Value::Loss(_)) => {}
            }
        }
        let mut sum = f64::from(losing);
        if depth > 1 {
            for q in &kept {
                let mut best = 0.0f64;
                for &m in &generate(variant, q) {
                    let after = play(q, m);
                    match self.probe(&after)? {
                        Err(Spent) => return Ok(Err(Spent)),
                        Ok(Value::Draw) => match self.chance(&after, depth - 1)? {
                            Err(Spent) => return Ok(Err(Spent)),
                            Ok(c) => best = best.max(c),
                        },
                        Ok(_) => {}
                    }
                }
                sum += best;
            }
        }
        let n = replies.len() as u32;
        let chance = if n == 0 { 0.0 } else { sum / f64::from(n) };
        Ok(Ok((n, losing, chance)))
    }

    /// [`Search::traps`]' chance, remembered.
    fn chance(&mut self, pos: &Position, depth: u32) -> Result<Result<f64, Spent>, Error> {
        if let Some(&c) = self.memo.get(&(*pos, depth)) {
            return Ok(Ok(c));
        }
        let c = match self.traps(pos, depth)? {
            Err(Spent) => return Ok(Err(Spent)),
            Ok((_, _, c)) => c,
        };
        self.memo.insert((*pos, depth), c);
        Ok(Ok(c))
    }
}

/// The traps of each of `positions` (each a drawn position with the opponent to move: the
/// result of a drawing move) at `depth` of the opponent's moves, or `None` when that takes more
/// than `budget` probes.
///
/// # Errors
/// A sector of a reply or an answer is not solved (`Error::Missing`), or is damaged.
pub fn at_depth(
    db: &Database,
    positions: &[Position],
    depth: u32,
    budget: u64,
) -> Result<Option<Vec<Traps>>, Error> {
    let mut search = Search {
        db,
        probes_left: budget,
        memo: HashMap::new(),
    };
    let mut out = Vec::with_capacity(positions.len());
    for pos in positions {
        match search.traps(pos, depth.max(1))? {
            Err(Spent) => return Ok(None),
            Ok((replies, losing, chance)) => out.push(Traps {
                replies,
                losing,
                chance,
                depth: depth.max(1),
            }),
        }
    }
    Ok(Some(out))
}

/// The traps of each of `positions` at the deepest level up to `depth` that `budget` probes
/// allow for all of them (one level for all; one move deep always, whatever it costs).
///
/// # Errors
/// As [`at_depth`].
pub fn deepest(
    db: &Database,
    positions: &[Position],
    depth: u32,
    budget: u64,
) -> Result<Vec<Traps>, Error> {
    for d in (2..=depth).rev() {
        if let Some(t) = at_depth(db, positions, d, budget)? {
            return Ok(t);
        }
    }
    Ok(at_depth(db, positions, 1, u64::MAX)?.expect("an unbounded search ends"))
}
