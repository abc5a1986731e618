//! What every way of solving shares: the units' sizes, the worker threads, the last lines.

use std::process::ExitCode;
use std::time::Instant;

use morris::solve::start_value;
use morris::{Database, WorkUnit};

use super::args::SolveArgs;
use super::output::{describe_start, Failure, Out};

/// The index slots of a unit's sectors.
pub fn slots(db: &Database, unit: &WorkUnit) -> u64 {
    unit.sectors.iter().map(|&s| db.index(s).size()).sum()
}

/// The last lines of a solve: units solved and skipped, and the start's value when known.
pub fn print_solved(
    db: &Database,
    args: &SolveArgs,
    units: usize,
    solved: usize,
    started: Instant,
) -> Result<ExitCode, Failure> {
    let mut out = Out::new();
    out.line(format_args!(
        "{units} work units ({solved} solved now, {} already done) in {:.2?}; database {}",
        units - solved,
        started.elapsed(),
        db.dir().display()
    ))?;
    if args.sector.is_none() && args.max_pieces.is_none() {
        if let Some(v) = start_value(db) {
            out.line(format_args!("start position: {}", describe_start(v)))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// What `--verify` and `--compact` ask of a solve.
pub fn solve_options(args: &SolveArgs) -> morris::solve::SolveOptions {
    morris::solve::SolveOptions {
        verify: args.verify,
        compact: args.compact.then(|| compact_tables(args)),
    }
}

/// The options `--compact` builds tables with: `tables`' defaults, the levels given.
pub fn compact_tables(args: &SolveArgs) -> morris::tables::Options {
    let default = morris::tables::Options::default();
    morris::tables::Options {
        wdl_level: args.wdl_level.unwrap_or(default.wdl_level),
        depth_level: args.depth_level.unwrap_or(default.depth_level),
        ..default
    }
}

/// The worker threads of `--threads`.
pub fn thread_pool(args: &SolveArgs) -> Result<rayon::ThreadPool, Failure> {
    Ok(morris::front::thread_pool(
        args.threads,
        morris::front::Spelling::Flag,
    )?)
}
