//! Building compact tables from a solved database folder: per sector, a win/draw/loss table
//! and a depth table (`docs/tables.md`), built in parallel, resuming what is built.

#[cfg(feature = "libzstd")]
mod sector;

use std::fs;
use std::path::Path;

#[cfg(feature = "libzstd")]
pub use sector::build_sector;

use crate::error::Error;
use crate::progress::{go_on, Progress};
use crate::space::Sector;
use crate::store::{read_table_header, table_path, Database, Model, SectorValues, TableKind};

pub use crate::progress::SectorReport;

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
    progress: &dyn Progress,
) -> Result<Vec<SectorReport>, Error> {
    let sectors = db.present();
    if sectors.is_empty() {
        return Err(db.missing(Sector::start(db.variant())));
    }
    let tables = Database::tables(out, db.variant(), 0)?;
    fs::create_dir_all(tables.dir()).map_err(|e| Error::io(tables.dir(), e))?;
    remove_stale_temporaries(tables.dir());
    progress.phase("tables", sectors.iter().map(|&s| db.index(s).size()).sum());
    // Recorded first, so that an interrupted run leaves a folder that `check --tables` can
    // show incomplete.
    tables.record_planned(db.expected().into_iter())?;
    let mut reports = Vec::with_capacity(sectors.len());
    for &s in &sectors {
        go_on(progress)?;
        let report = match kept(db, &tables, s, options.wdl_only, progress)? {
            Some(report) => report,
            None => build_sector(db, s, tables.dir(), options, progress)?,
        };
        if report.kept {
            progress.advance(report.slots);
        }
        progress.tables_built(&report);
        reports.push(report);
    }
    Ok(reports)
}

/// The report of a sector whose two tables (with `wdl_only`, its win/draw/loss table at
/// least) are already built from its database file as it is now, or `None` when they must be
/// built. A rerun keeps nothing it has not checked: the files are opened as a reader opens
/// them (header, rule set, sector, slots, length, block index) and every block's checksum is
/// checked, so that a damaged, truncated, extended or swapped file is rebuilt (and reported to
/// `progress`) instead of kept.
fn kept(
    db: &Database,
    tables: &Database,
    s: Sector,
    wdl_only: bool,
    progress: &dyn Progress,
) -> Result<Option<SectorReport>, Error> {
    let file = db.sector(s)?;
    let source = file.database_checksum();
    let (wdl_path, depth_path) = (
        table_path(tables.dir(), s, TableKind::Wdl),
        table_path(tables.dir(), s, TableKind::Depth),
    );
    // Nothing built yet, or one file of the two where both are wanted: built anew.
    let (wdl_there, depth_there) = (wdl_path.exists(), depth_path.exists());
    let wanted = match wdl_only {
        true => wdl_there || depth_there,
        false => wdl_there && depth_there,
    };
    if !wanted {
        return Ok(None);
    }
    let slots = db.index(s).size();
    let checked = tables
        .open_tables(s)
        .and_then(|t| match t.faults().into_iter().next() {
            Some(fault) => Err(fault),
            None => Ok(t),
        });
    let t = match checked {
        Ok(t) => t,
        Err(fault) => {
            progress.tables_replaced(s, &fault);
            return Ok(None);
        }
    };
    // Tables sound in themselves but built from another database file: rebuilt, silently,
    // as the database changed under them.
    if t.database_checksum() != source {
        return Ok(None);
    }
    let w = read_table_header(&wdl_path)?;
    let d = match t.has_distances() {
        true => Some(read_table_header(&depth_path)?),
        false => None,
    };
    Ok(Some(SectorReport {
        sector: s.to_string(),
        slots,
        positions: w.stats.positions,
        database_bytes: fs::metadata(file.path()).map_or(0, |m| m.len()),
        wdl_bytes: w.file_len,
        depth_bytes: d.as_ref().map_or(0, |d| d.file_len),
        model: model_name(&w.model),
        wdl_checksum: w.checksum_hex(),
        depth_checksum: d.map(|d| d.checksum_hex()),
        kept: true,
    }))
}

/// Builds `sector`'s two tables: this build cannot (it decodes zstd frames with ruzstd and has
/// no encoder), so it says which build can.
///
/// # Errors
/// Always `Error::Unsupported`.
#[cfg(not(feature = "libzstd"))]
pub fn build_sector(
    _db: &Database,
    sector: Sector,
    _dir: &Path,
    _options: &Options,
    _progress: &dyn Progress,
) -> Result<SectorReport, Error> {
    Err(Error::Unsupported(format!(
        "cannot build the tables of sector {sector}: this build of morris reads tables only \
         (built without the feature `libzstd`); build them with the morris command line"
    )))
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

/// How tables are built.
#[derive(Clone, Debug)]
pub struct Options {
    /// The zstd level of win/draw/loss blocks.
    pub wdl_level: i32,
    /// The zstd level of depth blocks.
    pub depth_level: i32,
    /// Positions per win/draw/loss block, as a power of two.
    pub wdl_block_log: u32,
    /// Positions per depth block, as a power of two (at most `wdl_block_log`).
    pub depth_block_log: u32,
    /// Which win/draw/loss model to use.
    pub model: ModelChoice,
    /// Build no depth tables (a WDL-only set): a sector's win/draw/loss table alone is built,
    /// and kept where it is sound.
    pub wdl_only: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            wdl_level: 19,
            depth_level: 12,
            wdl_block_log: 15,
            depth_block_log: 13,
            model: ModelChoice::Smaller,
            wdl_only: false,
        }
    }
}

/// Which win/draw/loss model a builder uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelChoice {
    /// Per sector, whichever compresses a sample of its blocks smaller.
    Smaller,
    /// The symbols themselves.
    None,
    /// Ranks in the order of each position's context.
    Contexts,
}

/// The name of a model in reports.
pub(super) fn model_name(model: &Model) -> &'static str {
    match model {
        Model::None => "none",
        Model::Contexts(_) => "contexts",
    }
}
