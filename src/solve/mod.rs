//! Parallel retrograde analysis of work units, writing one sector file per sector.
//!
//! Each position of a cyclic unit holds a 16-bit state, which while the position is unresolved
//! counts its children inside the unit not yet known to win, and 8 bits of the deepest
//! winning child outside (3 bytes; a forward unit needs only the state). Children in solved
//! sectors are read from their files once, when
//! the unit is initialised. Then levels 0, 1, 2, ... are resolved in order: a position pending
//! at level `d` becomes final, and its predecessors (from un-moves) learn of it: a loss at `d`
//! makes them wins at `d + 1`; a win decrements their counters, and a counter reaching zero
//! makes a loss at one more than the deepest child. Wins come out shortest, losses longest;
//! what never resolves is a draw.

use std::time::Instant;

use crate::error::Error;
use crate::progress::{go_on, Progress, UnitTimes};
use crate::rules::{Position, Value};
use crate::space::{plan, CostModel, Schedule, Sector, UnitGraph, WorkUnit};
use crate::store::{table_path, Database, TableKind, UnitLock};
pub use working::working_bytes;
use working::WorkingUnit;
use write::{fs_create_dir, write_part};

mod compact;
mod init;
mod levels;
mod placement;
mod working;
mod write;

/// How a solve checks and stores what it solves.
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// Prove each unit right after writing it (`solve --verify`): a fault stops the run
    /// (`Error::Unsound`).
    pub verify: bool,
    /// Turn each unit's sectors into their tables, built with these options, as soon as every
    /// unit that reads them is solved, and remove their sector files (`solve --compact`): the
    /// disk holds the tables and only the files a unit still reads, and the finished folder
    /// is a tables folder.
    pub compact: Option<crate::tables::Options>,
}

/// Solves one work unit (its dependencies must be solved in `db`) and writes its sector files.
///
/// # Errors
/// A missing or damaged dependency, a write failure, or a limit of the working state.
pub fn solve_unit(
    db: &Database,
    unit: &WorkUnit,
    progress: &dyn Progress,
) -> Result<UnitTimes, Error> {
    solve_unit_listing(db, unit, progress, None)
}

/// [`solve_unit`], its levels listing the positions they make pending or scanning for them
/// as `listing` says, or as the unit's size decides when `None` (the tests force both ways).
fn solve_unit_listing(
    db: &Database,
    unit: &WorkUnit,
    progress: &dyn Progress,
    listing: Option<bool>,
) -> Result<UnitTimes, Error> {
    let mut times = UnitTimes::default();
    let mut clock = Instant::now();
    let mut u = WorkingUnit::new(db, unit)?;
    if let Some(listing) = listing {
        u.listing = listing;
    }
    let total: u64 = unit.sectors.iter().map(|&s| db.index(s).size()).sum();
    u.init_all(unit, progress, true);
    u.take_error()?;
    go_on(progress)?;
    times.slots = total;
    times.init = clock.elapsed();
    clock = Instant::now();

    if unit.cyclic {
        times.levels = u.run_levels(progress)?;
    }

    times.retrograde = clock.elapsed();
    clock = Instant::now();
    go_on(progress)?;
    progress.phase("writing", total);
    for part in u.parts {
        write_part(db, &part.for_writing(db)?, progress)?;
    }
    db.forget();
    times.write = clock.elapsed();
    Ok(times)
}

/// Whether a sector is solved: `Ok(false)` when its file is absent.
///
/// # Errors
/// A file that is present but damaged, or holds another variant, rule set or sector: it is
/// reported, never silently replaced.
pub fn is_solved(db: &Database, sector: Sector) -> Result<bool, Error> {
    match db.sector(sector) {
        Ok(_) => Ok(true),
        Err(Error::Missing { .. }) => Ok(false),
        Err(e) => Err(e),
    }
}

/// Whether every sector of `unit` is solved.
///
/// # Errors
/// As [`is_solved`].
pub fn unit_done(db: &Database, unit: &WorkUnit) -> Result<bool, Error> {
    let mut done = true;
    for &s in &unit.sectors {
        done &= is_solved(db, s)?;
    }
    Ok(done)
}

/// The modelled cost of each unit of a plan, which orders the [`Schedule`].
pub fn unit_costs(db: &Database, units: &[WorkUnit]) -> Vec<f64> {
    CostModel::reference().costs(db.variant(), units, |s| db.index(s).size())
}

/// Solves `unit` (its dependencies solved) under its lock, unless another process solved it
/// while this one waited for the lock: then `Ok(None)`.
///
/// # Errors
/// As [`solve_unit`] and [`is_solved`], and `Error::Io` when the lock cannot be taken.
pub(crate) fn solve_locked(
    db: &Database,
    unit: &WorkUnit,
    progress: &dyn Progress,
    verify: bool,
) -> Result<Option<UnitTimes>, Error> {
    let _lock = UnitLock::acquire(db.dir(), unit.sectors[0], &unit.sectors, || {
        progress.waiting(unit)
    })?;
    // Another process may have solved it while this one waited.
    db.forget();
    if unit_done(db, unit)? {
        return Ok(None);
    }
    let mut times = solve_unit(db, unit, progress)?;
    if verify {
        let clock = Instant::now();
        prove_unit(db, unit, progress)?;
        times.verify = clock.elapsed();
    }
    Ok(Some(times))
}

