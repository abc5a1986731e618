//! `morris solve`: the plan, the run with its bars, and its last lines.

use std::process::ExitCode;
use std::time::Instant;

use morris::solve::working_bytes;
use morris::space::{disk_peak, plan, CostModel, UnitGraph};
use morris::{Database, Sector, Variant, WorkUnit};

use super::args::SolveArgs;
use super::bars::SolveBars;
use super::output::{Failure, Out};
use super::simulate::human;
use super::units::{compact_tables, print_solved, slots, solve_options, thread_pool};

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
        return print_plan(&db, &units, args);
    }
    let pool = thread_pool(args)?;
    let bars = SolveBars::new(units.len(), args.quiet).with_folder(db.dir());
    let started = Instant::now();
    let options = solve_options(args);
    let solved = pool.install(|| morris::solve::solve_units(&db, &units, &bars, &options));
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
fn print_plan(db: &Database, units: &[WorkUnit], args: &SolveArgs) -> Result<ExitCode, Failure> {
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
    print_peaks(db, units, compact_tables(args).depth_level, &mut out)
}

/// The plan's modelled time, its peak disk as sector files and solved `--compact`, and its
/// peak working memory.
fn print_peaks(
    db: &Database,
    units: &[WorkUnit],
    depth_level: i32,
    out: &mut Out,
) -> Result<ExitCode, Failure> {
    let variant = db.variant();
    let model = CostModel::reference();
    let graph = UnitGraph::new(variant, units);
    let costs = model.costs(variant, units, |s| db.index(s).size());
    // A byte a slot: every game solved so far has depths that fit one.
    let bytes: Vec<u64> = units.iter().map(|u| slots(db, u)).collect();
    let turning: f64 = bytes
        .iter()
        .map(|&b| model.turning_seconds(b, depth_level))
        .sum();
    out.line(format_args!(
        "modelled time: {} for one process, and {} more with --compact to turn sectors into tables, depth blocks at zstd level {depth_level} (the cost model: {})",
        human(costs.iter().sum()),
        human(turning),
        model.source
    ))?;
    // A resumed run: what is left of it, by the files the folder holds now.
    let done: Vec<bool> = units
        .iter()
        .map(|u| morris::solve::unit_done(db, u).unwrap_or(false))
        .collect();
    let solved = done.iter().filter(|&&d| d).count();
    if solved > 0 {
        // Summed from +0.0: an empty sum of floats is -0.0.
        let (mut left, mut turning_left, mut slots_done) = (0.0, 0.0, 0u64);
        for (i, u) in units.iter().enumerate() {
            if done[i] {
                slots_done += bytes[i];
            } else {
                left += costs[i];
            }
            // A solved unit is still to turn while a sector file of it is there.
            if !done[i] || u.sectors.iter().any(|&s| db.path(s).exists()) {
                turning_left += model.turning_seconds(bytes[i], depth_level);
            }
        }
        out.line(format_args!(
            "already solved in {}: {solved} of {} units ({slots_done} of {} slots); left: {} for one process, and {} with --compact to turn the sectors not yet in tables",
            db.dir().display(),
            units.len(),
            bytes.iter().sum::<u64>(),
            human(left),
            human(turning_left)
        ))?;
    }
    let (plain, _) = disk_peak(&graph, &costs, &bytes, None);
    let (compact, tables) = disk_peak(&graph, &costs, &bytes, Some(model.tables_ratio));
    let gb = |b: u64| b as f64 / 1e9;
    out.line(format_args!(
        "peak disk: {:.1} GB of sector files; with --compact about {:.1} GB, ending with {:.1} GB of tables (taking tables at {:.2} of their sector files, as nine's are)",
        gb(plain),
        gb(compact),
        gb(tables),
        model.tables_ratio
    ))?;
    if let Some((i, u)) = units
        .iter()
        .enumerate()
        .max_by_key(|(i, u)| (working_bytes(u, bytes[*i]), std::cmp::Reverse(*i)))
    {
        out.line(format_args!(
            "peak memory: {:.1} GB of working state, in unit {} ({u}), besides the page cache of the files it reads",
            gb(working_bytes(u, bytes[i])),
            i + 1
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}
