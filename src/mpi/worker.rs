//! Ranks 1 and up: solve the units rank 0 hands out, report each, stop when told.

use std::panic::{catch_unwind, AssertUnwindSafe};

use super::cluster::{receive, send, Cluster};
use super::message::{decode, encode, ToScheduler, ToWorker};
use super::report::{MpiError, Summary};
use crate::progress::Progress;
use crate::solve::{solve_locked, turn_after, SolveOptions};
use crate::space::{UnitGraph, WorkUnit};
use crate::store::Database;
use ::mpi::traits::Communicator;

/// Greets rank 0, then solves what it hands out until it says stop.
pub(super) fn run(
    cluster: &Cluster,
    db: &Database,
    units: &[WorkUnit],
    plan_id: u64,
    threads: &rayon::ThreadPool,
    progress: &dyn Progress,
    options: &SolveOptions,
) -> Result<Summary, MpiError> {
    let me = cluster.rank();
    let graph = UnitGraph::new(db.variant(), units);
    send(cluster, 0, &encode(&ToScheduler::Hello { plan: plan_id }));
    let mut solved = 0;
    loop {
        let (bytes, _) = receive(&cluster.world.process_at_rank(0));
        let message =
            decode::<ToWorker>(&bytes).map_err(|why| MpiError::Protocol { rank: 0, me, why });
        let unit = match message {
            Ok(ToWorker::Solve { unit }) => unit,
            Ok(ToWorker::Stop { why: None }) => {
                return Ok(Summary {
                    units: units.len(),
                    solved,
                    done_before: 0,
                })
            }
            Ok(ToWorker::Stop { why: Some(why) }) => return Err(MpiError::Stopped(why)),
            // Rank 0 sent something this build cannot read: nothing can be trusted.
            Err(e) => return Err(e),
        };
        let reply = match units.get(unit as usize) {
            None => ToScheduler::Failed {
                unit,
                why: format!("no unit {unit} in a plan of {}", units.len()),
            },
            Some(u) => {
                progress.unit(u, unit as usize, units.len(), false);
                // A panic is a bug, but rank 0 must hear of it or it waits for ever.
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    threads.install(|| {
                        let solved = solve_locked(db, u, progress, options.verify)?;
                        // The last reader of a unit to be solved turns it into tables.
                        turn_after(db, units, &graph, [unit as usize], options, progress)?;
                        Ok::<_, crate::error::Error>(solved)
                    })
                }));
                match outcome {
                    Ok(Ok(Some(times))) => {
                        solved += 1;
                        progress.unit_solved(u, &times);
                        ToScheduler::Solved {
                            unit,
                            times: Some(times.into()),
                        }
                    }
                    Ok(Ok(None)) => ToScheduler::Solved { unit, times: None },
                    Ok(Err(e)) => ToScheduler::Failed {
                        unit,
                        why: e.to_string(),
                    },
                    Err(panic) => ToScheduler::Failed {
                        unit,
                        why: format!("panicked: {}", panic_text(&*panic)),
                    },
                }
            }
        };
        send(cluster, 0, &encode(&reply));
    }
}

fn panic_text(panic: &(dyn std::any::Any + Send)) -> &str {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)")
}
