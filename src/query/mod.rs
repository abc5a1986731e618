//! Perfect play from a database: a position's analysis, the best move, and the JSON contracts.

mod analysis;
mod bestmove;
pub mod wire;

pub use analysis::{Analysis, MoveValue};
pub use bestmove::{choose, Choice, Rule};
