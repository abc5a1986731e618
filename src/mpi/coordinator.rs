//! Rank 0: the schedule, handing ready units to free workers and hearing back.

use std::collections::VecDeque;

use super::cluster::{receive, send, Cluster};
use super::message::{decode, encode, Times, ToScheduler, ToWorker};
use super::report::{MpiError, Summary};
use crate::progress::ClusterEvent as Event;
use crate::progress::Progress;
use crate::solve::{self, triage, turn_after, unit_costs, unit_done, SolveOptions};
use crate::space::WorkUnit;
use crate::space::{Schedule, UnitGraph};
use crate::store::Database;
use ::mpi::traits::Communicator;

/// Runs the schedule to its end (or to the first failure), then stops every worker.
// The arguments are the job's parts as `Cluster::solve` receives them; a struct bundling
// them would be used here only.
pub(super) fn run(
    cluster: &Cluster,
    db: &Database,
    units: &[WorkUnit],
    plan_id: u64,
    threads: &rayon::ThreadPool,
    progress: &dyn Progress,
    options: &SolveOptions,
) -> Result<Summary, MpiError> {
    let mut c = Coordinator::new(cluster, db, units, plan_id, progress);
    if c.workers == 0 {
        // A job of one: rank 0 solves, in the same order.
        return match c.failure {
            Some(f) => Err(f),
            None => {
                let solved =
                    threads.install(|| solve::solve_units(db, units, progress, options))?;
                Ok(Summary {
                    units: units.len(),
                    solved,
                    done_before: c.done_before,
                })
            }
        };
    }
    if c.failure.is_none() {
        // Units a stopped compact run solved but did not turn into tables: their last
        // reader is solved, so no worker will be the one to turn them.
        let graph = UnitGraph::new(db.variant(), units);
        let all = 0..units.len();
        if let Err(e) = threads.install(|| turn_after(db, units, &graph, all, options, progress)) {
            c.failure = Some(e.into());
        }
    }
    loop {
        if c.failure.is_none() {
            c.hand_out();
        }
        if c.all_quiet() {
            break;
        }
        let (bytes, status) = receive(&cluster.world.any_process());
        c.hear(status.source_rank() as usize, &bytes);
    }
    c.stop()
}

/// Rank 0's state: the schedule, the workers free and running, and the first failure.
struct Coordinator<'a> {
    cluster: &'a Cluster,
    db: &'a Database,
    units: &'a [WorkUnit],
    plan_id: u64,
    /// Hears rank 0's decisions ([`Progress::cluster`]).
    report: &'a dyn Progress,
    workers: usize,
    schedule: Schedule,
    /// A failure stops the handing out; the workers still finish and report their units, and
    /// every worker is heard from before all are stopped, so no message is left unread.
    failure: Option<MpiError>,
    done_before: usize,
    /// Workers that said hello (or broke the protocol before).
    greeted: usize,
    free: VecDeque<usize>,
    /// The unit each worker runs.
    running: Vec<Option<usize>>,
    solved: usize,
}

