//! The `solve` and `stats` subcommands: planning, progress bars, resuming, and reports.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use morris::query::wire::{self, StatsJson};
use morris::solve::start_value;
use morris::space::{endgame_roots, plan, Sector, WorkUnit};
use morris::space::{CostModel, UnitGraph};
use morris::store::Database;
use morris::store::SectorStats;
use morris::{Progress, UnitTimes};
use morris::{Value, Variant};

use crate::cli::{bad_input, Failure, Out, SolveArgs};

/// Draws the bar of the whole run and the bar of the current work unit's phases.
struct Bars {
    multi: MultiProgress,
    overall: ProgressBar,
    phase: ProgressBar,
    quiet: bool,
}

impl Progress for Bars {
    fn unit(&self, unit: &WorkUnit, number: usize, count: usize, _done: bool) {
        self.overall.set_length(count as u64);
        self.overall.set_position(number as u64);
        self.overall.set_message(unit_name(unit));
    }
    fn unit_solved(&self, unit: &WorkUnit, t: &UnitTimes) {
        self.overall.inc(1);
        if !self.quiet {
            let line = solved_line(unit, t);
            // Bars are hidden when stderr is not a terminal; the log lines still belong there.
            if self.multi.is_hidden() {
                let _ = writeln!(io::stderr(), "{line}");
            } else {
                let _ = self.multi.println(line);
            }
        }
    }
    fn phase(&self, name: &str, total: u64) {
        if self.phase.message() != name {
            self.phase.set_position(0);
            self.phase.set_message(name.to_string());
        }
        self.phase.set_length(total);
    }
    fn advance(&self, n: u64) {
        self.phase.inc(n);
    }
}

/// The log line of a solved unit; [`recorded_times`] reads it back.
fn solved_line(unit: &WorkUnit, t: &UnitTimes) -> String {
    let mut line = format!(
        "solved {} ({} slots) in {:.2?}: children {:.2?}, {} levels {:.2?}, writing {:.2?}",
        unit_name(unit),
        t.slots,
        t.total(),
        t.init,
        t.levels,
        t.retrograde,
        t.write
    );
    if !t.verify.is_zero() {
        line += &format!(", verify {:.2?}", t.verify);
    }
    line
}

/// Root sectors for the arguments: the whole game, the endgames, or one sector and its needs.
fn roots_for(variant: &Variant, args: &SolveArgs) -> Result<Vec<Sector>, Failure> {
    let roots = if let Some(text) = &args.sector {
        let sector: Sector = text.parse()?;
        sector.check(variant)?;
        if sector.is_terminal() {
            return Err(bad_input(format!(
                "sector {sector}: the mover has fewer than three pieces, so every position is lost at depth 0 and nothing is stored"
            )));
        }
        vec![sector]
    } else if let Some(k) = args.max_pieces {
        if k < 3 {
            return Err(bad_input(format!(
                "--max-pieces {k}: a side needs at least 3 pieces to play"
            )));
        }
        endgame_roots(variant, k)
    } else {
        vec![Sector::start(variant)]
    };
    Ok(roots)
}

fn slots(db: &Database, unit: &WorkUnit) -> u64 {
    unit.sectors.iter().map(|&s| db.index(s).size()).sum()
}

