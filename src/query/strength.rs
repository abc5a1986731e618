//! Weaker engine levels: a move drawn from all solved moves by a seeded softmax over their values.
//!
//! Perfect play ([`super::choose`]) always keeps the position's value. A weaker level draws
//! among every legal move whose result is solved, with probability ∝ exp(score / T). A move's
//! score, for the side to move, is `1 - d/(2(D+1))` for a win in d plies, 0 for a draw and
//! `-1 + d/(2(D+1))` for a loss in d plies, where D is the largest depth among the moves: faster
//! wins and slower losses score higher, yet every win (above 1/2) beats every draw, and every
//! draw every loss (below -1/2). The temperature T is the level: the lower, the more often the
//! best move; perfect play has none.
//!
//! The sampling lives here rather than as another [`super::Rule`]: a rule names how perfect
//! play breaks ties among the moves that keep the value, while a level may give the value away,
//! and the callers (the server, the Python package, the C library) match on the rules of perfect play.

use super::random::{random_seed, SplitMix64};
use crate::error::Error;
use crate::invalid::InvalidInput;
use crate::rules::{clip, generate, play, Move, Position, Value};
use crate::store::Database;

/// How well the engine plays: perfect play, or a softmax at one of seven temperatures, whose
/// error rates `scripts/strength_ladder.py` measures (`docs/explorer.md` publishes them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strength {
    /// Perfect play: [`super::choose`].
    Perfect,
    /// Softmax at temperature 0.08: a result given away very rarely.
    Expert,
    /// Softmax at temperature 0.15: nearly always the best move, now and then a slower win.
    Strong,
    /// Softmax at temperature 0.2.
    Advanced,
    /// Softmax at temperature 0.26.
    Intermediate,
    /// Softmax at temperature 0.35: mostly good moves, a draw or a loss given away at times.
    Club,
    /// Softmax at temperature 0.5.
    Casual,
    /// Softmax at temperature 0.8: a beginner, who often misses the best move.
    Novice,
}

impl Strength {
    /// Every level, strongest first.
    pub const ALL: [Strength; 8] = [
        Strength::Perfect,
        Strength::Expert,
        Strength::Strong,
        Strength::Advanced,
        Strength::Intermediate,
        Strength::Club,
        Strength::Casual,
        Strength::Novice,
    ];

    /// The level's name in the API.
    pub fn name(self) -> &'static str {
        match self {
            Strength::Perfect => "perfect",
            Strength::Expert => "expert",
            Strength::Strong => "strong",
            Strength::Advanced => "advanced",
            Strength::Intermediate => "intermediate",
            Strength::Club => "club",
            Strength::Casual => "casual",
            Strength::Novice => "novice",
        }
    }

    /// The level named `name`.
    ///
    /// # Errors
    /// `InvalidInput::UnknownRule` naming the levels, as an unknown rule value is refused.
    pub fn parse(name: &str) -> Result<Strength, InvalidInput> {
        Strength::ALL
            .into_iter()
            .find(|s| s.name() == name)
            .ok_or_else(|| InvalidInput::UnknownRule {
                rule: "strength",
                value: clip(name),
                expected: Strength::ALL.map(Strength::name).join(", "),
            })
    }

    /// The softmax temperature, `None` for perfect play.
    pub fn temperature(self) -> Option<f64> {
        match self {
            Strength::Perfect => None,
            Strength::Expert => Some(0.08),
            Strength::Strong => Some(0.15),
            Strength::Advanced => Some(0.2),
            Strength::Intermediate => Some(0.26),
            Strength::Club => Some(0.35),
            Strength::Casual => Some(0.5),
            Strength::Novice => Some(0.8),
        }
    }
}

/// The move a weaker level drew, and what it was drawn from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The move.
    pub mv: Move,
    /// Its value for the side to move.
    pub value: Value,
    /// The best value among the solved moves (the position's value when all are solved).
    pub best: Value,
    /// The chance the move had.
    pub probability: f64,
    /// The solved moves with exactly the best value.
    pub candidates: usize,
    /// The solved moves with the best value's outcome (win, draw or loss), any depth.
    pub best_outcome: usize,
    /// The moves drawn from: every legal move whose result is solved.
    pub solved: usize,
    /// The legal moves left out because their result is not solved.
    pub unsolved: usize,
    /// The opponent's legal replies after the move.
    pub replies: usize,
}

