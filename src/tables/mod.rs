//! Building compact tables from a solved database folder: per sector, a win/draw/loss table
//! and a depth table ([`crate::store::TableFile`], `docs/tables.md`), built in parallel,
//! resuming what is built.

mod sector;

use std::fs;
use std::path::Path;

use serde::Serialize;

pub use sector::{build_sector, ModelChoice, Options};

use crate::error::Error;
use crate::space::Sector;
use crate::store::{read_table_header, table_path, Database, TableKind};

/// What building one sector's tables came to.
#[derive(Clone, Debug, Serialize)]
pub struct SectorReport {
    /// The sector, `W-B-WF-BF`.
    pub sector: String,
    /// Index slots.
    pub slots: u64,
    /// Positions (used slots).
    pub positions: u64,
    /// Bytes of the database's sector file.
    pub database_bytes: u64,
    /// Bytes of the win/draw/loss table.
    pub wdl_bytes: u64,
    /// Bytes of the depth table.
    pub depth_bytes: u64,
    /// The win/draw/loss model chosen: `none` or `contexts`.
    pub model: &'static str,
    /// The header checksums of the two files (16 hex digits each).
    pub wdl_checksum: String,
    /// See `wdl_checksum`.
    pub depth_checksum: String,
    /// Whether the tables were already built from the same database file (not rebuilt).
    pub kept: bool,
}

/// Receives the builder's progress; the command line draws a bar from it.
pub trait TablesProgress: Sync {
    /// Building begins: `slots` index slots in all.
    fn begin(&self, _slots: u64) {}
    /// `n` more slots are done.
    fn advance(&self, _n: u64) {}
    /// A sector's tables are built (or were found built).
    fn built(&self, _report: &SectorReport) {}
}

/// Reports nothing.
impl TablesProgress for crate::Silent {}

/// Builds the tables of every solved sector of `db` into the folder `out` (a subfolder per
/// rule set, as in the database), keeping tables already built from the same database
/// files, and records the sectors in the tables' folder so that `check --tables` can tell
/// one gone missing. Uses the current rayon pool.
///
/// # Errors
/// `Error::Missing` when `db` holds no solved sector; a damaged database file; `Error::Io`.
pub fn build_tables(
    db: &Database,
    out: &Path,
    options: &Options,
    progress: &dyn TablesProgress,
) -> Result<Vec<SectorReport>, Error> {
    let sectors = db.present();
    if sectors.is_empty() {
        return Err(db.missing(Sector::start(db.variant())));
    }
    let tables = Database::tables(out, db.variant(), 0)?;
    fs::create_dir_all(tables.dir()).map_err(|e| Error::io(tables.dir(), e))?;
    remove_stale_temporaries(tables.dir());
    progress.begin(sectors.iter().map(|&s| db.index(s).size()).sum());
    let mut reports = Vec::with_capacity(sectors.len());
    for &s in &sectors {
        let report = match kept(db, &tables, s)? {
            Some(report) => report,
            None => build_sector(db, s, tables.dir(), options, progress)?,
        };
        if report.kept {
            progress.advance(report.slots);
        }
        progress.built(&report);
        reports.push(report);
    }
    tables.record_planned(db.expected().into_iter())?;
    Ok(reports)
}

/// The report of a sector whose two tables are already built from its database file as it
/// is now (their headers checked; `check --tables` checks their blocks), or `None`.
fn kept(db: &Database, tables: &Database, s: Sector) -> Result<Option<SectorReport>, Error> {
    let file = db.sector(s)?;
    let source = file.header().checksum;
    let header = |kind| read_table_header(&table_path(tables.dir(), s, kind)).ok();
    let (Some(w), Some(d)) = (header(TableKind::Wdl), header(TableKind::Depth)) else {
        return Ok(None);
    };
    let slots = db.index(s).size();
    let fits = |h: &crate::store::TableHeader| {
        h.source_checksum == source && h.slots == slots && h.sector == s
    };
    if !fits(&w) || !fits(&d) {
        return Ok(None);
    }
    Ok(Some(SectorReport {
        sector: s.to_string(),
        slots,
        positions: w.stats.positions,
        database_bytes: fs::metadata(file.path()).map_or(0, |m| m.len()),
        wdl_bytes: w.file_len,
        depth_bytes: d.file_len,
        model: sector::model_name(&w.model),
        wdl_checksum: w.checksum_hex(),
        depth_checksum: d.checksum_hex(),
        kept: true,
    }))
}

/// Removes temporary table files left by an interrupted run (`SECTOR.wdl.PID-N.tmp`).
fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let table = name.contains(".wdl.") || name.contains(".dtm.");
        if table && name.ends_with(".tmp") {
            let _ = fs::remove_file(e.path());
        }
    }
}
