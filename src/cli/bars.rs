//! Progress bars (indicatif) and log lines on standard error, from the library's reports.

use std::io::{self, Write};

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use morris::{Progress, Sector, SectorReport, UnitTimes, WorkUnit};

/// A bar style from an indicatif template.
fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .expect("the templates are valid")
        .progress_chars("=> ")
}

/// Standard error, or nothing when quiet.
fn target(quiet: bool) -> ProgressDrawTarget {
    if quiet {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    }
}

/// Writes a log line above the bars; bars are hidden when standard error is not a terminal,
/// and a long run's log still gets its lines.
fn log(bar_hidden: bool, println: impl FnOnce(&str) -> io::Result<()>, line: &str) {
    if bar_hidden {
        let _ = writeln!(io::stderr(), "{line}");
    } else {
        let _ = println(line);
    }
}

/// Writes a log line above one bar ([`log`]).
fn log_above(bar: &ProgressBar, line: &str) {
    log(
        bar.is_hidden(),
        |l| {
            bar.println(l);
            Ok(())
        },
        line,
    );
}

/// The bars of `solve`: the whole run's units, and the current unit's phases.
pub struct SolveBars {
    multi: MultiProgress,
    overall: ProgressBar,
    /// The current unit's phase.
    pub phase: ProgressBar,
    quiet: bool,
    /// The rule set's folder, whose size each log line gives (`None`: no sizes).
    folder: Option<std::path::PathBuf>,
    /// The most bytes the folder held after a unit or a turned sector of this run.
    peak: std::sync::atomic::AtomicU64,
}

impl SolveBars {
    /// Bars for a run of `units` work units; drawn nowhere when `quiet`.
    pub fn new(units: usize, quiet: bool) -> SolveBars {
        let multi = MultiProgress::with_draw_target(target(quiet));
        let overall = multi.add(ProgressBar::new(units as u64));
        overall.set_style(style(
            "{prefix:>6} [{bar:30}] {pos}/{len} units {elapsed_precise} {msg}",
        ));
        overall.set_prefix("solve");
        let phase = multi.add(ProgressBar::new(0));
        phase.set_style(style("{prefix:>6} [{bar:30}] {pos}/{len} {msg} ({eta})"));
        phase.set_prefix("unit");
        SolveBars {
            multi,
            overall,
            phase,
            quiet,
            folder: None,
            peak: Default::default(),
        }
    }

    /// Gives the size of `folder` on each log line, and its peak at the end: the measured
    /// peak disk of a run (sampled after each unit and each turned sector; a table being
    /// written in between adds at most that sector's tables).
    pub fn with_folder(mut self, folder: &std::path::Path) -> SolveBars {
        self.folder = Some(folder.to_path_buf());
        self
    }

    /// `; folder N GB` for a log line, the peak raised to it (empty without a folder).
    fn folder_size(&self) -> String {
        let Some(folder) = &self.folder else {
            return String::new();
        };
        let bytes = folder_bytes(folder);
        self.peak
            .fetch_max(bytes, std::sync::atomic::Ordering::Relaxed);
        format!("; folder {}", gigabytes(bytes))
    }

    /// Clears the bars at the end of the run, and logs the folder's peak size.
    pub fn finish(&self) {
        self.phase.finish_and_clear();
        self.overall.finish_and_clear();
        let peak = self.peak.load(std::sync::atomic::Ordering::Relaxed);
        if let (Some(folder), false, true) = (&self.folder, self.quiet, peak > 0) {
            log(
                self.multi.is_hidden(),
                |l| self.multi.println(l),
                &format!(
                    "disk: the folder held at most {} after a unit or a turned sector of this run, {} now",
                    gigabytes(peak),
                    gigabytes(folder_bytes(folder))
                ),
            );
        }
    }
}

/// The bytes of the files in `folder` (not its subfolders), those that vanish while it is
/// read left out.
fn folder_bytes(folder: &std::path::Path) -> u64 {
    std::fs::read_dir(folder).map_or(0, |entries| {
        entries
            .flatten()
            .filter_map(|e| e.metadata().ok())
            .filter(|m| m.is_file())
            .map(|m| m.len())
            .sum()
    })
}

/// Bytes as gigabytes (10^9) with two decimals, or below one as megabytes with one.
fn gigabytes(bytes: u64) -> String {
    if bytes >= 1_000_000_000 {
        format!("{:.2} GB", bytes as f64 / 1e9)
    } else {
        format!("{:.1} MB", bytes as f64 / 1e6)
    }
}

