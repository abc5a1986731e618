//! `morris solve`: the plan, the run with its bars, and its last lines.

use std::process::ExitCode;
use std::time::Instant;

use morris::space::plan;
use morris::{Database, Sector, Variant, WorkUnit};

use super::args::SolveArgs;
use super::bars::SolveBars;
use super::output::{Failure, Out};
use super::units::{print_solved, slots, thread_pool};

/// `morris solve`.
pub fn solve(variant: &Variant, args: &SolveArgs) -> Result<ExitCode, Failure> {
    let roots = roots_for(variant, args)?;
    let units = plan(variant, &roots);
    if args.mpi {
        return super::mpi::solve_mpi(variant, args, &roots);
    }
    let db = super::folder::database(&args.db, variant)?;
    if !args.simulate_workers.is_empty() {
        return super::simulate::simulate(&db, &units, args);
    }
    if args.plan {
        return print_plan(&db, &units);
    }
    let pool = thread_pool(args)?;
    let bars = SolveBars::new(units.len(), args.quiet);
    let started = Instant::now();
    let solved = pool.install(|| morris::solve::solve_units(&db, &units, &bars, args.verify));
    bars.finish();
    print_solved(&db, args, units.len(), solved?, started)
}

/// Root sectors for the arguments: the whole game, the endgames, or one sector and its needs.
fn roots_for(variant: &Variant, args: &SolveArgs) -> Result<Vec<Sector>, Failure> {
    Ok(morris::front::solve_roots(
        variant,
        args.max_pieces,
        args.sector.as_deref(),
        morris::front::Spelling::Flag,
    )?)
}

/// `solve --plan`: the work units in dependency order with their sizes.
fn print_plan(db: &Database, units: &[WorkUnit]) -> Result<ExitCode, Failure> {
    let mut out = Out::new();
    out.line(format_args!(
        "{:>4}  {:>14}  {:<8}  sectors",
        "unit", "slots", "kind"
    ))?;
    let mut total = 0;
    for (i, u) in units.iter().enumerate() {
        let n = slots(db, u);
        total += n;
        let kind = if u.cyclic { "cyclic" } else { "forward" };
        out.line(format_args!("{:>4}  {:>14}  {:<8}  {u}", i + 1, n, kind))?;
    }
    let sectors: usize = units.iter().map(|u| u.sectors.len()).sum();
    out.line(format_args!(
        "{} work units, {sectors} sectors, {total} index slots",
        units.len()
    ))?;
    Ok(ExitCode::SUCCESS)
}
