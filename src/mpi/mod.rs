//! Solving across processes and machines with MPI: rank 0 schedules, the other ranks solve.
//!
//! Under `mpirun -np N`, every rank plans the same work units. Rank 0 keeps the
//! [`Schedule`](crate::space::Schedule) (the same one the single-process solve follows),
//! skips the units already solved on disk, and hands each ready unit to a free worker (ranks 1
//! to N-1); a worker solves it with all its threads, writes its files into the shared
//! database folder under the unit's lock and a unique temporary name, and reports back. Rank
//! 0 checks that it sees the files, marks the unit done and hands out what became ready.
//! Messages are a few bytes: which unit to solve, what became of it. Every file is written by
//! the same code as in a single process, so the database is byte for byte the same.
//!
//! A worker that fails (a damaged file, a full disk) reports the error; rank 0 hands out
//! nothing more, lets the running units finish, stops every rank and returns the error. A
//! rank that dies (killed, out of memory, a lost node) ends the whole MPI job: Open MPI's
//! `mpirun` stops the other ranks, which remove the temporary files they were writing.
//! Finished units stay on disk; running the same command again skips them, and redoes only
//! the units that were in flight, to byte-identical files.

mod cluster;
mod coordinator;
mod message;
mod report;
mod worker;

use crate::progress::Progress;
use crate::solve::SolveOptions;
use crate::space::{plan, Sector, WorkUnit};
use crate::store::Database;
pub use cluster::Cluster;
pub use report::{MpiError, Summary};

/// A fingerprint of the rule set and the plan, so that ranks started with other arguments
/// or another build are caught before they write anything.
fn plan_id(db: &Database, units: &[WorkUnit]) -> u64 {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    h.update(crate::store::rule_set_folder(db.variant()).as_bytes());
    for u in units {
        h.update(&[u8::from(u.cyclic)]);
        for s in &u.sectors {
            h.update(&[s.mover, s.opponent, s.mover_hand, s.opponent_hand]);
        }
        h.update(b";");
    }
    h.digest()
}

impl Cluster {
    /// Solves every work unit needed for `roots` across the job; every rank calls it with the
    /// same arguments. Rank 0 schedules (and solves alone when it is the only rank); the
    /// others solve the units it hands them in `threads`. `progress` hears of the units this
    /// rank solves and, at rank 0, of its decisions ([`Progress::cluster`]); `options` say whether each unit is proved
    /// right after it is written and whether the folder is solved compact.
    ///
    /// # Errors
    /// This rank's own failure, or at rank 0 any worker's; at a worker, [`MpiError::Stopped`]
    /// when rank 0 stopped the run for another rank's failure.
    pub fn solve(
        &self,
        db: &Database,
        roots: &[Sector],
        threads: &rayon::ThreadPool,
        progress: &dyn Progress,
        options: &SolveOptions,
    ) -> Result<Summary, MpiError> {
        let units = plan(db.variant(), roots);
        let plan_id = plan_id(db, &units);
        if self.rank() == 0 {
            coordinator::run(self, db, &units, plan_id, threads, progress, options)
        } else {
            worker::run(self, db, &units, plan_id, threads, progress, options)
        }
    }
}