impl Progress for SolveBars {
    fn unit(&self, unit: &WorkUnit, number: usize, count: usize, _done: bool) {
        self.overall.set_length(count as u64);
        self.overall.set_position(number as u64);
        self.overall.set_message(unit.to_string());
    }
    fn unit_solved(&self, unit: &WorkUnit, t: &UnitTimes) {
        self.overall.inc(1);
        if !self.quiet {
            log(
                self.multi.is_hidden(),
                |l| self.multi.println(l),
                &(solved_line(unit, t) + &self.folder_size()),
            );
        }
    }
    fn damaged(&self, sector: Sector, why: &str) {
        log(
            self.multi.is_hidden(),
            |l| self.multi.println(l),
            &format!("sector {sector}: {why}; its unit is solved again"),
        );
    }
    fn sector_turned(&self, report: &morris::tables::SectorReport, time: std::time::Duration) {
        if !self.quiet {
            log(
                self.multi.is_hidden(),
                |l| self.multi.println(l),
                &(turned_line(report, time) + &self.folder_size()),
            );
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

/// The log line of a solved unit; `solve --unit-times` reads it back.
pub fn solved_line(unit: &WorkUnit, t: &UnitTimes) -> String {
    let mut line = format!(
        "solved {unit} ({} slots) in {:.2?}: children {:.2?}, {} levels {:.2?}, writing {:.2?}",
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

/// The log line of a sector a compact solve turned into tables.
pub fn turned_line(r: &morris::tables::SectorReport, time: std::time::Duration) -> String {
    format!(
        "turned {} ({} slots) into tables in {time:.2?}: win/draw/loss {} bytes, depth {} bytes, of a sector file of {} bytes",
        r.sector, r.slots, r.wdl_bytes, r.depth_bytes, r.database_bytes
    )
}

/// The bar of `verify` and `check`, and a log line per sector proved unless quiet.
pub struct CheckBar {
    /// The bar.
    pub bar: ProgressBar,
    quiet: bool,
}

impl CheckBar {
    /// A bar of `length` steps with the `name` of the command (`verify`, `check`).
    pub fn new(name: &str, unit: &str, length: u64, quiet: bool) -> CheckBar {
        let bar = ProgressBar::with_draw_target(Some(length), target(quiet));
        bar.set_style(style(&format!(
            "{name:<6} [{{bar:30}}] {{pos}}/{{len}}{unit} {{msg}} ({{eta}})"
        )));
        CheckBar { bar, quiet }
    }
}

impl Progress for CheckBar {
    fn phase(&self, name: &str, total: u64) {
        self.bar.set_position(0);
        self.bar.set_length(total);
        self.bar.set_message(name.to_string());
    }
    fn advance(&self, n: u64) {
        self.bar.inc(n);
    }
    fn sector_checked(
        &self,
        sector: Sector,
        positions: u64,
        children: u64,
        faults: u64,
        time: std::time::Duration,
    ) {
        if self.quiet {
            return;
        }
        let found = match faults {
            0 => "sound".to_string(),
            n => format!("{n} faults"),
        };
        let line = format!(
            "sector {sector}: {positions} positions, {children} child values in {time:.2?}, {found}"
        );
        log_above(&self.bar, &line);
    }
}

/// The bar of `tables` (slots done), and a log line per sector built unless quiet.
pub struct TablesBar {
    /// The bar.
    pub bar: ProgressBar,
    quiet: bool,
}

impl TablesBar {
    /// A bar drawn nowhere when `quiet`.
    pub fn new(quiet: bool) -> TablesBar {
        let bar = ProgressBar::with_draw_target(Some(0), target(quiet));
        bar.set_style(style(
            "tables [{bar:30}] {percent}% of {len} slots {msg} {elapsed_precise} ({eta})",
        ));
        TablesBar { bar, quiet }
    }
}

impl Progress for TablesBar {
    fn phase(&self, _name: &str, slots: u64) {
        self.bar.set_length(slots);
    }
    fn advance(&self, n: u64) {
        self.bar.inc(n);
    }
    fn tables_built(&self, r: &SectorReport) {
        self.bar.set_message(r.sector.clone());
        if self.quiet {
            return;
        }
        let how = if r.kept { "kept" } else { "built" };
        let line = format!(
            "{how} {}: {} slots, win/draw/loss {} bytes ({} model), depth {} bytes; database file {} bytes",
            r.sector, r.slots, r.wdl_bytes, r.model, r.depth_bytes, r.database_bytes
        );
        log_above(&self.bar, &line);
    }
    fn tables_replaced(&self, sector: morris::Sector, fault: &morris::Error) {
        // Said even under --quiet: a file that was there and failed its check is news.
        let line = format!("rebuilding {sector}: its tables fail their check: {fault}");
        log_above(&self.bar, &line);
    }
}
