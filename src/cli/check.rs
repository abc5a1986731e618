//! The `check` subcommand: every file's header, block table and blocks, without recomputing.

use std::process::ExitCode;

use morris::Variant;

use super::args::Source;
use super::bars::CheckBar;
use super::output::{solve_command, Failure, Out, EXIT_FAILURE};

/// `morris check`.
pub fn check(
    variant: &Variant,
    source: &Source,
    sector: Option<&str>,
    quiet: bool,
) -> Result<ExitCode, Failure> {
    let db = super::folder::files(source, variant)?;
    let sectors = super::folder::sectors_to_check(&db, sector)?;
    let bar = CheckBar::new("check", " files", sectors.len() as u64, quiet).bar;
    let (mut faults, mut blocks, mut bytes, mut files) = (0u64, 0u64, 0u64, 0u64);
    // Tables are two files a sector (win/draw/loss and depth), a database one.
    let files_of_kind = if db.is_tables() { 2 } else { 1 };
    let mut without_depths = 0u64;
    let mut lines = Vec::new();
    if let Some(line) = super::folder::planned_fault_line(&db, sector) {
        faults += 1;
        lines.push(line);
    }
    for s in &sectors {
        bar.set_message(s.to_string());
        match db.sector(*s) {
            Err(e) => {
                faults += 1;
                files += files_of_kind;
                let advice = match e.missing() {
                    Some(m) => format!(
                        " (a solve planned it, or a solved sector depends on it); solve it with `{}`",
                        solve_command(m, true)
                    ),
                    None => String::new(),
                };
                lines.push(format!("FAULT sector {s}: {e}{advice}"));
            }
            Ok(file) => {
                let (b, n) = file.sizes();
                files += file.file_count();
                without_depths += u64::from(!file.has_distances());
                blocks += b;
                bytes += n;
                for e in file.faults() {
                    faults += 1;
                    lines.push(format!("FAULT sector {s}: {e}"));
                }
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let mut out = Out::new();
    for l in &lines {
        out.line(l)?;
    }
    out.line(format_args!(
        "checked {files} files of {} sectors, {blocks} blocks, {bytes} payload bytes: {}",
        sectors.len(),
        if faults == 0 {
            "all hold".to_string()
        } else {
            format!("{faults} faults")
        }
    ))?;
    if without_depths > 0 {
        out.line(format_args!(
            "{without_depths} sectors are win/draw/loss tables without their depth files: they answer values, no distances"
        ))?;
    }
    Ok(if faults == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_FAILURE)
    })
}