/// A move's score for the side to move; `max_depth` is the largest depth among the moves.
pub fn score(value: Value, max_depth: u32) -> f64 {
    let scale = 2.0 * (max_depth as f64 + 1.0);
    match value {
        Value::Win(d) => 1.0 - d as f64 / scale,
        Value::Draw => 0.0,
        Value::Loss(d) => -1.0 + d as f64 / scale,
    }
}

/// Each move's probability at `temperature`: the softmax of the scores.
pub fn probabilities(values: &[Value], temperature: f64) -> Vec<f64> {
    let max_depth = values.iter().filter_map(|v| v.depth()).max().unwrap_or(0);
    let scores: Vec<f64> = values.iter().map(|&v| score(v, max_depth)).collect();
    // Shifted by the top score, so that no weight overflows at low temperatures.
    let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = scores
        .iter()
        .map(|s| ((s - top) / temperature).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    weights.iter().map(|w| w / total).collect()
}

/// The index drawn from `probabilities` (which sum to 1) by one number of `rng`.
pub(crate) fn draw(probabilities: &[f64], rng: &mut SplitMix64) -> usize {
    let u = rng.unit();
    let mut sum = 0.0;
    for (i, p) in probabilities.iter().enumerate() {
        sum += p;
        if u < sum {
            return i;
        }
    }
    // Rounding left the sum a hair below 1: the last move with a chance.
    probabilities.iter().rposition(|&p| p > 0.0).unwrap_or(0)
}

/// A move drawn at `temperature` from the moves of `pos` whose results are solved, the same
/// for the same `seed`; `None` when the game is over.
///
/// # Errors
/// The first unsolved sector's `Error::Missing` when no move's result is solved; a damaged
/// file.
pub fn sample(
    db: &Database,
    pos: &Position,
    temperature: f64,
    seed: u64,
) -> Result<Option<Sample>, Error> {
    let variant = db.variant();
    let mut missing = None;
    // (move, value, notation), best first and in notation order among equal values, so that
    // a seed draws the same move whatever order the move generator has.
    let legal = generate(variant, pos);
    let mut moves = Vec::new();
    for &mv in &legal {
        match db.probe(&play(pos, mv)) {
            Ok(v) => moves.push((mv, v.before_move(), mv.to_notation(variant.board()))),
            Err(e @ Error::Missing(_)) => missing = missing.or(Some(e)),
            Err(e) => return Err(e),
        }
    }
    let unsolved = legal.len() - moves.len();
    if moves.is_empty() {
        return match missing {
            Some(e) => Err(e),
            None => Ok(None),
        };
    }
    moves.sort_by(|(_, a, an), (_, b, bn)| a.preference(*b).then_with(|| an.cmp(bn)));
    let values: Vec<Value> = moves.iter().map(|m| m.1).collect();
    let chances = probabilities(&values, temperature);
    let i = draw(&chances, &mut SplitMix64::new(seed));
    let (mv, value, best) = (moves[i].0, values[i], values[0]);
    Ok(Some(Sample {
        mv,
        value,
        best,
        probability: chances[i],
        candidates: values.iter().filter(|&&v| v == best).count(),
        best_outcome: values
            .iter()
            .filter(|v| v.outcome() == best.outcome())
            .count(),
        solved: moves.len(),
        unsolved,
        replies: generate(variant, &play(pos, mv)).len(),
    }))
}

/// The move the database plays at `strength`: perfect play's [`super::choose`] (ties to the
/// first in notation order, or to `seed`'s pick), or a weaker level's [`sample`] (drawn by
/// `seed`, by a random one without); `None` when the game is over. The bindings' one call; the
/// server, which answers the choice's reasons too, calls the two itself.
///
/// # Errors
/// As [`super::choose`] and [`sample`].
pub fn move_at(
    db: &Database,
    pos: &Position,
    strength: Strength,
    seed: Option<u64>,
) -> Result<Option<Move>, Error> {
    Ok(match strength.temperature() {
        None => super::choose(db, pos, seed)?.map(|c| c.mv),
        Some(t) => sample(db, pos, t, seed.unwrap_or_else(random_seed))?.map(|s| s.mv),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How often each index is drawn over seeds `0..n`.
    fn counts(values: &[Value], strength: Strength, n: u64) -> Vec<u64> {
        let chances = probabilities(values, strength.temperature().unwrap());
        let mut out = vec![0; values.len()];
        for seed in 0..n {
            out[draw(&chances, &mut SplitMix64::new(seed))] += 1;
        }
        out
    }

    #[test]
    fn scores_put_faster_wins_and_slower_losses_first_and_any_win_above_any_draw() {
        let d = 20;
        assert_eq!(score(Value::Draw, d), 0.0);
        assert!(score(Value::Win(1), d) > score(Value::Win(19), d));
        assert!(score(Value::Win(d), d) > 0.5);
        assert!(score(Value::Loss(d), d) < -0.5);
        assert!(score(Value::Loss(18), d) > score(Value::Loss(2), d));
        assert_eq!(score(Value::Loss(0), d), -1.0);
    }

    #[test]
    fn probabilities_sum_to_one_and_sharpen_as_the_level_rises() {
        let values = [Value::Win(5), Value::Win(9), Value::Draw, Value::Loss(8)];
        let mut best = Vec::new();
        // Weakest first: the best move's chance grows at every step of the ladder.
        for s in Strength::ALL[1..].iter().rev().copied() {
            let p = probabilities(&values, s.temperature().unwrap());
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            assert!(p.windows(2).all(|w| w[0] > w[1]), "{s:?}: {p:?}");
            best.push(p[0]);
        }
        assert!(best.windows(2).all(|w| w[0] < w[1]), "{best:?}");
        // Far apart scores at a low temperature: no overflow, no NaN.
        let p = probabilities(&[Value::Win(1), Value::Loss(0)], 0.01);
        assert_eq!(p[0], 1.0);
        assert!(p[1] >= 0.0 && p[1] < 1e-70, "{p:?}");
    }

    #[test]
    fn a_strong_level_finds_a_lone_win_among_ten_draws() {
        let mut values = vec![Value::Draw; 10];
        values.push(Value::Win(7));
        let c = counts(&values, Strength::Strong, 1000);
        // exp((1 - 7/16) / 0.15) = 42.5 against 10: the win about 81% of the time.
        assert!(c[10] > 700 && c[10] < 900, "{c:?}");
        let c = counts(&values, Strength::Novice, 1000);
        assert!(c[10] < 300, "a novice often misses it: {c:?}");
    }

    #[test]
    fn a_novice_plays_a_worse_move_sometimes_and_the_best_most_often() {
        let values = [Value::Win(3), Value::Win(11), Value::Draw, Value::Loss(10)];
        let c = counts(&values, Strength::Novice, 1000);
        assert!(c[0] > c[1] && c[1] > c[2] && c[2] > c[3], "{c:?}");
        assert!(c[1] + c[2] + c[3] > 100, "{c:?}");
        let strong = counts(&values, Strength::Strong, 1000);
        assert!(strong[2] + strong[3] < 10, "{strong:?}");
    }

    #[test]
    fn the_same_seed_draws_the_same_move() {
        let values = [Value::Win(3), Value::Draw, Value::Draw, Value::Loss(4)];
        let p = probabilities(&values, 0.8);
        for seed in [0, 1, 42, u64::MAX] {
            let a = draw(&p, &mut SplitMix64::new(seed));
            assert_eq!(a, draw(&p, &mut SplitMix64::new(seed)));
        }
    }

    #[test]
    fn levels_have_names() {
        for s in Strength::ALL {
            assert_eq!(Strength::parse(s.name()), Ok(s));
        }
        assert_eq!(
            Strength::parse("grandmaster").unwrap_err().to_string(),
            "unknown strength value \"grandmaster\" (expected perfect, expert, strong, advanced, \
             intermediate, club, casual, novice)"
        );
        assert_eq!(Strength::Perfect.temperature(), None);
        let t: Vec<f64> = Strength::ALL[1..]
            .iter()
            .map(|s| s.temperature().unwrap())
            .collect();
        assert!(t.windows(2).all(|w| w[0] < w[1]), "strongest first: {t:?}");
    }
}
