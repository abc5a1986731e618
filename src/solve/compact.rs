//! Compact solving: each unit's sectors are turned into their tables (`docs/tables.md`) in the
//! database folder as soon as every unit that reads them is solved, and their sector files
//! removed, so that the disk holds the tables plus only the files some unit still reads.
//!
//! Units read their children from sector files, mapped, as a plain solve does: a sector is
//! turned only once no unit of the plan still needs it. Turning is safe to interrupt and to
//! share: it runs under the unit's lock, after every reader's lock has been free once (so no
//! proof of a reader still reads the files), builds each table whole under a temporary name
//! before the sector file goes, and is deterministic, so a rerun builds the same bytes.

use std::time::Instant;

use super::unit_done;
use crate::error::Error;
use crate::progress::{go_on, Progress};
use crate::space::{UnitGraph, WorkUnit};
use crate::store::{Database, UnitLock};
use crate::tables::{build_sector, Options};

/// Turns into tables every unit among `candidates` whose readers in `graph` are all solved
/// and which still has a sector file. Returns how many sectors were turned now.
///
/// # Errors
/// A damaged sector file, a failing write, a lock that cannot be taken, or cancellation.
pub(super) fn turn_ready(
    db: &Database,
    units: &[WorkUnit],
    graph: &UnitGraph,
    candidates: impl IntoIterator<Item = usize>,
    options: &Options,
    progress: &dyn Progress,
) -> Result<usize, Error> {
    let mut turned = 0;
    for c in candidates {
        turned += turn_unit(db, units, graph, c, options, progress)?;
    }
    Ok(turned)
}

/// Turns unit `c` into tables when every unit that reads it is solved.
fn turn_unit(
    db: &Database,
    units: &[WorkUnit],
    graph: &UnitGraph,
    c: usize,
    options: &Options,
    progress: &dyn Progress,
) -> Result<usize, Error> {
    let unit = &units[c];
    if !unit.sectors.iter().any(|&s| db.path(s).exists()) {
        return Ok(0);
    }
    for &r in graph.dependents(c) {
        if !unit_done(db, &units[r])? {
            return Ok(0);
        }
    }
    // A reader solved by another process may still be proved there (`--verify`), under its
    // lock: wait until each lock has been free once.
    for &r in graph.dependents(c) {
        let reader = &units[r];
        drop(UnitLock::acquire(
            db.dir(),
            reader.sectors[0],
            &reader.sectors,
            || progress.waiting(reader),
        )?);
    }
    let _lock = UnitLock::acquire(db.dir(), unit.sectors[0], &unit.sectors, || {
        progress.waiting(unit)
    })?;
    db.forget();
    let mut turned = 0;
    for &s in &unit.sectors {
        let file = db.path(s);
        if !file.exists() {
            continue;
        }
        go_on(progress)?;
        let clock = Instant::now();
        // Tables left by a run killed before it removed the file are built again: the build
        // is deterministic, and a half-checked kept table is not worth the risk.
        let report = build_sector(db, s, db.dir(), options, progress)?;
        db.forget();
        std::fs::remove_file(&file).map_err(|e| Error::io(&file, e))?;
        progress.sector_turned(&report, clock.elapsed());
        turned += 1;
    }
    Ok(turned)
}
