//! `morris verify`: the proof of a database, with a line per fault and advice for missing files.

use std::process::ExitCode;

use morris::verify::verify_with;
use morris::Variant;

use super::args::VerifyArgs;
use super::bars::CheckBar;
use super::output::{bad_input, solve_command, Failure, Out, EXIT_FAILURE};

/// Refuses a proof that would read tables held without their depth files: the proof checks
/// every depth against the moves', so values alone prove nothing (`check` checks their blocks).
fn refuse_without_depths(
    db: &morris::store::Database,
    sectors: &[morris::Sector],
) -> Result<(), Failure> {
    let bare = morris::verify::without_depths(db, sectors);
    let Some(first) = bare.first() else {
        return Ok(());
    };
    Err(bad_input(format!(
        "{}: {} of the sectors this proof reads ({first}{}) are win/draw/loss tables without \
         their depth files, and the proof checks every depth; verify the database they were \
         built from, or build the whole tables with `morris tables` (without --wdl-only); \
         `morris check` checks their blocks",
        db.dir().display(),
        bare.len(),
        if bare.len() > 1 { ", ..." } else { "" },
    )))
}

/// `morris verify`.
pub fn verify(variant: &Variant, args: &VerifyArgs) -> Result<ExitCode, Failure> {
    let db = super::folder::prover(&args.source, variant)?;
    let sectors = super::folder::sectors_to_check(&db, args.sector.as_deref())?;
    refuse_without_depths(&db, &sectors)?;
    let bar = CheckBar::new("verify", "", 0, args.quiet);
    let report = verify_with(&db, &sectors, args.max_faults, args.resume, &bar);
    bar.bar.finish_and_clear();
    let mut out = Out::new();
    let record = super::folder::planned_fault_line(&db, args.sector.as_deref());
    if let Some(line) = &record {
        out.line(line)?;
    }
    let fault_count = report.fault_count + u64::from(record.is_some());
    for f in &report.faults {
        out.line(format_args!("FAULT {f}"))?;
    }
    if report.fault_count > report.faults.len() as u64 {
        out.line(format_args!(
            "... and {} more faults",
            report.fault_count - report.faults.len() as u64
        ))?;
    }
    if !report.by_sector.is_empty() {
        let counts: Vec<String> = report
            .by_sector
            .iter()
            .map(|(s, n)| format!("{s} {n}"))
            .collect();
        out.line(format_args!(
            "faults by sector, dependencies first: {}",
            counts.join(", ")
        ))?;
    }
    let mut missing: Vec<_> = report.faults.iter().filter_map(|f| f.missing).collect();
    missing.sort();
    missing.dedup();
    for s in missing {
        let m = db.missing(s);
        if let Some(m) = m.missing() {
            out.line(format_args!(
                "sector {s} is missing; solve it with `{}`",
                solve_command(m, true)
            ))?;
        }
    }
    if report.skipped > 0 {
        out.line(format_args!(
            "{} sectors proved before (their proof records match the files) were not recomputed",
            report.skipped
        ))?;
    }
    out.line(format_args!(
        "checked {} sectors, {} positions, {} child values: {}",
        report.sectors,
        report.positions,
        report.children,
        if fault_count == 0 {
            "all hold".to_string()
        } else {
            format!("{fault_count} faults")
        }
    ))?;
    Ok(if fault_count == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_FAILURE)
    })
}
