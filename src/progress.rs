//! Progress reports and cancellation: what long work (solve, verify, tables, a distributed
//! solve) tells its front-end (bars, logs, a Python callback), and how a front-end stops it.

use std::time::Duration;

use serde::Serialize;

use crate::error::Error;
use crate::space::{Sector, WorkUnit};

/// Receives the progress of long work, and says whether to stop it; the command line draws
/// bars from it, the bindings call back. Every method has a default that does nothing.
pub trait Progress: Sync {
    /// Work unit `number` (from 0) of `count` begins; `done` when its files are already valid.
    fn unit(&self, _unit: &WorkUnit, _number: usize, _count: usize, _done: bool) {}
    /// Another process holds the unit's lock; this one waits for it.
    fn waiting(&self, _unit: &WorkUnit) {}
    /// The current work unit is solved and written.
    fn unit_solved(&self, _unit: &WorkUnit, _times: &UnitTimes) {}
    /// The files of `sector` were damaged (`why`: the fault, and the names they were moved
    /// aside as), and its unit is solved again.
    fn damaged(&self, _sector: Sector, _why: &str) {}
    /// A phase of the current work unit begins, with `total` steps.
    fn phase(&self, _name: &str, _total: u64) {}
    /// `n` more steps of the current phase are done.
    fn advance(&self, _n: u64) {}
    /// `verify` recomputed `sector` (`positions` positions from `children` child values) in
    /// `time` and found `faults` faults.
    fn sector_checked(
        &self,
        _sector: Sector,
        _positions: u64,
        _children: u64,
        _faults: u64,
        _time: Duration,
    ) {
    }
    /// `tables` built a sector's tables (or found them built).
    fn tables_built(&self, _report: &SectorReport) {}
    /// `tables` found a sector's tables and they failed their check (`fault`): they are
    /// rebuilt.
    fn tables_replaced(&self, _sector: Sector, _fault: &Error) {}
    /// A compact solve turned `sector` into its tables in `time` and removed its sector file.
    fn sector_turned(&self, _report: &SectorReport, _time: Duration) {}
    /// Rank 0 of a distributed solve decided or heard something.
    fn cluster(&self, _event: &ClusterEvent<'_>) {}
    /// Whether the work is to stop. Long work asks between chunks of each phase, skips what
    /// is left, and ends with `Error::Cancelled` before it writes anything of the unit,
    /// sector or table at hand (a solve and a build resume where they stopped); no thread
    /// unwinds.
    fn cancelled(&self) -> bool {
        false
    }
}

/// `Err(Error::Cancelled)` when `progress` asks the work to stop.
///
/// # Errors
/// `Error::Cancelled`.
pub(crate) fn go_on(progress: &dyn Progress) -> Result<(), Error> {
    if progress.cancelled() {
        Err(Error::Cancelled)
    } else {
        Ok(())
    }
}

/// What building one sector's tables came to.
#[derive(Clone, Debug, Serialize)]
pub struct SectorReport {
    /// The sector, `W-B-WF-BF`.
    pub sector: String,
    /// Index slots.
    pub slots: u64,
    /// Positions (used slots).
    pub positions: u64,
    /// Bytes of the database's sector file.
    pub database_bytes: u64,
    /// Bytes of the win/draw/loss table.
    pub wdl_bytes: u64,
    /// Bytes of the depth table (0 without one).
    pub depth_bytes: u64,
    /// The win/draw/loss model chosen: `none` or `contexts`.
    pub model: &'static str,
    /// The header checksums of the two files (16 hex digits each).
    pub wdl_checksum: String,
    /// See `wdl_checksum`; `None` for a sector built without its depth table.
    pub depth_checksum: Option<String>,
    /// Whether the tables were already built from the same database file (not rebuilt).
    pub kept: bool,
}

/// What rank 0 decides and hears, for a log.
#[derive(Debug)]
#[non_exhaustive]
pub enum ClusterEvent<'a> {
    /// The plan: `units` work units, `done` of them already solved, `workers` ranks to solve.
    Planned {
        /// Work units in the plan.
        units: usize,
        /// Units whose files were complete before the run.
        done: usize,
        /// Worker ranks (the size of the job less rank 0).
        workers: usize,
    },
    /// A unit goes to a worker.
    Assigned {
        /// The unit.
        unit: &'a WorkUnit,
        /// The worker's rank.
        worker: usize,
    },
    /// A worker finished a unit: solved it (`times`), or found it solved by another process.
    Finished {
        /// The unit.
        unit: &'a WorkUnit,
        /// The worker's rank.
        worker: usize,
        /// Where the worker's time went; `None` when another process had solved the unit.
        times: Option<UnitTimes>,
        /// Units done so far, of `units`.
        done: usize,
        /// Units in the plan.
        units: usize,
    },
    /// A worker failed on a unit.
    Failed {
        /// The unit.
        unit: &'a WorkUnit,
        /// The worker's rank.
        worker: usize,
        /// Its error.
        why: &'a str,
    },
}

/// Where the time of one work unit went.
#[derive(Clone, Copy, Debug, Default)]
pub struct UnitTimes {
    /// Index slots of the unit.
    pub slots: u64,
    /// Reading children in solved sectors and counting children inside the unit.
    pub init: Duration,
    /// Retrograde levels run (0 for forward-only units).
    pub levels: u32,
    /// Time in the levels.
    pub retrograde: Duration,
    /// Statistics and writing the files.
    pub write: Duration,
    /// Proving the unit's files (`solve --verify`), 0 otherwise.
    pub verify: Duration,
}

impl UnitTimes {
    /// The whole time.
    pub fn total(&self) -> Duration {
        self.init + self.retrograde + self.write + self.verify
    }
}

/// Reports nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;
impl Progress for Silent {}
