//! `morris stats`: every solved sector's counts, from the file headers.

use std::process::ExitCode;

use morris::nmove::{Keep, RuleAnalysis, RuleCounts, RuleValue};
use morris::query::depths::{self as histogram, Depths};
use morris::query::wire::{self, StatsJson};
use morris::{SectorStats, Variant};

use super::args::Source;
use super::output::{describe_outcome, describe_start, Failure, Out};

/// `morris stats`.
pub fn stats(variant: &Variant, source: &Source, json: bool) -> Result<ExitCode, Failure> {
    let db = super::folder::files(source, variant)?;
    if db.present().is_empty() {
        return Err(super::folder::nothing_solved(&db));
    }
    let mut out = Out::new();
    if json {
        out.line(wire::json(&StatsJson::read(&db)?))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut rows = Vec::new();
    for s in db.present() {
        rows.push((s.to_string(), db.sector(s)?.stats()));
    }
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
    for (name, stats) in &rows {
        row(&mut out, name, stats)?;
    }
    let total = rows
        .iter()
        .fold(SectorStats::default(), |t, r| t.merge(r.1));
    row(&mut out, "total", &total)?;
    let start = morris::Position::start(variant);
    let said = match db.probe(&start) {
        Ok(v) => describe_start(v),
        Err(morris::Error::NoDistance { .. }) => match db.probe_outcome(&start) {
            Ok(o) => format!(
                "{} (these tables hold no depth file for it)",
                describe_outcome(o)
            ),
            Err(_) => "not solved".into(),
        },
        Err(_) => "not solved".into(),
    };
    out.line(format_args!("start position: {said}"))?;
    Ok(ExitCode::SUCCESS)
}

/// `morris stats --depths`: the depth histogram of every solved sector together, as
/// `scripts/depths.py` prints a database folder's (one header line, then `depth value positions`
/// rows by depth, draws last), read from a database or from tables alike.
pub fn depths(variant: &Variant, source: &Source, quiet: bool) -> Result<ExitCode, Failure> {
    let db = super::folder::files(source, variant)?;
    let sectors = db.present();
    if sectors.is_empty() {
        return Err(super::folder::nothing_solved(&db));
    }
    let slots: u64 = sectors.iter().map(|&s| db.index(s).size()).sum();
    let bar = super::bars::CheckBar::new("depths", " slots", slots, quiet).bar;
    let mut whole = Depths::default();
    for &s in &sectors {
        bar.set_message(s.to_string());
        whole = whole.merge(histogram::depths(&db, s)?);
        bar.inc(db.index(s).size());
    }
    bar.finish_and_clear();
    let mut out = Out::new();
    out.line(format_args!(
        "# {}: canonical positions by value for the side to move, {} sectors",
        morris::store::rule_set_folder(variant),
        sectors.len()
    ))?;
    out.line("depth\tvalue\tpositions")?;
    for depth in 0..whole.win.len().max(whole.loss.len()) {
        for (value, counts) in [("win", &whole.win), ("loss", &whole.loss)] {
            match counts.get(depth) {
                Some(&n) if n > 0 => out.line(format_args!("{depth}\t{value}\t{n}"))?,
                _ => {}
            }
        }
    }
    out.line(format_args!("-\tdraw\t{}", whole.draw))?;
    Ok(ExitCode::SUCCESS)
}

/// `morris stats --n-move-rule N`: every sector's positions by rule value (win, cursed win,
/// draw, blessed loss, loss) for a fresh counter, tab-separated, one header line, then a row
/// per sector held and the total.
pub fn rule_values(
    variant: &Variant,
    source: &Source,
    n: u16,
    quiet: bool,
) -> Result<ExitCode, Failure> {
    let db = super::folder::files(source, variant)?;
    let sectors = db.present();
    if sectors.is_empty() {
        return Err(super::folder::nothing_solved(&db));
    }
    let bar = super::bars::CheckBar::new("rule", " slots", 0, quiet);
    let analysis = RuleAnalysis::run(&db, n, &sectors, Keep::Counts, &bar)?;
    bar.bar.finish_and_clear();
    let mut out = Out::new();
    out.line(format_args!(
        "# {}: canonical positions by value under the {n}-move rule (plies without a removal), for a fresh counter, {} sectors",
        morris::store::rule_set_folder(variant),
        sectors.len()
    ))?;
    let names: Vec<&str> = RuleValue::ALL.iter().map(|v| v.name()).collect();
    out.line(format_args!("sector\tpositions\t{}", names.join("\t")))?;
    let row = |out: &mut Out, name: &str, c: &RuleCounts| {
        let counts: Vec<String> = c.positions.iter().map(u64::to_string).collect();
        let all: u64 = c.positions.iter().sum();
        out.line(format_args!("{name}\t{all}\t{}", counts.join("\t")))
    };
    for &s in &sectors {
        row(
            &mut out,
            &s.to_string(),
            &analysis.counts(s).unwrap_or_default(),
        )?;
    }
    row(&mut out, "total", &analysis.total())?;
    Ok(ExitCode::SUCCESS)
}