fn unit_name(unit: &WorkUnit) -> String {
    unit.sectors
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `morris solve`.
pub fn solve(variant: &Variant, args: &SolveArgs) -> Result<ExitCode, Failure> {
    let roots = roots_for(variant, args)?;
    let units = plan(variant, &roots);
    if args.mpi {
        return solve_mpi(variant, args, &roots);
    }
    let db = Database::new(&args.db, variant)?;
    if !args.simulate_workers.is_empty() {
        return simulate(&db, &units, args);
    }
    if args.plan {
        let mut out = Out::new();
        out.line(format_args!(
            "{:>4}  {:>14}  {:<8}  sectors",
            "unit", "slots", "kind"
        ))?;
        let mut total = 0;
        for (i, u) in units.iter().enumerate() {
            let n = slots(&db, u);
            total += n;
            let kind = if u.cyclic { "cyclic" } else { "forward" };
            out.line(format_args!(
                "{:>4}  {:>14}  {:<8}  {}",
                i + 1,
                n,
                kind,
                unit_name(u)
            ))?;
        }
        let sectors: usize = units.iter().map(|u| u.sectors.len()).sum();
        out.line(format_args!(
            "{} work units, {sectors} sectors, {total} index slots",
            units.len()
        ))?;
        return Ok(ExitCode::SUCCESS);
    }
    let pool = thread_pool(args)?;
    let multi = MultiProgress::with_draw_target(if args.quiet {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    });
    let style = |template: &str| {
        ProgressStyle::with_template(template)
            .unwrap()
            .progress_chars("=> ")
    };
    let overall = multi.add(ProgressBar::new(units.len() as u64));
    overall.set_style(style(
        "{prefix:>6} [{bar:30}] {pos}/{len} units {elapsed_precise} {msg}",
    ));
    overall.set_prefix("solve");
    let phase = multi.add(ProgressBar::new(0));
    phase.set_style(style("{prefix:>6} [{bar:30}] {pos}/{len} {msg} ({eta})"));
    phase.set_prefix("unit");
    let bars = Bars {
        multi,
        overall,
        phase,
        quiet: args.quiet,
    };
    let started = Instant::now();
    let solved = pool.install(|| morris::solve::solve_units(&db, &units, &bars, args.verify));
    bars.phase.finish_and_clear();
    bars.overall.finish_and_clear();
    let solved = solved?;
    print_solved(&db, args, units.len(), solved, started)
}

/// The last lines of a solve: units solved and skipped, and the start's value when known.
fn print_solved(
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

fn thread_pool(args: &SolveArgs) -> Result<rayon::ThreadPool, Failure> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(|e| bad_input(format!("cannot start worker threads: {e}")))
}

/// `solve --plan --simulate-workers N,...`: the critical path, then the wall time of each
/// number of workers, replaying the units' costs through the schedule every solve follows.
fn simulate(db: &Database, units: &[WorkUnit], args: &SolveArgs) -> Result<ExitCode, Failure> {
    let variant = db.variant();
    let model = CostModel::reference();
    let mut costs = model.costs(variant, units, |s| db.index(s).size());
    let mut recorded = 0;
    let mut source = String::new();
    if let Some(path) = &args.unit_times {
        let text = std::fs::read(path)
            .map_err(|e| bad_input(format!("--unit-times {}: {e}", path.display())))?;
        let times = recorded_times(&String::from_utf8_lossy(&text));
        for (i, u) in units.iter().enumerate() {
            if let Some(&t) = times.get(&unit_name(u)) {
                costs[i] = t;
                recorded += 1;
            }
        }
        source = format!("{recorded} from {}, ", path.display());
    }
    let graph = UnitGraph::new(variant, units);
    let total: f64 = costs.iter().sum();
    let (path, critical) = graph.critical_path(&costs);
    let all_slots: u64 = units.iter().map(|u| slots(db, u)).sum();
    let mut out = Out::new();
    out.line(format_args!(
        "simulated {} work units, {all_slots} index slots; unit costs: {source}{} from the cost model ({})",
        units.len(),
        units.len() - recorded,
        model.source
    ))?;
    out.line(format_args!(
        "total work {}; critical path {} units, {} ({:.1}% of the work), which no number of workers shortens:",
        human(total),
        path.len(),
        human(critical),
        100.0 * critical / total.max(f64::MIN_POSITIVE)
    ))?;
    out.line(format_args!(
        "  {:>10}  {:>14}  {:<8}  unit",
        "cost", "slots", "kind"
    ))?;
    for &u in &path {
        out.line(format_args!(
            "  {:>10}  {:>14}  {:<8}  {}",
            human(costs[u]),
            slots(db, &units[u]),
            if units[u].cyclic { "cyclic" } else { "forward" },
            unit_name(&units[u])
        ))?;
    }
    out.line(format_args!(
        "{:>7}  {:>10}  {:>8}  {:>10}",
        "workers", "wall", "speed-up", "efficiency"
    ))?;
    for &n in &args.simulate_workers {
        let wall = morris::space::simulate(&graph, &costs, n);
        let speedup = total / wall.max(f64::MIN_POSITIVE);
        out.line(format_args!(
            "{n:>7}  {:>10}  {speedup:>8.2}  {:>9.1}%",
            human(wall),
            100.0 * speedup / n as f64
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Seconds for people: `12.3 s`, `45.6 min`, `4.53 h`.
fn human(seconds: f64) -> String {
    if seconds < 100.0 {
        format!("{seconds:.2} s")
    } else if seconds < 6000.0 {
        format!("{:.1} min", seconds / 60.0)
    } else {
        format!("{:.2} h", seconds / 3600.0)
    }
}

/// The seconds per unit that a log of `solve` records in its [`solved_line`]s, by the unit's
/// sectors (the last line of a unit wins); other lines are skipped. Lines may carry a prefix
/// (`[rank 2 +3.1s] solved ...`).
fn recorded_times(log: &str) -> BTreeMap<String, f64> {
    log.lines()
        .filter_map(|line| {
            let rest = &line[line.find("solved ")? + "solved ".len()..];
            let (name, rest) = rest.split_once(" (")?;
            let (_, rest) = rest.split_once(" slots) in ")?;
            let (time, _) = rest.split_once(':')?;
            Some((name.to_string(), parse_duration(time)?))
        })
        .collect()
}

/// Seconds of a duration as `{:.2?}` prints it: `464.54ms`, `2.24s`, `12.00µs`, `900ns`.
fn parse_duration(text: &str) -> Option<f64> {
    let split = text.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
    let (number, unit) = text.split_at(split);
    let scale = match unit {
        "s" => 1.0,
        "ms" => 1e-3,
        "µs" | "us" => 1e-6,
        "ns" => 1e-9,
        _ => return None,
    };
    Some(number.parse::<f64>().ok()? * scale)
}

/// `solve --mpi` in a build without MPI.
#[cfg(not(feature = "mpi"))]
fn solve_mpi(_: &Variant, _: &SolveArgs, _: &[Sector]) -> Result<ExitCode, Failure> {
    Err(bad_input(
        "this morris was built without MPI; build it with `cargo build --release --features mpi` (needs an MPI library such as Open MPI)".into(),
    ))
}

/// `solve --mpi`: one rank of an MPI job. Rank 0 schedules and prints the summary; every
/// rank logs to standard error, each line prefixed by its rank and the seconds since it began.
#[cfg(feature = "mpi")]
fn solve_mpi(variant: &Variant, args: &SolveArgs, roots: &[Sector]) -> Result<ExitCode, Failure> {
    use morris::mpi::{Cluster, MpiError};
    let cluster = Cluster::init().map_err(|e| Failure {
        code: crate::cli::EXIT_FAILURE,
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
    match cluster.solve(&db, roots, &pool, &log, &log, args.verify) {
        Ok(summary) if cluster.rank() == 0 => {
            print_solved(&db, args, summary.units, summary.solved, log.started)
        }
        Ok(summary) => {
            log.line(&format!("stopping: solved {} units", summary.solved));
            Ok(ExitCode::SUCCESS)
        }
        Err(MpiError::Solve(e)) => Err(e.into()),
        Err(e) => Err(Failure {
            code: crate::cli::EXIT_FAILURE,
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
            self.line(&format!("solving {}", unit_name(unit)));
        }
    }
    fn waiting(&self, unit: &WorkUnit) {
        self.line(&format!(
            "waiting: another process holds the lock of {}",
            unit_name(unit)
        ));
    }
    fn unit_solved(&self, unit: &WorkUnit, t: &UnitTimes) {
        self.line(&solved_line(unit, t));
    }
}

#[cfg(feature = "mpi")]
impl morris::mpi::Report for RankLog {
    fn event(&self, event: &morris::mpi::Event<'_>) {
        use morris::mpi::Event;
        let text = match event {
            Event::Planned {
                units,
                done,
                workers,
            } => format!("{units} work units, {done} already solved, {workers} workers"),
            Event::Assigned { unit, worker } => {
                format!("{} -> rank {worker}", unit_name(unit))
            }
            Event::Finished {
                unit,
                worker,
                times,
                done,
                units,
            } => format!(
                "{} {} by rank {worker} ({done}/{units} units done)",
                unit_name(unit),
                if times.is_some() {
                    "done"
                } else {
                    "found solved by another process"
                }
            ),
            Event::Failed { unit, worker, why } => {
                format!("rank {worker} failed on {}: {why}", unit_name(unit))
            }
            _ => format!("{event:?}"),
        };
        self.line(&text);
    }
}

fn describe_start(v: Value) -> String {
    match v {
        Value::Win(d) => format!("win for White (the first player) in {d} plies"),
        Value::Loss(d) => format!("win for Black (the second player) in {d} plies"),
        Value::Draw => "draw".into(),
    }
}

/// `morris stats`.
pub fn stats(variant: &Variant, dir: &Path, json: bool) -> Result<ExitCode, Failure> {
    let db = Database::new(dir, variant)?;
    let sectors = db.present();
    if sectors.is_empty() {
        return Err(bad_input(format!(
            "no solved sectors of {} in {}; run `{}`",
            variant.rule_set_name(),
            db.dir().display(),
            db.solve_command("")
        )));
    }
    let stats = StatsJson::read(&db)?;
    let mut out = Out::new();
    if json {
        out.line(wire::json(&stats))?;
        return Ok(ExitCode::SUCCESS);
    }
    let (rows, start) = (&stats.sectors, start_value(&db));
    out.line(format_args!(
        "{:<10} {:>13} {:>13} {:>13} {:>11} {:>15} {:>15} {:>15} {:>13} {:>5}",
        "sector",
        "positions",
        "win",
        "loss",
        "draw",
        "raw positions",
        "raw win",
        "raw loss",
        "raw draw",
        "depth"
    ))?;
    let row = |out: &mut Out, name: &str, s: &SectorStats| {
        out.line(format_args!(
            "{:<10} {:>13} {:>13} {:>13} {:>11} {:>15} {:>15} {:>15} {:>13} {:>5}",
            name,
            s.positions,
            s.win,
            s.loss,
            s.draw,
            s.raw_positions,
            s.raw_win,
            s.raw_loss,
            s.raw_draw,
            s.max_depth
        ))
    };
    for r in rows {
        row(&mut out, &r.sector, &r.stats)?;
    }
    let total = rows
        .iter()
        .fold(SectorStats::default(), |t, r| t.merge(r.stats));
    row(&mut out, "total", &total)?;
    match start {
        Some(v) => out.line(format_args!("start position: {}", describe_start(v)))?,
        None => out.line("start position: not solved")?,
    }
    Ok(ExitCode::SUCCESS)
}
