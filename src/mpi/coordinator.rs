//! Rank 0: the schedule, handing ready units to free workers and hearing back.

use std::collections::VecDeque;

use super::message::{decode, encode, ToScheduler, ToWorker};
use super::{receive, send, unit_name, Cluster, Event, MpiError, Report, Summary};
use crate::progress::Progress;
use crate::solve::{self, unit_costs, unit_done};
use crate::space::WorkUnit;
use crate::space::{Schedule, UnitGraph};
use crate::store::Database;
use ::mpi::traits::Communicator;

/// Runs the schedule to its end (or to the first failure), then stops every worker.
// The arguments are the job's parts as `Cluster::solve` receives them; a struct bundling
// them would be used here only.
#[allow(clippy::too_many_arguments)]
pub(super) fn run(
    cluster: &Cluster,
    db: &Database,
    units: &[WorkUnit],
    plan_id: u64,
    threads: &rayon::ThreadPool,
    progress: &dyn Progress,
    report: &dyn Report,
    verify: bool,
) -> Result<Summary, MpiError> {
    let workers = cluster.size() - 1;
    let graph = UnitGraph::new(db.variant(), units);
    let mut schedule = Schedule::new(&graph, &unit_costs(db, units));
    // A failure stops the handing out; the workers still finish and report their units, and
    // every worker is heard from before all are stopped, so no message is left unread.
    let mut failure: Option<MpiError> = None;
    let mut done_before = 0;
    let found = std::fs::create_dir_all(db.dir())
        .map_err(|e| crate::Error::Io {
            path: db.dir().to_path_buf(),
            cause: e,
        })
        .and_then(|()| {
            units.iter().enumerate().try_for_each(|(i, unit)| {
                if unit_done(db, unit)? {
                    schedule.done(i);
                    done_before += 1;
                }
                Ok(())
            })
        });
    db.forget();
    if let Err(e) = found {
        failure = Some(e.into());
    }
    report.event(&Event::Planned {
        units: units.len(),
        done: done_before,
        workers,
    });
    if workers == 0 {
        // A job of one: rank 0 solves, in the same order.
        return match failure {
            Some(f) => Err(f),
            None => {
                let solved = threads.install(|| solve::solve_units(db, units, progress, verify))?;
                Ok(Summary {
                    units: units.len(),
                    solved,
                    done_before,
                })
            }
        };
    }

    let mut greeted = 0;
    let mut free: VecDeque<usize> = VecDeque::new();
    let mut running: Vec<Option<usize>> = vec![None; cluster.size()];
    let mut solved = 0;
    loop {
        if failure.is_none() {
            while !free.is_empty() {
                let Some(u) = schedule.next_unit() else { break };
                let w = free.pop_front().expect("a free worker");
                send(cluster, w, &encode(&ToWorker::Solve { unit: u as u64 }));
                running[w] = Some(u);
                report.event(&Event::Assigned {
                    unit: &units[u],
                    worker: w,
                });
            }
        }
        let in_flight = running.iter().flatten().count();
        if greeted == workers && in_flight == 0 {
            if failure.is_some() || schedule.is_finished() {
                break;
            }
            // Every worker is free or refused, nothing runs, and units remain: no worker can
            // take them (or the plan is not a plan).
            failure = Some(MpiError::Stopped(format!(
                "{} units remain but no worker can take them",
                units.len() - schedule.done_count()
            )));
            break;
        }
        let (bytes, status) = receive(&cluster.world.any_process());
        let w = status.source_rank() as usize;
        let message = match decode::<ToScheduler>(&bytes) {
            Ok(m) => m,
            Err(why) => {
                // The worker's state is unknown: count it as greeted and idle, never use it.
                if running[w].take().is_none() {
                    greeted += 1;
                }
                failure.get_or_insert(MpiError::Protocol {
                    rank: w,
                    me: 0,
                    why,
                });
                continue;
            }
        };
        match message {
            ToScheduler::Hello { plan } => {
                greeted += 1;
                if plan == plan_id {
                    free.push_back(w);
                } else {
                    failure.get_or_insert(MpiError::PlanMismatch { rank: w });
                }
            }
            ToScheduler::Solved { unit, times } => {
                let Some(u) = expect_unit(&mut running, w, unit, &mut failure) else {
                    continue;
                };
                let unit = &units[u];
                // The worker wrote the files; rank 0 must see them, or the folder is not shared.
                match unit_done(db, unit) {
                    Ok(true) => {}
                    Ok(false) => {
                        failure.get_or_insert(MpiError::NotShared {
                            rank: w,
                            unit: unit_name(unit),
                            dir: db.dir().to_path_buf(),
                        });
                    }
                    Err(e) => {
                        failure.get_or_insert(e.into());
                    }
                }
                db.forget();
                schedule.done(u);
                solved += usize::from(times.is_some());
                report.event(&Event::Finished {
                    unit,
                    worker: w,
                    times: times.map(Into::into),
                    done: schedule.done_count(),
                    units: units.len(),
                });
                free.push_back(w);
            }
            ToScheduler::Failed { unit, why } => {
                let Some(u) = expect_unit(&mut running, w, unit, &mut failure) else {
                    continue;
                };
                report.event(&Event::Failed {
                    unit: &units[u],
                    worker: w,
                    why: &why,
                });
                failure.get_or_insert(MpiError::Worker {
                    rank: w,
                    unit: unit_name(&units[u]),
                    why,
                });
                free.push_back(w);
            }
        }
    }
    let why = failure.as_ref().map(|f| f.to_string());
    for w in 1..cluster.size() {
        send(cluster, w, &encode(&ToWorker::Stop { why: why.clone() }));
    }
    match failure {
        Some(f) => Err(f),
        None => Ok(Summary {
            units: units.len(),
            solved,
            done_before,
        }),
    }
}

/// The unit worker `w` was running, which its report must name; otherwise the protocol is
/// broken (another build?): the failure is recorded and the worker is not used again.
fn expect_unit(
    running: &mut [Option<usize>],
    w: usize,
    unit: u64,
    failure: &mut Option<MpiError>,
) -> Option<usize> {
    match running[w].take() {
        Some(u) if u as u64 == unit => Some(u),
        other => {
            failure.get_or_insert(MpiError::Protocol {
                rank: w,
                me: 0,
                why: format!("a report on unit {unit}, but it was given {other:?}"),
            });
            None
        }
    }
}
