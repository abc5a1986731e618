//! Perfect play from a database: a position's analysis, the best move, and the JSON contracts.

mod analysis;
mod bestmove;
mod random;
pub mod wire;

pub use analysis::{Analysis, MoveValue};
pub use bestmove::{choose, Choice, Rule};
pub use random::{random_seed, SplitMix64};
