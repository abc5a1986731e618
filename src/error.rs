//! The library's error type.

use thiserror::Error;

/// Everything that can go wrong in the library, with the context a user needs.
#[derive(Debug, Error)]
#[non_exhaustive]
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
    /// A sector name is malformed or its counts do not fit the variant.
    #[error("invalid sector {sector}: {why}")]
    Sector {
        /// The sector as given.
        sector: String,
        /// What is wrong.
        why: String,
    },
    /// A file or folder could not be read or written.
    // The OS error is in the message and deliberately not a `#[source]`, so that an error
    // chain printed with `{:#}` says it once.
    #[error("{path}: {cause}")]
    Io {
        /// The file or folder.
        path: std::path::PathBuf,
        /// The operating system's error.
        cause: std::io::Error,
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
    /// A database file was written by another format version of this program.
    #[error("{path}: written in database format {found}, this build reads format {expected}; delete the folder {folder} and run `{command}` to rebuild it")]
    OldFormat {
        /// The file.
        path: std::path::PathBuf,
        /// The file's format version.
        found: u32,
        /// The version this build reads.
        expected: u32,
        /// The rule-set folder to delete.
        folder: std::path::PathBuf,
        /// The command that rebuilds it.
        command: String,
    },
    /// The folder given is not a database folder as expected.
    #[error("{path}: {why}")]
    BadFolder {
        /// The folder.
        path: std::path::PathBuf,
        /// What is wrong.
        why: String,
    },
    /// The solver met one of its limits (depth, children per position).
    #[error("sector {sector}: {why}")]
    Limit {
        /// The sector being solved.
        sector: String,
        /// The limit.
        why: String,
    },
    /// `solve --verify` found faults in a unit it had just written; its files were moved
    /// aside (renamed `*.unsound`) so that nothing builds on them.
    #[error("work unit {unit} fails verification right after solving ({count} faults; its files were renamed *.unsound): {first}")]
    Unsound {
        /// The unit's sectors.
        unit: String,
        /// How many faults were found.
        count: u64,
        /// The first fault.
        first: String,
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

impl Error {
    /// An I/O error of `path`.
    pub(crate) fn io(path: &std::path::Path, cause: std::io::Error) -> Error {
        Error::Io {
            path: path.to_path_buf(),
            cause,
        }
    }

    /// Whether the error comes from what the user gave (arguments, positions, folders, an
    /// unsolved sector) rather than from the system or damaged data: the command line exits
    /// 2 for these and 1 for the rest.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            Error::Board { .. }
                | Error::UnknownVariant(..)
                | Error::UnknownRule { .. }
                | Error::UnsupportedRule { .. }
                | Error::Position { .. }
                | Error::Move { .. }
                | Error::Sector { .. }
                | Error::BadFolder { .. }
                | Error::Missing { .. }
        )
    }
}
