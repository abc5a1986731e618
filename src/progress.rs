//! Progress reports: what long work tells its front-end (bars, logs), and the times of a unit.

use std::time::Duration;

use crate::space::{Sector, WorkUnit};

/// Receives progress reports; the command line draws bars from them.
pub trait Progress: Sync {
    /// Work unit `number` (from 0) of `count` begins; `done` when its files are already valid.
    fn unit(&self, _unit: &WorkUnit, _number: usize, _count: usize, _done: bool) {}
    /// Another process holds the unit's lock; this one waits for it.
    fn waiting(&self, _unit: &WorkUnit) {}
    /// The current work unit is solved and written.
    fn unit_solved(&self, _unit: &WorkUnit, _times: &UnitTimes) {}
    /// The file of `sector` was damaged (`why`): it was moved aside, and its unit is solved
    /// again.
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