/// Whether `unit` is solved and sound: every file present, its header and every block checked.
/// A damaged file (its header, block table or a block fails its checksum) is moved aside as
/// `*.sec.damaged` and reported, so that the unit is solved again (its dependencies come first
/// in any plan, checked alike); a missing file means the unit is not solved.
///
/// # Errors
/// A foreign or old-format file, which is never replaced, and I/O errors.
pub(crate) fn triage(
    db: &Database,
    unit: &WorkUnit,
    progress: &dyn Progress,
) -> Result<bool, Error> {
    let mut done = true;
    for &s in &unit.sectors {
        let damage = match db.sector(s) {
            Ok(values) => values.faults().into_iter().next(),
            Err(Error::Missing(_)) => {
                done = false;
                continue;
            }
            Err(e @ Error::Damaged { .. }) => Some(e),
            Err(e) => return Err(e),
        };
        if let Some(e) = damage {
            db.forget();
            // The sector file, or else the tables a compact solve turned it into.
            let file = db.path(s);
            let files = if file.exists() {
                vec![file]
            } else {
                [TableKind::Wdl, TableKind::Depth]
                    .map(|k| table_path(db.dir(), s, k))
                    .into()
            };
            let mut names = Vec::new();
            for path in files {
                let name = path.file_name().unwrap_or_default().to_string_lossy();
                let name = format!("{name}.damaged");
                let aside = path.with_file_name(&name);
                names.push(name);
                match std::fs::rename(&path, &aside) {
                    // Another process moved it aside first.
                    Err(io) if io.kind() != std::io::ErrorKind::NotFound => {
                        return Err(Error::io(&path, io))
                    }
                    _ => {}
                }
            }
            progress.damaged(s, &format!("{e}; moved aside as {}", names.join(" and ")));
            done = false;
        }
    }
    db.forget();
    Ok(done)
}

/// Proves a unit just written (its children are still in the page cache) with
/// [`crate::verify::verify_with`], recording each sector's proof as `verify --resume` does, so
/// that a later `verify --resume` does not prove it again; on a fault its files are renamed
/// `*.unsound`, so that no later unit or run reads them, and the fault is the error.
fn prove_unit(db: &Database, unit: &WorkUnit, progress: &dyn Progress) -> Result<(), Error> {
    let report = crate::verify::verify_with(db, &unit.sectors, 1, true, progress);
    db.forget();
    let Some(first) = report.faults.first() else {
        return Ok(());
    };
    for &s in &unit.sectors {
        let path = db.path(s);
        let aside = path.with_extension("sec.unsound");
        std::fs::rename(&path, &aside).map_err(|e| Error::io(&path, e))?;
    }
    Err(Error::Unsound {
        unit: unit.sectors.clone(),
        count: report.fault_count,
        first: first.to_string(),
    })
}

/// Solves every work unit needed for `roots` (dependencies first), skipping units whose files
/// are already complete and valid. Returns how many units were solved now.
///
/// Units are taken in the order of a [`Schedule`] (the ready unit with the costliest chain
/// of work behind it first), the order an MPI run's rank 0 hands them out in. Each unit is
/// solved under an exclusive lock (a `.lock` file per unit), so several processes may solve one folder
/// together: one that reaches a unit another is solving waits for it and then skips it.
///
/// Before solving, every file of the plan is checked (its header and every block): a damaged
/// one is moved aside as `*.sec.damaged` and its unit solved again (reported through
/// [`Progress::damaged`]), so that a run never reports a damaged folder as complete.
///
/// # Errors
/// As [`solve_unit`] and [`is_solved`]: a foreign file (another variant, rule set or format)
/// stops the run untouched.
pub fn solve(db: &Database, roots: &[Sector], progress: &dyn Progress) -> Result<usize, Error> {
    solve_units(
        db,
        &plan(db.variant(), roots),
        progress,
        &SolveOptions::default(),
    )
}

/// [`solve`] for the units of a plan (as [`plan`] makes it: dependencies first), checked and
/// stored as `options` say.
///
/// # Errors
/// As [`solve`], `Error::Unsound` (with `verify`), and a failing tables build (with
/// `compact`).
pub fn solve_units(
    db: &Database,
    units: &[WorkUnit],
    progress: &dyn Progress,
    options: &SolveOptions,
) -> Result<usize, Error> {
    fs_create_dir(db)?;
    db.record_planned(units.iter().flat_map(|u| u.sectors.iter().copied()))?;
    let graph = UnitGraph::new(db.variant(), units);
    let mut schedule = Schedule::new(&graph, &unit_costs(db, units));
    let mut number = 0;
    for (i, unit) in units.iter().enumerate() {
        if triage(db, unit, progress)? {
            progress.unit(unit, number, units.len(), true);
            number += 1;
            schedule.done(i);
        }
    }
    db.forget();
    // A run stopped between a unit and its turning leaves units to turn.
    turn_after(db, units, &graph, 0..units.len(), options, progress)?;
    let mut solved = 0;
    while let Some(i) = schedule.next_unit() {
        go_on(progress)?;
        let unit = &units[i];
        progress.unit(unit, number, units.len(), false);
        number += 1;
        if let Some(times) = solve_locked(db, unit, progress, options.verify)? {
            solved += 1;
            progress.unit_solved(unit, &times);
        }
        schedule.done(i);
        turn_after(db, units, &graph, [i], options, progress)?;
    }
    debug_assert!(schedule.is_finished());
    Ok(solved)
}

