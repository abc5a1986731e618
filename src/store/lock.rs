//! Unit locks: one process solves a work unit of a database folder at a time.

use std::fs::{self, File, OpenOptions};
use std::path::Path;

use super::write::is_temporary_of;
use crate::error::Error;
use crate::space::Sector;

/// An exclusive lock on one work unit of a database folder, held while the unit is solved:
/// a second process that reaches the unit waits for it, then finds it solved.
pub(crate) struct UnitLock {
    _file: File,
}

impl UnitLock {
    /// Takes the lock of the unit whose first sector is `first` in `dir`, waiting while
    /// another process holds it (`waiting` is called once first if it does), then removes
    /// the temporary files that killed runs left for `sectors`.
    ///
    /// # Errors
    /// `Error::Io` when the lock file cannot be created or locked.
    pub(crate) fn acquire(
        dir: &Path,
        first: Sector,
        sectors: &[Sector],
        waiting: impl FnOnce(),
    ) -> Result<UnitLock, Error> {
        let path = dir.join(format!("{first}.lock"));
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| Error::io(&path, e))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                waiting();
                file.lock().map_err(|e| Error::io(&path, e))?;
            }
            Err(fs::TryLockError::Error(e)) => return Err(Error::io(&path, e)),
        }
        // Holding the lock, nobody else writes these sectors' files or tables (a compact solve
        // turns a unit into tables under its lock): their temporary files are stale.
        let names: Vec<String> = sectors
            .iter()
            .flat_map(|s| ["sec", "wdl", "dtm"].map(|ext| format!("{s}.{ext}")))
            .collect();
        if let Ok(entries) = fs::read_dir(dir) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if names.iter().any(|n| is_temporary_of(&name, n)) {
                    let _ = fs::remove_file(e.path());
                }
            }
        }
        Ok(UnitLock { _file: file })
    }
}
