//! The library's error type.

use thiserror::Error;

/// Everything that can go wrong in the library, with the context a user needs.
#[derive(Debug, Error)]
pub enum Error {
    /// A board definition is malformed.
    #[error("board {board}: {why}")]
    Board {
        /// The board's name.
        board: String,
        /// What is wrong.
        why: String,
    },
    /// No variant has this name.
    #[error("unknown variant {0:?} (known: {1})")]
    UnknownVariant(String, String),
    /// A rule value could not be parsed.
    #[error("unknown {rule} value {value:?} (expected {expected})")]
    UnknownRule {
        /// The rule's name.
        rule: &'static str,
        /// The value given.
        value: String,
        /// The accepted values.
        expected: &'static str,
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
    /// A sector name is malformed or its counts do not fit the variant.
    #[error("invalid sector {sector}: {why}")]
    Sector {
        /// The sector as given.
        sector: String,
        /// What is wrong.
        why: String,
    },
    /// A file or folder could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder.
        path: std::path::PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A database file is damaged.
    #[error("{path}: damaged: {why}")]
    Corrupt {
        /// The file.
        path: std::path::PathBuf,
        /// What is wrong.
        why: String,
    },
    /// A database file belongs to another variant, rule set or sector.
    #[error("{path}: {why}")]
    Mismatch {
        /// The file.
        path: std::path::PathBuf,
        /// What it holds instead.
        why: String,
    },
    /// A sector needed to answer is not in the database.
    #[error("sector {sector} is not solved in {dir}; run `{command}`")]
    Missing {
        /// The sector.
        sector: String,
        /// The database folder.
        dir: std::path::PathBuf,
        /// The command that solves it.
        command: String,
    },
}
