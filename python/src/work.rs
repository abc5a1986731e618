//! `morris.solve` and `morris.verify`: the command line's `solve` and `verify`, their results as
//! dicts, their progress to a callback or a bar, Ctrl-C stopping them.

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use morris::front::Spelling;
use morris::solve::{solve_units, start_value, SolveOptions};
use morris::space::plan;
use morris::verify::verify_with;
use morris::{Database, Sector, Value};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::args::{count, opt_text, Count, Folder, Text};
use crate::errors::{check_folder, nothing_solved, solve_command, Fail};
use crate::game::{Game, RuleArgs};
use crate::progress::{cancellable, Measure, Reporter, Sink};

/// A pool of `threads` workers (default: every core).
fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool, Fail> {
    Ok(morris::front::thread_pool(threads, Spelling::Keyword)?)
}

/// A sector argument, checked as `--sector` is: well formed, and reached by some game.
fn sector_arg(game: &Game, text: &str) -> Result<Sector, Fail> {
    let s: Sector = text.parse()?;
    game.reachable().check_sector(s)?;
    Ok(s)
}

/// What `solve` did.
struct Solved {
    units: usize,
    solved: usize,
    seconds: f64,
    dir: String,
    start: Option<Value>,
}

/// The root sectors: one sector and its needs, the endgames, or the whole game.
fn roots(game: &Game, max_pieces: Option<u8>, sector: Option<&str>) -> Result<Vec<Sector>, Fail> {
    Ok(morris::front::solve_roots(
        &game.variant,
        max_pieces,
        sector,
        Spelling::Keyword,
    )?)
}

/// Options of a run.
struct Run<'a> {
    root: &'a Path,
    game: &'a Game,
    threads: Option<usize>,
}

fn run_solve(
    run: Run<'_>,
    roots: &[Sector],
    options: &SolveOptions,
    reporter: &Reporter,
) -> Result<Solved, Fail> {
    let units = plan(&run.game.variant, roots);
    check_folder(run.root)?;
    let db = Database::new(run.root, &run.game.variant)?;
    let weights: HashMap<Sector, u64> = units
        .iter()
        .map(|u| {
            (
                u.sectors[0],
                u.sectors.iter().map(|&s| db.index(s).size()).sum(),
            )
        })
        .collect();
    reporter.set_weights(weights);
    let pool = pool(run.threads)?;
    let started = Instant::now();
    let solved = pool.install(|| solve_units(&db, &units, reporter, options))?;
    Ok(Solved {
        units: units.len(),
        solved,
        seconds: started.elapsed().as_secs_f64(),
        dir: db.dir().display().to_string(),
        start: start_value(&db),
    })
}

/// A value as `{"value": ..., "depth": ...}`, or `None`.
fn value_dict<'py>(py: Python<'py>, v: Option<Value>) -> PyResult<Option<Bound<'py, PyDict>>> {
    v.map(|v| {
        let d = PyDict::new(py);
        d.set_item("value", v.name())?;
        d.set_item("depth", v.depth())?;
        Ok(d)
    })
    .transpose()
}

/// Solves `variant` (a name or a `morris.Variant`; rule switches as keywords) into the
/// database folder `path`, as `morris solve` does: the whole game, or with `max_pieces=K` the
/// moving-phase sectors with at most K pieces a side, or with `sector="W-B-WF-BF"` that sector
/// and what it depends on. Work already solved is kept; `verify=True` proves each unit right
/// after writing it; `compact=True` turns each sector into its tables as soon as no unit still
/// to solve reads it (`morris solve --compact`), so that the finished folder holds tables.
///
/// `progress` is a callable `progress(done, total)` or a tqdm-style bar (its `total` is set,
/// then `update(n)` called), counted in index slots of the work units finished. The GIL is
/// released while solving; Ctrl-C (KeyboardInterrupt) or an exception in `progress` stops the
/// solve at its next report and is raised.
///
/// Returns `{"units", "solved", "already_done", "seconds", "database", "start"}`: the work
/// units of the plan, those solved now and those found done, the time, the rule set's folder,
/// and the start position's value (`{"value", "depth"}`, `None` while its sector is unsolved).
#[pyfunction]
#[pyo3(signature = (path, variant = None, *, max_pieces = None, sector = None, threads = None, verify = false, compact = false, progress = None, flying = None, removal = None, phases = None, full_board = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve<'py>(
    py: Python<'py>,
    path: Folder,
    variant: Option<&Bound<'py, PyAny>>,
    max_pieces: Option<Count<u8>>,
    sector: Option<Text>,
    threads: Option<Count<usize>>,
    verify: bool,
    compact: bool,
    progress: Option<&Bound<'py, PyAny>>,
    flying: Option<Text>,
    removal: Option<Text>,
    phases: Option<Text>,
    full_board: Option<Text>,
) -> PyResult<Bound<'py, PyDict>> {
    let path = path.0;
    let rules = RuleArgs::new(flying, removal, phases, full_board);
    let game = crate::game_arg(py, variant, rules)?;
    let reporter = Reporter::new(Sink::of(progress)?, Measure::UnitSlots);
    let solved = {
        let (root, game, reporter) = (&path, &*game, &reporter);
        cancellable(py, reporter, || {
            let roots = roots(game, count(max_pieces), opt_text(sector).as_deref())?;
            let run = Run {
                root,
                game,
                threads: count(threads),
            };
            let options = SolveOptions {
                verify,
                compact: compact.then(morris::tables::Options::default),
            };
            run_solve(run, &roots, &options, reporter)
        })?
    };
    let out = PyDict::new(py);
    out.set_item("units", solved.units)?;
    out.set_item("solved", solved.solved)?;
    out.set_item("already_done", solved.units - solved.solved)?;
    out.set_item("seconds", solved.seconds)?;
    out.set_item("database", solved.dir)?;
    out.set_item("start", value_dict(py, solved.start)?)?;
    Ok(out)
}

