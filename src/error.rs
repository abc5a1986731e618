//! The library's error type: typed data the front-ends turn into messages and advice.

use std::fmt;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::invalid::InvalidInput;
use crate::kernel::MapFailed;
use crate::rules::{Outcome, Rules, Value};
use crate::space::Sector;

/// Everything that can go wrong in the library, with the context a user needs.
///
/// The library never writes a command line: where the cure is a `morris` command (solve a
/// missing sector, rebuild an old folder), the error carries what that command needs (the
/// database folder, the variant and its rules, the sector) and the front-ends write it.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// What the user gave is not valid (a variant, rule, position, move, sector or board).
    #[error(transparent)]
    Input(#[from] InvalidInput),
    /// A file or folder could not be read or written.
    // The OS error is in the message and deliberately not a `#[source]`, so that an error
    // chain printed with `{:#}` says it once.
    #[error("{path}: {cause}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The operating system's error.
        cause: std::io::Error,
    },
    /// Working memory could not be had.
    #[error("cannot map {bytes} bytes of working memory: {cause}")]
    Memory {
        /// How much was asked for.
        bytes: u64,
        /// The operating system's error.
        cause: std::io::Error,
    },
    /// A database file is damaged.
    #[error("{path}: damaged: {damage}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        damage: Damage,
    },
    /// A database file belongs to another variant, rule set or sector.
    #[error("{path}: {foreign}")]
    Foreign {
        /// The file.
        path: PathBuf,
        /// What it holds instead.
        foreign: Foreign,
    },
    /// A database file was written by another format version of this program.
    #[error("{path}: written in database format {found}, this build reads format {expected}; delete the folder {} and solve it again to rebuild it", .missing.dir.display())]
    OldFormat {
        /// The file.
        path: PathBuf,
        /// The file's format version.
        found: u32,
        /// The version this build reads.
        expected: u32,
        /// The folder to delete and solve again.
        missing: Box<Missing>,
    },
    /// The folder given is not a database folder as expected.
    #[error("{path}: {why}")]
    BadFolder {
        /// The folder.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// The solver met one of its limits.
    #[error("sector {sector}: {limit}")]
    Limit {
        /// The sector being solved.
        sector: Sector,
        /// The limit.
        limit: Limit,
    },
    /// `solve --verify` found faults in a unit it had just written; its files were moved
    /// aside (renamed `*.unsound`) so that nothing builds on them.
    #[error("work unit {} fails verification right after solving ({count} faults; its files were renamed *.unsound): {first}", sectors(.unit))]
    Unsound {
        /// The unit's sectors.
        unit: Vec<Sector>,
        /// How many faults were found.
        count: u64,
        /// The first fault.
        first: String,
    },
    /// The N-move rule's analysis and the database disagree on a position: a win or a loss
    /// under the rule must be one without it.
    #[error("sector {sector}: a position is a {} under the {n}-move rule but a {} in the database", .ruled.name(), .game.name())]
    RuleContradiction {
        /// The position's sector.
        sector: Sector,
        /// The rule's N.
        n: u16,
        /// The outcome under the rule, for a fresh counter.
        ruled: crate::rules::Outcome,
        /// The database's outcome.
        game: crate::rules::Outcome,
    },
    /// The work was stopped on request ([`Progress::cancelled`](crate::Progress::cancelled))
    /// before it was done; nothing half made was written, and a solve or a build resumes.
    #[error("stopped on request before the work was done")]
    Cancelled,
    /// This build of the library lacks what the call needs (a feature compiled out).
    #[error("{0}")]
    Unsupported(String),
    /// A sector needed to answer is not in the database (or has no tables).
    #[error("sector {} {} in {}", .0.sector, if .0.tables { "has no tables" } else { "is not solved" }, .0.dir.display())]
    Missing(Box<Missing>),
    /// A win's or a loss's distance was asked of a sector held as win/draw/loss tables without
    /// their depth file: the value is known, its distance is not (and is never guessed).
    #[error("sector {sector} of {variant} is held as win/draw/loss tables without their depth file: its values are known, the distances of its wins and losses are not")]
    NoDistance {
        /// The sector.
        sector: Sector,
        /// The variant's name.
        variant: String,
    },
}

