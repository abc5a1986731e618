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

mod coordinator;
mod message;
mod worker;

use std::thread;
use std::time::Duration;

use ::mpi::environment::Universe;
use ::mpi::point_to_point::{MatchedReceiveVec, Status};
use ::mpi::topology::SimpleCommunicator;
use ::mpi::traits::{Communicator, Destination, Source};
use ::mpi::Threading;

use crate::error::Error;
use crate::progress::{Progress, UnitTimes};
use crate::space::{plan, Sector, WorkUnit};
use crate::store::Database;

/// An MPI job this process takes part in: initialised by [`Cluster::init`], finalised on drop.
pub struct Cluster {
    world: SimpleCommunicator,
    // Dropped last: finalises MPI.
    _universe: Universe,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cluster")
            .field("rank", &self.rank())
            .field("size", &self.size())
            .finish()
    }
}

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

/// What rank 0 decides and hears, for a log.
#[derive(Debug)]
#[non_exhaustive]
pub enum Event<'a> {
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

/// Receives rank 0's [`Event`]s; the command line logs them.
pub trait Report: Sync {
    /// Something happened at rank 0.
    fn event(&self, _event: &Event<'_>) {}
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

impl Cluster {
    /// Initialises MPI (the calling thread becomes the one that talks to MPI).
    ///
    /// # Errors
    /// [`MpiError::Init`] when MPI is already initialised in this process,
    /// [`MpiError::Threading`] when the library cannot have other threads running.
    pub fn init() -> Result<Cluster, MpiError> {
        let (universe, threading) =
            ::mpi::initialize_with_threading(Threading::Funneled).ok_or(MpiError::Init)?;
        if threading < Threading::Funneled {
            return Err(MpiError::Threading(format!("{threading:?}").to_lowercase()));
        }
        Ok(Cluster {
            world: universe.world(),
            _universe: universe,
        })
    }

    /// This process's rank, 0 for the scheduler.
    pub fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    /// The number of ranks in the job.
    pub fn size(&self) -> usize {
        self.world.size() as usize
    }

    /// The name of this rank's machine, as MPI knows it.
    pub fn host(&self) -> String {
        ::mpi::environment::processor_name().unwrap_or_else(|_| "?".into())
    }

    /// Ends the whole job at once with exit code `code` (for a failure before the ranks
    /// talk, which the others cannot learn of otherwise).
    pub fn abort(&self, code: i32) -> ! {
        self.world.abort(code)
    }

    /// Solves every work unit needed for `roots` across the job; every rank calls it with the
    /// same arguments. Rank 0 schedules (and solves alone when it is the only rank); the
    /// others solve the units it hands them in `threads`. `progress` hears of the units this
    /// rank solves, `report` of rank 0's decisions; with `verify` each unit is proved right
    /// after it is written.
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
        report: &dyn Report,
        verify: bool,
    ) -> Result<Summary, MpiError> {
        let units = plan(db.variant(), roots);
        let plan_id = plan_id(db, &units);
        if self.rank() == 0 {
            coordinator::run(self, db, &units, plan_id, threads, progress, report, verify)
        } else {
            worker::run(self, db, &units, plan_id, threads, progress, verify)
        }
    }
}

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

/// Sends one message.
fn send(cluster: &Cluster, to: usize, bytes: &[u8]) {
    cluster.world.process_at_rank(to as i32).send(bytes);
}

/// Waits for the next message from `source` without spinning: Open MPI's blocking receive
/// busy-polls a core, which a worker sharing the machine would lose. Naps grow to 1 ms: a
/// thousand probes a second cost a few milliseconds of CPU, and a unit waits at most a
/// millisecond for its worker.
fn receive(source: &impl Source) -> (Vec<u8>, Status) {
    let mut nap = Duration::from_micros(50);
    loop {
        if let Some(matched) = source.immediate_matched_probe() {
            return matched.matched_receive_vec::<u8>();
        }
        thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(1));
    }
}
