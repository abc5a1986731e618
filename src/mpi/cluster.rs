//! The MPI job: this process's rank among the others, and the messages between them.

use std::thread;
use std::time::Duration;

use ::mpi::environment::Universe;
use ::mpi::point_to_point::{MatchedReceiveVec, Status};
use ::mpi::topology::SimpleCommunicator;
use ::mpi::traits::{Communicator, Destination, Source};
use ::mpi::Threading;

use super::report::MpiError;

/// An MPI job this process takes part in: initialised by [`Cluster::init`], finalised on drop.
pub struct Cluster {
    pub(super) world: SimpleCommunicator,
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
}

/// Sends one message.
pub(super) fn send(cluster: &Cluster, to: usize, bytes: &[u8]) {
    cluster.world.process_at_rank(to as i32).send(bytes);
}

/// Waits for the next message from `source` without spinning: Open MPI's blocking receive
/// busy-polls a core, which a worker sharing the machine would lose. Naps grow to 1 ms: a
/// thousand probes a second cost a few milliseconds of CPU, and a unit waits at most a
/// millisecond for its worker.
pub(super) fn receive(source: &impl Source) -> (Vec<u8>, Status) {
    let mut nap = Duration::from_micros(50);
    loop {
        if let Some(matched) = source.immediate_matched_probe() {
            return matched.matched_receive_vec::<u8>();
        }
        thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(1));
    }
}