/// With `options.compact`, turns into tables the units that `solved` and the units they read
/// may have released: those whose readers are all solved now.
///
/// # Errors
/// As [`compact::turn_ready`].
pub(crate) fn turn_after(
    db: &Database,
    units: &[WorkUnit],
    graph: &UnitGraph,
    solved: impl IntoIterator<Item = usize>,
    options: &SolveOptions,
    progress: &dyn Progress,
) -> Result<usize, Error> {
    let Some(tables) = &options.compact else {
        return Ok(0);
    };
    let mut candidates: Vec<usize> = Vec::new();
    for i in solved {
        candidates.extend(graph.dependencies(i));
        candidates.push(i);
    }
    candidates.sort_unstable();
    candidates.dedup();
    compact::turn_ready(db, units, graph, candidates, tables, progress)
}

/// The value of the start position, if its sector is solved.
pub fn start_value(db: &Database) -> Option<Value> {
    db.probe(&Position::start(db.variant())).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Silent;
    use crate::rules::Variant;
    use crate::store::{encode_cell, write_sector};

    /// Scanning for the positions a level makes pending, as large units do, writes the same
    /// files as listing them, as small units do: here for every unit of six, twins and units
    /// that are their own twin, each solved both ways and compared byte for byte.
    #[test]
    fn scanning_and_listing_write_the_same_files() {
        let variant = Variant::by_name("six").unwrap();
        let base = std::env::temp_dir().join(format!("morris-listing-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let dbs = [true, false].map(|listing| {
            let db = Database::new(&base.join(listing.to_string()), &variant).unwrap();
            for unit in plan(&variant, &[Sector::start(&variant)]) {
                solve_unit_listing(&db, &unit, &Silent, Some(listing)).unwrap();
            }
            db
        });
        let mut compared = 0;
        for unit in plan(&variant, &[Sector::start(&variant)]) {
            for &s in &unit.sectors {
                let [a, b] = [&dbs[0], &dbs[1]].map(|db| std::fs::read(db.path(s)).unwrap());
                assert!(a == b, "{s}: the files differ");
                compared += unit.cyclic as usize;
            }
        }
        assert!(compared > 10, "{compared} sectors of cyclic units");
        std::fs::remove_dir_all(&base).unwrap();
    }

    /// A unit whose files are wrong (here one win made a loss, written with sound checksums,
    /// as a solver bug would write it) fails the proof that `solve --verify` runs: the error
    /// names the unit, and its files are moved aside so that no later unit reads them.
    #[test]
    fn an_unsound_unit_stops_the_run_and_is_moved_aside() {
        let variant = Variant::by_name("nine").unwrap();
        let dir = std::env::temp_dir().join(format!("morris-unsound-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let db = Database::new(&dir, &variant).unwrap();
        let s: Sector = "3-3-0-0".parse().unwrap();
        let units = plan(&variant, &[s]);
        let verify = SolveOptions {
            verify: true,
            ..SolveOptions::default()
        };
        assert_eq!(solve_units(&db, &units, &Silent, &verify).unwrap(), 1);
        let file = db.rows(s).unwrap();
        let slots = file.header().slots;
        let wrong = (0..slots)
            .find(|&i| matches!(file.cell(i).unwrap(), Some(Value::Win(_))))
            .unwrap();
        let mut header = file.header().clone();
        let cells: Vec<crate::store::Cell> = (0..slots).map(|i| file.cell(i).unwrap()).collect();
        drop(file);
        db.forget();
        let w = header.cell_width as usize;
        write_sector(&db.path(s), &mut header, |a, _, out| {
            for (j, cell) in out.chunks_exact_mut(w).enumerate() {
                let i = a + j as u64;
                let value = if i == wrong {
                    Some(Value::Loss(2))
                } else {
                    cells[i as usize]
                };
                encode_cell(value, cell);
            }
        })
        .unwrap();
        db.forget();
        match prove_unit(&db, &units[0], &Silent) {
            Err(Error::Unsound { unit, count, first }) => {
                assert_eq!(unit, vec![s]);
                assert!(count >= 1);
                assert!(
                    first.contains(&format!("slot {wrong}: stored loss in 2")),
                    "{first}"
                );
            }
            other => panic!("{other:?}"),
        }
        assert!(!db.path(s).exists());
        assert!(db.path(s).with_extension("sec.unsound").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
