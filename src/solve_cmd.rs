//! The `solve` and `stats` subcommands: planning, progress bars, resuming, and reports.

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use morris::db::Database;
use morris::sector::{endgame_roots, plan, Sector, WorkUnit};
use morris::solve::{start_value, Progress, UnitTimes};
use morris::storage::SectorStats;
use morris::wire::{self, StatsJson};
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
            let line = format!(
                "solved {} ({} slots) in {:.2?}: children {:.2?}, {} levels {:.2?}, writing {:.2?}",
                unit_name(unit),
                t.slots,
                t.total(),
                t.init,
                t.levels,
                t.retrograde,
                t.write
            );
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
    let db = Database::new(&args.db, variant)?;
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
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(|e| bad_input(format!("cannot start worker threads: {e}")))?;
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
    let solved = pool.install(|| morris::solve::solve(&db, &roots, &bars));
    bars.phase.finish_and_clear();
    bars.overall.finish_and_clear();
    let solved = solved?;
    let mut out = Out::new();
    out.line(format_args!(
        "{} work units ({solved} solved now, {} already done) in {:.2?}; database {}",
        units.len(),
        units.len() - solved,
        started.elapsed(),
        db.dir().display()
    ))?;
    if args.sector.is_none() && args.max_pieces.is_none() {
        if let Some(v) = start_value(&db) {
            out.line(format_args!("start position: {}", describe_start(v)))?;
        }
    }
    Ok(ExitCode::SUCCESS)
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
