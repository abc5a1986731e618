//! The database folder a subcommand reads or writes, and the sectors it looks at.

use std::path::Path;

use morris::space::Reachable;
use morris::store::READER_CACHE_BYTES;
use morris::{Database, Sector, Variant};

use super::output::{bad_input, solve_command, Failure};

/// The database of `variant` under the folder `dir` given as `--db` (see [`check_folder`]).
pub fn database(dir: &Path, variant: &Variant) -> Result<Database, Failure> {
    check_folder(dir)?;
    Ok(Database::new(dir, variant)?)
}

/// The database of `variant` under `dir` for answering positions: read block by block
/// ([`Database::reader`]), like every long-running reader.
pub fn reader(dir: &Path, variant: &Variant) -> Result<Database, Failure> {
    check_folder(dir)?;
    Ok(Database::reader(dir, variant, READER_CACHE_BYTES)?)
}

/// Refuses a `--db` that exists and is not a folder, at once, for every command.
pub fn check_folder(dir: &Path) -> Result<(), Failure> {
    match std::fs::metadata(dir) {
        Ok(meta) if !meta.is_dir() => Err(bad_input(format!(
            "--db {}: not a folder (a database is a folder with a subfolder per variant and rule set)",
            dir.display()
        ))),
        _ => Ok(()),
    }
}

/// The failure of a command that found no sector of the rule set at all, with the `solve`
/// that makes some.
pub fn nothing_solved(db: &Database) -> Failure {
    let missing = db.missing(Sector::start(db.variant()));
    let command = match missing.missing() {
        Some(m) => solve_command(m, false),
        None => unreachable!("a missing sector's error says what is missing"),
    };
    bad_input(format!(
        "no solved sectors of {} in {}; run `{command}`",
        db.variant().name(),
        db.dir().display()
    ))
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
