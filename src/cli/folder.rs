//! The database folder (or compact tables) a subcommand reads or writes, and the sectors it
//! looks at.

use std::path::Path;

use morris::space::Reachable;
use morris::store::READER_CACHE_BYTES;
use morris::{Database, Sector, Variant};

use super::args::Source;
use super::output::{bad_input, Failure};

/// The database of `variant` under the folder `dir` given as `--db` (see [`check_folder`]).
pub fn database(dir: &Path, variant: &Variant) -> Result<Database, Failure> {
    check_folder(dir, "--db")?;
    Ok(Database::new(dir, variant)?)
}

/// The database or tables of `variant` for answering positions: tables read block by block
/// ([`Database::tables`]), sector files mapped (each block checked when first read).
///
/// A query is the user's own short process: mapped, every 1 MiB block is checked once and then
/// read in place, where a bounded cache of blocks ([`Database::reader`], which `serve` and the
/// bindings use so that a file changed under a long-running reader cannot fault) reads and
/// checks a block again each time it was dropped, 14 times slower on random positions of nine.
pub fn reader(source: &Source, variant: &Variant) -> Result<Database, Failure> {
    match &source.tables {
        Some(dir) => {
            check_folder(dir, "--tables")?;
            Ok(Database::tables(dir, variant, READER_CACHE_BYTES)?)
        }
        None => database(&source.db, variant),
    }
}

/// The database (mapped) or tables of `variant` for reading headers and checking blocks.
pub fn files(source: &Source, variant: &Variant) -> Result<Database, Failure> {
    match &source.tables {
        Some(_) => reader(source, variant),
        None => database(&source.db, variant),
    }
}

/// The database or tables of `variant` for the proof, which reads rows of cells: mapped
/// sector files, or tables decoded sector by sector into memory ([`Database::rows`]).
pub fn prover(source: &Source, variant: &Variant) -> Result<Database, Failure> {
    match &source.tables {
        Some(dir) => {
            check_folder(dir, "--tables")?;
            // The proof reads tables decoded whole; its probes need no cache of blocks.
            Ok(Database::tables(dir, variant, 0)?)
        }
        None => database(&source.db, variant),
    }
}

/// Refuses a folder option (`--db`, `--tables`) that exists and is not a folder, at once, for
/// every command.
pub fn check_folder(dir: &Path, option: &str) -> Result<(), Failure> {
    Ok(morris::front::check_folder(dir, Some(option), false)?)
}

/// The failure of a command that found no sector of the rule set at all, with the `solve`
/// that makes some.
pub fn nothing_solved(db: &Database) -> Failure {
    bad_input(morris::front::nothing_solved(db).0)
}

/// The sectors `verify` and `check` look at: the one named, or every sector the folder should
/// hold (those its solves planned and those its files depend on), so that a file gone missing
/// is found.
///
/// # Errors
/// A malformed or impossible sector; no sector files at all (with the command that solves
/// them).
pub fn sectors_to_check(db: &Database, sector: Option<&str>) -> Result<Vec<Sector>, Failure> {
    let sectors = match sector {
        Some(text) => {
            let s: Sector = text.parse()?;
            Reachable::new(db.variant()).check_sector(s)?;
            vec![s]
        }
        None => db.expected(),
    };
    if sectors.is_empty() {
        return Err(nothing_solved(db));
    }
    Ok(sectors)
}

/// The fault line of a folder whose record of planned sectors cannot show that it is
/// complete (see [`Database::planned_fault`]), with what writes the record again; `None`
/// when the record is sound. Asked only when the whole folder is checked, not one sector.
pub fn planned_fault_line(db: &Database, sector: Option<&str>) -> Option<String> {
    if sector.is_some() {
        return None;
    }
    let fault = db.planned_fault()?;
    let advice = if db.is_tables() {
        "run `morris tables` again, which checks every table it keeps and records the plan"
    } else {
        "run the `morris solve` that made the folder again, which solves what is missing and \
         records its plan"
    };
    Some(format!("FAULT {fault}; {advice}"))
}
