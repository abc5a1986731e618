//! Building compact tables from a solved database folder: per sector, a win/draw/loss table
//! and a depth table (`docs/tables.md`), built in parallel, resuming what is built.

mod sector;

use std::fs;
use std::path::Path;
use std::sync::Arc;

use serde::Serialize;

pub use sector::{build_sector, ModelChoice, Options};

use crate::error::Error;
use crate::space::Sector;
use crate::store::{read_table_header, table_path, BlockCache, Database, SectorFile, TableKind};

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
    /// A sector's tables were found and failed their check (`fault`): they are rebuilt.
    fn replaced(&self, _sector: Sector, _fault: &Error) {}
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
    // Recorded first, so that an interrupted run leaves a folder that `check --tables` can
    // show incomplete.
    tables.record_planned(db.expected().into_iter())?;
    let mut reports = Vec::with_capacity(sectors.len());
    for &s in &sectors {
        let report = match kept(db, &tables, s, progress)? {
            Some(report) => report,
            None => build_sector(db, s, tables.dir(), options, progress)?,
        };
        if report.kept {
            progress.advance(report.slots);
        }
        progress.built(&report);
        reports.push(report);
    }
    Ok(reports)
}

/// The report of a sector whose two tables are already built from its database file as it
/// is now, or `None` when they must be built. A rerun keeps nothing it has not checked: both
/// files are opened as a reader opens them (header, rule set, sector, slots, length, block
/// index) and every block's checksum is checked, so that a damaged, truncated, extended or
/// swapped file is rebuilt (and reported to `progress`) instead of kept.
fn kept(
    db: &Database,
    tables: &Database,
    s: Sector,
    progress: &dyn TablesProgress,
) -> Result<Option<SectorReport>, Error> {
    let file = db.sector(s)?;
    let source = file.header().checksum;
    let (wdl_path, depth_path) = (
        table_path(tables.dir(), s, TableKind::Wdl),
        table_path(tables.dir(), s, TableKind::Depth),
    );
    if !wdl_path.exists() && !depth_path.exists() {
        return Ok(None);
    }
    let slots = db.index(s).size();
    let checked = SectorFile::open_tables(
        tables.dir(),
        db.variant(),
        db.index(s),
        Arc::new(BlockCache::new(0)),
        false,
    )
    .and_then(|t| match t.faults().into_iter().next() {
        Some(fault) => Err(fault),
        None => Ok(t),
    });
    let t = match checked {
        Ok(t) => t,
        Err(fault) => {
            progress.replaced(s, &fault);
            return Ok(None);
        }
    };
    // Tables sound in themselves but built from another database file: rebuilt, silently,
    // as the database changed under them.
    if t.header().checksum != source {
        return Ok(None);
    }
    let (w, d) = (
        read_table_header(&wdl_path)?,
        read_table_header(&depth_path)?,
    );
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
