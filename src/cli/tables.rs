//! `morris tables`: compact tables built from a solved database folder, with a bar, a line
//! per sector, and the sizes side by side with the database's.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use morris::tables::{build_tables, ModelChoice, Options, SectorReport};
use morris::Variant;
use serde::Serialize;

use super::args::{ModelArg, TablesArgs};
use super::bars::TablesBar;
use super::output::{bad_input, Failure, Out};

/// `tables --json`: the run's sectors and totals.
#[derive(Serialize)]
struct TablesJson<'a> {
    variant: &'a str,
    rule_set: String,
    /// Bytes of every file of each kind.
    database_bytes: u64,
    wdl_bytes: u64,
    depth_bytes: u64,
    sectors: &'a [SectorReport],
}

/// `morris tables`.
pub fn tables(variant: &Variant, args: &TablesArgs) -> Result<ExitCode, Failure> {
    let db = super::folder::database(&args.db, variant)?;
    super::folder::check_folder(&args.out, "--out")?;
    if db.present().is_empty() {
        return Err(super::folder::nothing_solved(&db));
    }
    if within(&args.out, &args.db) {
        return Err(bad_input(format!(
            "--out {} lies in the database folder --db {}: give a folder outside it (the \
             tables would be mixed with the database's subfolders)",
            args.out.display(),
            args.db.display()
        )));
    }
    let options = Options {
        wdl_level: args.wdl_level,
        depth_level: args.depth_level,
        model: match args.model {
            ModelArg::Smaller => ModelChoice::Smaller,
            ModelArg::None => ModelChoice::None,
            ModelArg::Contexts => ModelChoice::Contexts,
        },
        wdl_only: args.wdl_only,
        ..Options::default()
    };
    let pool = morris::front::thread_pool(args.threads, morris::front::Spelling::Flag)?;
    let bar = TablesBar::new(args.quiet);
    let started = Instant::now();
    let reports = pool.install(|| build_tables(&db, &args.out, &options, &bar));
    bar.bar.finish_and_clear();
    let reports = reports?;
    let total = |f: fn(&SectorReport) -> u64| reports.iter().map(f).sum::<u64>();
    let summary = TablesJson {
        variant: variant.name(),
        rule_set: variant.rules().id(),
        database_bytes: total(|r| r.database_bytes),
        wdl_bytes: total(|r| r.wdl_bytes),
        depth_bytes: total(|r| r.depth_bytes),
        sectors: &reports,
    };
    let mut out = Out::new();
    if args.json {
        out.line(morris::query::wire::json(&summary))?;
        return Ok(ExitCode::SUCCESS);
    }
    let positions = total(|r| r.positions).max(1) as f64;
    let bits = |bytes: u64| 8.0 * bytes as f64 / positions;
    out.line(format_args!(
        "tables of {} sectors in {} ({:.1?}): win/draw/loss {} bytes ({:.3} bits per position), depth {} bytes ({:.3}); database {} bytes",
        reports.len(),
        args.out.display(),
        started.elapsed(),
        summary.wdl_bytes,
        bits(summary.wdl_bytes),
        summary.depth_bytes,
        bits(summary.depth_bytes),
        summary.database_bytes,
    ))?;
    Ok(ExitCode::SUCCESS)
}

/// Whether `path` is `folder` or lies inside it, links resolved. `path` need not exist yet:
/// its nearest existing ancestor is resolved and the rest appended.
fn within(path: &Path, folder: &Path) -> bool {
    let Ok(folder) = folder.canonicalize() else {
        return false;
    };
    let mut rest = Vec::new();
    let mut at = path;
    loop {
        if let Ok(real) = at.canonicalize() {
            let full = rest.iter().rev().fold(real, |p: PathBuf, c| p.join(c));
            return full.starts_with(&folder);
        }
        match (at.parent(), at.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                at = if parent.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    parent
                };
            }
            _ => return false,
        }
    }
}
