//! `solve --mpi`: one rank of an MPI job, and its log.

use std::process::ExitCode;

use morris::{Sector, Variant};

use super::args::SolveArgs;
#[cfg(not(feature = "mpi"))]
use super::output::bad_input;
use super::output::Failure;
#[cfg(feature = "mpi")]
use {
    super::bars::{solved_line, turned_line},
    super::output::EXIT_FAILURE,
    super::units::{print_solved, solve_options, thread_pool},
    morris::{ClusterEvent, Database, Progress, UnitTimes, WorkUnit},
    std::io::{self, Write},
    std::time::Instant,
};

/// `solve --mpi` in a build without MPI.
#[cfg(not(feature = "mpi"))]
pub fn solve_mpi(_: &Variant, _: &SolveArgs, _: &[Sector]) -> Result<ExitCode, Failure> {
    Err(bad_input(
        "this morris was built without MPI; build it with `cargo build --release --features mpi` (needs an MPI library such as Open MPI)".into(),
    ))
}

/// `solve --mpi`: one rank of an MPI job. Rank 0 schedules and prints the summary; every
/// rank logs to standard error, each line prefixed by its rank and the seconds since it began.
#[cfg(feature = "mpi")]
pub fn solve_mpi(
    variant: &Variant,
    args: &SolveArgs,
    roots: &[Sector],
) -> Result<ExitCode, Failure> {
    use morris::mpi::{Cluster, MpiError};
    let cluster = Cluster::init().map_err(|e| Failure {
        code: EXIT_FAILURE,
        error: e.into(),
    })?;
    let log = RankLog {
        rank: cluster.rank(),
        started: Instant::now(),
        quiet: args.quiet,
    };
    // A failure before the ranks talk (a folder one machine cannot use) must end the whole
    // job: the other ranks would wait for this one for ever.
    let setup = Database::new(&args.db, variant)
        .map_err(Failure::from)
        .and_then(|db| Ok((db, thread_pool(args)?)));
    let (db, pool) = match setup {
        Ok(x) => x,
        Err(f) => {
            log.always(&format!("morris: {:#}", f.error));
            cluster.abort(f.code.into());
        }
    };
    log.line(&format!(
        "pid {} on {}, {} threads{}",
        std::process::id(),
        cluster.host(),
        pool.current_num_threads(),
        if cluster.rank() == 0 {
            format!(", scheduling for {} ranks", cluster.size())
        } else {
            String::new()
        }
    ));
    match cluster.solve(&db, roots, &pool, &log, &solve_options(args)) {
        Ok(summary) if cluster.rank() == 0 => {
            print_solved(&db, args, summary.units, summary.solved, log.started)
        }
        Ok(summary) => {
            log.line(&format!("stopping: solved {} units", summary.solved));
            Ok(ExitCode::SUCCESS)
        }
        Err(MpiError::Solve(e)) => Err(e.into()),
        Err(e) => Err(Failure {
            code: EXIT_FAILURE,
            error: e.into(),
        }),
    }
}

/// One rank's log on standard error: `[rank R +S.Ss] ...`.
#[cfg(feature = "mpi")]
struct RankLog {
    rank: usize,
    started: Instant,
    quiet: bool,
}

#[cfg(feature = "mpi")]
impl RankLog {
    fn line(&self, text: &str) {
        if !self.quiet {
            self.always(text);
        }
    }

    fn always(&self, text: &str) {
        // One write per line, so that lines of ranks sharing a terminal do not interleave.
        let line = format!(
            "[rank {} +{:.1}s] {text}\n",
            self.rank,
            self.started.elapsed().as_secs_f64()
        );
        let _ = io::stderr().write_all(line.as_bytes());
    }
}

#[cfg(feature = "mpi")]
impl Progress for RankLog {
    fn unit(&self, unit: &WorkUnit, _: usize, _: usize, done: bool) {
        if !done {
            self.line(&format!("solving {}", unit));
        }
    }
    fn waiting(&self, unit: &WorkUnit) {
        self.line(&format!(
            "waiting: another process holds the lock of {}",
            unit
        ));
    }
    fn unit_solved(&self, unit: &WorkUnit, t: &UnitTimes) {
        self.line(&solved_line(unit, t));
    }
    fn sector_turned(&self, report: &morris::tables::SectorReport, time: std::time::Duration) {
        self.line(&turned_line(report, time));
    }
    fn cluster(&self, event: &ClusterEvent<'_>) {
        use ClusterEvent as Event;
        let text = match event {
            Event::Planned {
                units,
                done,
                workers,
            } => format!("{units} work units, {done} already solved, {workers} workers"),
            Event::Assigned { unit, worker } => {
                format!("{} -> rank {worker}", unit)
            }
            Event::Finished {
                unit,
                worker,
                times,
                done,
                units,
            } => format!(
                "{} {} by rank {worker} ({done}/{units} units done)",
                unit,
                if times.is_some() {
                    "done"
                } else {
                    "found solved by another process"
                }
            ),
            Event::Failed { unit, worker, why } => {
                format!("rank {worker} failed on {}: {why}", unit)
            }
            _ => format!("{event:?}"),
        };
        self.line(&text);
    }
}