/// What `verify` found.
struct Proved {
    report: morris::verify::Report,
    /// What keeps the record of planned sectors from showing the folder complete (checked
    /// when the whole folder is proved), as a fault.
    record: Option<String>,
    /// The advice for each missing sector, as the command line prints it.
    missing: Vec<String>,
}

fn run_verify(
    run: Run<'_>,
    sector: Option<&str>,
    max_faults: usize,
    resume: bool,
    reporter: &Reporter,
) -> Result<Proved, Fail> {
    check_folder(run.root)?;
    let variant = &run.game.variant;
    let db = if Database::tables(run.root, variant, 0)?.holds_tables_only() {
        // The proof reads tables decoded whole (`Database::rows`); its probes need no cache.
        Database::tables(run.root, variant, 0)?
    } else {
        Database::new(run.root, variant)?
    };
    let sectors = match sector {
        Some(text) => vec![sector_arg(run.game, text)?],
        None => db.expected(),
    };
    if sectors.is_empty() {
        return Err(nothing_solved(&db));
    }
    reporter.set_total(
        sectors
            .iter()
            .map(|&s| db.index(s).size() + db.index(s.flipped()).size())
            .sum(),
    );
    let pool = pool(run.threads)?;
    let report = pool.install(|| verify_with(&db, &sectors, max_faults, resume, reporter));
    if report.cancelled {
        return Err(Fail::Cancelled);
    }
    let mut missing: Vec<Sector> = report.faults.iter().filter_map(|f| f.missing).collect();
    missing.sort();
    missing.dedup();
    let missing = missing
        .into_iter()
        .filter_map(|s| {
            let e = db.missing(s);
            let m = e.missing()?;
            Some(format!(
                "sector {s} is missing; solve it with `{}`",
                solve_command(m, true)
            ))
        })
        .collect();
    let record = match sector {
        None => db.planned_fault().map(|e| e.to_string()),
        Some(_) => None,
    };
    Ok(Proved {
        report,
        record,
        missing,
    })
}

/// Proves a database or tables folder as `morris verify` does: every file's header and
/// checksums, and every stored position recomputed from its children (value and depth). With
/// `sector="W-B-WF-BF"` only that sector; with `resume=True` sectors proved before (their proof
/// records match the files) are not recomputed. Faults are listed (at most `max_faults`) and
/// all counted; they are the result, not exceptions.
///
/// `progress` as for `solve`, counted in slots proved. The GIL is released while proving;
/// Ctrl-C stops it.
///
/// Returns `{"sound", "sectors", "positions", "children", "fault_count", "faults", "missing",
/// "skipped"}`: whether no fault was found, what was checked, the faults as `verify` prints
/// them (after `FAULT `), the advice for missing sectors, and the sectors not recomputed.
#[pyfunction]
#[pyo3(
    signature = (path, variant = None, *, sector = None, max_faults = Count(20), resume = false, threads = None, progress = None, flying = None, removal = None, phases = None, full_board = None),
    text_signature = "(path, variant=None, *, sector=None, max_faults=20, resume=False, threads=None, progress=None, flying=None, removal=None, phases=None, full_board=None)"
)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn verify<'py>(
    py: Python<'py>,
    path: Folder,
    variant: Option<&Bound<'py, PyAny>>,
    sector: Option<Text>,
    max_faults: Count<usize>,
    resume: bool,
    threads: Option<Count<usize>>,
    progress: Option<&Bound<'py, PyAny>>,
    flying: Option<Text>,
    removal: Option<Text>,
    phases: Option<Text>,
    full_board: Option<Text>,
) -> PyResult<Bound<'py, PyDict>> {
    let path = path.0;
    let rules = RuleArgs::new(flying, removal, phases, full_board);
    let game = crate::game_arg(py, variant, rules)?;
    let reporter = Reporter::new(Sink::of(progress)?, Measure::Steps);
    let proved = {
        let (root, game, reporter) = (&path, &*game, &reporter);
        cancellable(py, reporter, || {
            let run = Run {
                root,
                game,
                threads: count(threads),
            };
            run_verify(
                run,
                opt_text(sector).as_deref(),
                max_faults.0,
                resume,
                reporter,
            )
        })?
    };
    let r = &proved.report;
    let out = PyDict::new(py);
    let fault_count = r.fault_count + u64::from(proved.record.is_some());
    out.set_item("sound", fault_count == 0)?;
    out.set_item("sectors", r.sectors)?;
    out.set_item("positions", r.positions)?;
    out.set_item("children", r.children)?;
    out.set_item("fault_count", fault_count)?;
    let faults: Vec<String> = (proved.record.iter().cloned())
        .chain(r.faults.iter().map(|f| f.to_string()))
        .collect();
    out.set_item("faults", faults)?;
    let by_sector = PyDict::new(py);
    for (s, n) in &r.by_sector {
        by_sector.set_item(s.to_string(), n)?;
    }
    out.set_item("faults_by_sector", by_sector)?;
    out.set_item("missing", proved.missing)?;
    out.set_item("skipped", r.skipped)?;
    Ok(out)
}