impl<'a> Coordinator<'a> {
    /// The schedule of `units`, those already solved on disk marked done.
    fn new(
        cluster: &'a Cluster,
        db: &'a Database,
        units: &'a [WorkUnit],
        plan_id: u64,
        progress: &'a dyn Progress,
    ) -> Coordinator<'a> {
        let graph = UnitGraph::new(db.variant(), units);
        let mut c = Coordinator {
            cluster,
            db,
            units,
            plan_id,
            report: progress,
            workers: cluster.size() - 1,
            schedule: Schedule::new(&graph, &unit_costs(db, units)),
            failure: None,
            done_before: 0,
            greeted: 0,
            free: VecDeque::new(),
            running: vec![None; cluster.size()],
            solved: 0,
        };
        if let Err(e) = c.find_done(progress) {
            c.failure = Some(e.into());
        }
        db.forget();
        progress.cluster(&Event::Planned {
            units: units.len(),
            done: c.done_before,
            workers: c.workers,
        });
        c
    }

    /// Marks the units already solved on disk done (their files checked, a damaged one moved
    /// aside to be solved again), and records the plan in the folder.
    fn find_done(&mut self, progress: &dyn Progress) -> Result<(), crate::error::Error> {
        std::fs::create_dir_all(self.db.dir())
            .map_err(|e| crate::error::Error::io(self.db.dir(), e))?;
        let planned = self.units.iter().flat_map(|u| u.sectors.iter().copied());
        self.db.record_planned(planned)?;
        for (i, unit) in self.units.iter().enumerate() {
            if triage(self.db, unit, progress)? {
                self.schedule.done(i);
                self.done_before += 1;
            }
        }
        Ok(())
    }

    /// Hands ready units to free workers.
    fn hand_out(&mut self) {
        while !self.free.is_empty() {
            let Some(u) = self.schedule.next_unit() else {
                break;
            };
            let w = self.free.pop_front().expect("a free worker");
            send(
                self.cluster,
                w,
                &encode(&ToWorker::Solve { unit: u as u64 }),
            );
            self.running[w] = Some(u);
            self.report.cluster(&Event::Assigned {
                unit: &self.units[u],
                worker: w,
            });
        }
    }

    /// Whether the run is over: every worker heard from and none running, the schedule done
    /// or stopped by a failure (and a failure noted when units remain that no worker can take).
    fn all_quiet(&mut self) -> bool {
        let in_flight = self.running.iter().flatten().count();
        if self.greeted < self.workers || in_flight > 0 {
            return false;
        }
        if self.failure.is_none() && !self.schedule.is_finished() {
            // Every worker is free or refused, nothing runs, and units remain: no worker can
            // take them (or the plan is not a plan).
            self.failure = Some(MpiError::Stopped(format!(
                "{} units remain but no worker can take them",
                self.units.len() - self.schedule.done_count()
            )));
        }
        true
    }

    /// Takes in one message from worker `w`.
    fn hear(&mut self, w: usize, bytes: &[u8]) {
        let message = match decode::<ToScheduler>(bytes) {
            Ok(m) => m,
            Err(why) => {
                // The worker's state is unknown: count it as greeted and idle, never use it.
                if self.running[w].take().is_none() {
                    self.greeted += 1;
                }
                self.failure.get_or_insert(MpiError::Protocol {
                    rank: w,
                    me: 0,
                    why,
                });
                return;
            }
        };
        match message {
            ToScheduler::Hello { plan } => {
                self.greeted += 1;
                if plan == self.plan_id {
                    self.free.push_back(w);
                } else {
                    self.failure
                        .get_or_insert(MpiError::PlanMismatch { rank: w });
                }
            }
            ToScheduler::Solved { unit, times } => self.solved_by(w, unit, times),
            ToScheduler::Failed { unit, why } => self.failed_at(w, unit, why),
        }
    }

    /// Worker `w` solved (or found solved) `unit`.
    fn solved_by(&mut self, w: usize, unit: u64, times: Option<Times>) {
        let Some(u) = expect_unit(&mut self.running, w, unit, &mut self.failure) else {
            return;
        };
        let unit = &self.units[u];
        // The worker wrote the files; rank 0 must see them, or the folder is not shared.
        match unit_done(self.db, unit) {
            Ok(true) => {}
            Ok(false) => {
                self.failure.get_or_insert(MpiError::NotShared {
                    rank: w,
                    unit: unit.to_string(),
                    dir: self.db.dir().to_path_buf(),
                });
            }
            Err(e) => {
                self.failure.get_or_insert(e.into());
            }
        }
        self.db.forget();
        self.schedule.done(u);
        self.solved += usize::from(times.is_some());
        self.report.cluster(&Event::Finished {
            unit,
            worker: w,
            times: times.map(Into::into),
            done: self.schedule.done_count(),
            units: self.units.len(),
        });
        self.free.push_back(w);
    }

    /// Worker `w` failed on `unit`.
    fn failed_at(&mut self, w: usize, unit: u64, why: String) {
        let Some(u) = expect_unit(&mut self.running, w, unit, &mut self.failure) else {
            return;
        };
        self.report.cluster(&Event::Failed {
            unit: &self.units[u],
            worker: w,
            why: &why,
        });
        self.failure.get_or_insert(MpiError::Worker {
            rank: w,
            unit: self.units[u].to_string(),
            why,
        });
        self.free.push_back(w);
    }

    /// Stops every worker (saying why, on a failure) and returns the run's outcome.
    fn stop(self) -> Result<Summary, MpiError> {
        let why = self.failure.as_ref().map(|f| f.to_string());
        for w in 1..self.cluster.size() {
            send(
                self.cluster,
                w,
                &encode(&ToWorker::Stop { why: why.clone() }),
            );
        }
        match self.failure {
            Some(f) => Err(f),
            None => Ok(Summary {
                units: self.units.len(),
                solved: self.solved,
                done_before: self.done_before,
            }),
        }
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
