//! Play from a database: a position's analysis, the best move, weaker levels, the JSON contracts.

mod analysis;
mod bestmove;
pub mod depths;
mod random;
mod strength;
pub mod traps;
pub mod wire;

pub use analysis::{Analysis, Answer, MoveOutcome, MoveValue, OutcomeAnalysis};
pub use bestmove::{choose, Choice, Rule};
pub use random::random_seed;
#[cfg(feature = "serve")]
pub(crate) use random::SplitMix64;
pub use strength::{move_at, probabilities, sample, score, Sample, Strength};