/// A sector a database lacks, with what solving it takes: the folder and the rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    /// The sector (for a whole folder, the start's).
    pub sector: Sector,
    /// The database folder, as given (`--db`).
    pub db: PathBuf,
    /// The rule set's own folder inside it.
    pub dir: PathBuf,
    /// The variant's name.
    pub variant: String,
    /// The rule set.
    pub rules: Rules,
    /// Whether the folder holds compact tables (built by `morris tables`) rather than sector
    /// files.
    pub tables: bool,
}

/// What is wrong with a damaged database file.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Damage {
    /// It does not begin with the format's magic bytes.
    NotASectorFile,
    /// A table file that does not begin with the table format's magic bytes.
    NotATableFile,
    /// It is shorter than the header.
    ShortHeader {
        /// Its length in bytes.
        len: u64,
    },
    /// The header's checksum fails.
    HeaderChecksum,
    /// The header holds an impossible field.
    Header(String),
    /// The header's slot count is not the index's.
    Slots {
        /// The header's count.
        found: u64,
        /// The index's.
        expected: u64,
    },
    /// The file is longer or shorter than its header promises.
    Length {
        /// Its length in bytes.
        len: u64,
        /// The length the header promises.
        expected: u64,
    },
    /// The block table's checksum fails.
    TableChecksum,
    /// A payload block fails its checksum.
    Block {
        /// The block, from 0.
        block: u64,
        /// Its first slot.
        start: u64,
        /// One past its last slot.
        end: u64,
    },
    /// The slot of a canonical position is marked unused.
    UnusedSlot {
        /// The slot.
        slot: u64,
    },
    /// A rule set's record of planned sectors (what its solves set out to solve) is
    /// missing, garbled or names an impossible sector: the folder cannot show that it is
    /// complete.
    Planned(String),
    /// The stored value of a position disagrees with the values of its moves.
    Inconsistent {
        /// The stored value.
        stored: Value,
        /// The best move's value, `None` when there is no move.
        best: Option<Value>,
    },
    /// The stored win, draw or loss of a position disagrees with its moves'.
    InconsistentOutcome {
        /// The stored outcome.
        stored: Outcome,
        /// The best move's outcome, `None` when there is no move.
        best: Option<Outcome>,
    },
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Damage::NotASectorFile => f.write_str("not a morris sector file (bad magic)"),
            Damage::NotATableFile => f.write_str("not a morris table file (bad magic)"),
            Damage::ShortHeader { len } => {
                write!(f, "{len} bytes, shorter than the 4096-byte header")
            }
            Damage::HeaderChecksum => f.write_str("header checksum mismatch"),
            Damage::Header(why) => f.write_str(why),
            Damage::Slots { found, expected } => {
                write!(f, "{found} slots, the index of its sector has {expected}")
            }
            Damage::Length { len, expected } => write!(
                f,
                "{len} bytes, the header promises {expected} (truncated or extended)"
            ),
            Damage::TableChecksum => f.write_str("block table checksum mismatch"),
            Damage::Block { block, start, end } => {
                write!(f, "block {block} (slots {start}..{end}) fails its checksum")
            }
            Damage::UnusedSlot { slot } => {
                write!(f, "slot {slot} of a canonical position is marked unused")
            }
            Damage::Planned(why) => write!(f, "the record of planned sectors {why}"),
            Damage::Inconsistent { stored, best } => match best {
                Some(best) => write!(
                    f,
                    "stored value {stored} disagrees with the best move's {best}"
                ),
                None => write!(
                    f,
                    "stored value {stored} disagrees with the best move's (no moves)"
                ),
            },
            Damage::InconsistentOutcome { stored, best } => write!(
                f,
                "stored value {} disagrees with the best move's {}",
                stored.name(),
                best.map_or("(no moves)", Outcome::name)
            ),
        }
    }
}

