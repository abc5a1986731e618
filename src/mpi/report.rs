//! What a distributed solve reports: its errors and each rank's summary (rank 0's events go
//! to [`Progress::cluster`](crate::Progress::cluster)).

use crate::error::Error;

/// What went wrong in a distributed solve.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MpiError {
    /// MPI could not be initialised (it was already, in this process).
    #[error("MPI is already initialised in this process")]
    Init,
    /// The MPI library cannot be called from the main thread while other threads run.
    #[error("the MPI library offers thread support {0}, solving needs at least `funneled`")]
    Threading(String),
    /// This rank's own solving or reading failed.
    #[error(transparent)]
    Solve(#[from] Error),
    /// A worker failed on a unit; rank 0 stopped the run.
    #[error("rank {rank} failed on {unit}: {why}")]
    Worker {
        /// The worker's rank.
        rank: usize,
        /// The unit's sectors.
        unit: String,
        /// The worker's error.
        why: String,
    },
    /// A rank planned other work units than rank 0: another build or other arguments.
    #[error("rank {rank} planned other work units than rank 0 (another build of morris, or other arguments?)")]
    PlanMismatch {
        /// The rank.
        rank: usize,
    },
    /// A worker reported a unit solved whose files rank 0 cannot find.
    #[error("rank {rank} reports {unit} solved, but rank 0 does not find its files in {dir}: every rank must reach the same database folder (a shared filesystem)")]
    NotShared {
        /// The worker's rank.
        rank: usize,
        /// The unit's sectors.
        unit: String,
        /// The folder rank 0 looked in.
        dir: std::path::PathBuf,
    },
    /// A message could not be decoded, or broke the protocol.
    #[error("rank {rank} sent a message rank {me} cannot read: {why}")]
    Protocol {
        /// The sender.
        rank: usize,
        /// The receiver.
        me: usize,
        /// What is wrong.
        why: String,
    },
    /// Rank 0 stopped the run because of a failure elsewhere.
    #[error("stopped by rank 0: {0}")]
    Stopped(String),
}

impl MpiError {
    /// The library error behind this one, when it is this rank's own.
    pub fn as_solve_error(&self) -> Option<&Error> {
        match self {
            MpiError::Solve(e) => Some(e),
            _ => None,
        }
    }
}

/// What a rank did in a distributed solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Work units in the plan.
    pub units: usize,
    /// Units solved in this run: by all workers at rank 0, by this rank at a worker.
    pub solved: usize,
    /// Units whose files were complete before the run (counted at rank 0 only).
    pub done_before: usize,
}
