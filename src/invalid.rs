//! Invalid input: a variant, rule, position, move, sector or board that cannot be used.

use thiserror::Error;

/// What the user gave is not valid, and why: the rules and the space of positions refuse
/// input with this error (the library's [`crate::Error`] wraps it).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum InvalidInput {
    /// A board definition is malformed.
    #[error("board {board}: {why}")]
    Board {
        /// The board's name.
        board: String,
        /// What is wrong.
        why: String,
    },
    /// No variant has this name.
    #[error("unknown variant {name:?} (known: {known})")]
    UnknownVariant {
        /// The name given (clipped).
        name: String,
        /// The known names, comma-separated.
        known: String,
    },
    /// A rule value could not be parsed.
    #[error("unknown {rule} value {value:?} (expected {expected})")]
    UnknownRule {
        /// The rule's name.
        rule: &'static str,
        /// The value given.
        value: String,
        /// The accepted values.
        expected: String,
    },
    /// A rule value this build cannot yet play or solve.
    #[error("--{rule} {value} is not supported yet")]
    UnsupportedRule {
        /// The rule's name.
        rule: &'static str,
        /// The value given.
        value: String,
    },
    /// A position in notation is malformed or cannot occur.
    #[error("invalid position {input:?}: {why}")]
    Position {
        /// The text given.
        input: String,
        /// What is wrong.
        why: String,
    },
    /// A move in notation is malformed or not legal in the position.
    #[error("invalid move {input:?}: {why}")]
    Move {
        /// The text given.
        input: String,
        /// What is wrong.
        why: String,
    },
    /// A request that cannot be done as asked: an option's value, options that exclude each
    /// other, a path that is not a folder. The message says which and why.
    #[error("{0}")]
    Request(String),
    /// A sector name is malformed or its counts do not fit the variant.
    #[error("invalid sector {sector}: {why}")]
    Sector {
        /// The sector as given.
        sector: String,
        /// What is wrong.
        why: String,
    },
}

/// The most characters of user input an error message quotes.
pub const CLIP_CHARS: usize = 60;

/// User input as an error message quotes it: whole when short, otherwise its first
/// [`CLIP_CHARS`] characters, `…` and the total length, so that a huge line cannot flood the
/// message.
pub fn clip(text: &str) -> String {
    match text.char_indices().nth(CLIP_CHARS) {
        None => text.to_string(),
        Some((end, _)) => format!(
            "{}… ({} characters in all)",
            &text[..end],
            text.chars().count()
        ),
    }
}