/// What a database file holds instead of what was asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Foreign {
    /// Another variant.
    Variant {
        /// The file's.
        found: String,
        /// The one asked for.
        expected: String,
    },
    /// Another rule set.
    RuleSet {
        /// The file's rule-set id.
        found: String,
        /// The one asked for.
        expected: String,
    },
    /// Another board (the variant's lines changed).
    Board {
        /// The file's board lines.
        found: String,
        /// The variant's.
        expected: String,
    },
    /// Another sector.
    Sector {
        /// The file's.
        found: Sector,
        /// The one asked for.
        expected: Sector,
    },
}

impl fmt::Display for Foreign {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Foreign::Variant { found, expected } => {
                write!(f, "holds variant {found}, not {expected}")
            }
            Foreign::RuleSet { found, expected } => write!(
                f,
                "holds rule set {found}, not {expected} (pass the rule options the database was built with)"
            ),
            Foreign::Board { found, expected } => {
                write!(f, "holds a board with lines {found:?}, not {expected:?}")
            }
            Foreign::Sector { found, expected } => {
                write!(f, "holds sector {found}, not {expected}")
            }
        }
    }
}

/// A limit of the solver.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Limit {
    /// A depth beyond what the working state holds.
    Depth {
        /// The depth.
        depth: u32,
        /// The most the working state holds.
        max: u32,
    },
    /// A position with more children than a counter holds.
    Children {
        /// How many.
        count: usize,
    },
    /// A move led into a sector that the unit neither holds nor depends on.
    NotADependency {
        /// That sector.
        child: Sector,
    },
    /// The slot of a child is marked unused.
    UnusedChild {
        /// The child's sector.
        child: Sector,
        /// The parent's slot.
        slot: u64,
    },
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Depth { depth, max } => write!(f, "depth {depth} exceeds {max}"),
            Limit::Children { count } => write!(
                f,
                "a position has {count} children, more than a counter holds"
            ),
            Limit::NotADependency { child } => write!(
                f,
                "a move reaches {child}, which is not among the unit's dependencies (a bug in the sector graph)"
            ),
            Limit::UnusedChild { child, slot } => write!(
                f,
                "a child in {child} of slot {slot} is marked unused (a damaged file or an index fault)"
            ),
        }
    }
}

/// Sectors as a unit's name: `3-4-0-0 4-3-0-0`.
fn sectors(unit: &[Sector]) -> String {
    unit.iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl From<MapFailed> for Error {
    fn from(e: MapFailed) -> Error {
        Error::Memory {
            bytes: e.bytes,
            cause: e.cause,
        }
    }
}

impl Error {
    /// An I/O error of `path`.
    pub(crate) fn io(path: &Path, cause: std::io::Error) -> Error {
        Error::Io {
            path: path.to_path_buf(),
            cause,
        }
    }

    /// Damage of the file at `path`.
    pub(crate) fn damaged(path: &Path, damage: Damage) -> Error {
        Error::Damaged {
            path: path.to_path_buf(),
            damage,
        }
    }

    /// Whether the error comes from what the user gave (arguments, positions, folders, an
    /// unsolved sector) rather than from the system or damaged data: the command line exits
    /// 2 for these and 1 for the rest.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            Error::Input(_)
                | Error::BadFolder { .. }
                | Error::Missing(..)
                | Error::NoDistance { .. }
        )
    }

    /// What a `solve` would fill in: the missing sector, or the folder an old format needs
    /// rebuilt.
    pub fn missing(&self) -> Option<&Missing> {
        match self {
            Error::Missing(m) => Some(m),
            Error::OldFormat { missing, .. } => Some(missing),
            _ => None,
        }
    }
}
