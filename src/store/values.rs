//! The one interface to a solved sector's values, whatever holds them: a sector file in place
//! (mapped or in memory), a sector file read block by block, or compact tables.

use std::fmt;
use std::path::Path;

use super::codec::Cell;
use super::format::SectorStats;
use crate::error::{Damage, Error};
use crate::rules::{Outcome, Position, Value};

/// A solved sector's values, read position by position by many threads at once.
///
/// [`SectorFile`](super::SectorFile) (in place), the block reader of sector files and
/// [`SectorTables`](super::SectorTables) implement it; a database resolves each sector to one
/// of them by the files its folder holds.
pub trait SectorValues: Send + Sync + fmt::Debug {
    /// The file named for the sector (for tables, its win/draw/loss table).
    fn path(&self) -> &Path;

    /// The sector's statistics.
    fn stats(&self) -> SectorStats;

    /// The checksum of the sector file these values are (for tables: were built from).
    fn database_checksum(&self) -> u64;

    /// The cell of `slot` (`None` for an unused slot), which holds `pos` when the caller knows
    /// it (tables read a position's context from it instead of unranking the slot).
    ///
    /// # Errors
    /// `Error::Damaged` naming the file and the block when the block holding it fails its
    /// checksum or the file is shorter than its header says; `Error::NoDistance` for a win or
    /// a loss of tables held without their depth file.
    fn cell_of(&self, slot: u64, pos: Option<&Position>) -> Result<Cell, Error>;

    /// Win, draw or loss of `slot`, which holds `pos` (tables read only their win/draw/loss
    /// file).
    ///
    /// # Errors
    /// As [`SectorValues::cell_of`], but never `Error::NoDistance`; `Error::Damaged` when the
    /// slot is marked unused.
    fn outcome_of(&self, slot: u64, pos: &Position) -> Result<Outcome, Error> {
        self.cell_of(slot, Some(pos))?
            .map(Value::outcome)
            .ok_or_else(|| Error::damaged(self.path(), Damage::UnusedSlot { slot }))
    }

    /// Every damaged block, as errors naming the file and the block (every block is checked).
    fn faults(&self) -> Vec<Error>;

    /// The blocks and the bytes of values on disk (tables: both files, compressed).
    fn sizes(&self) -> (u64, u64);

    /// The files that hold the values: one sector file, or two tables (one for a sector held
    /// without its depth file).
    fn file_count(&self) -> u64 {
        1
    }

    /// Whether wins and losses carry their depth (false for win/draw/loss tables held without
    /// their depth file, whose [`SectorValues::cell_of`] refuses a win or a loss with
    /// `Error::NoDistance`).
    fn has_distances(&self) -> bool {
        true
    }
}

impl dyn SectorValues + '_ {
    /// The cell of `slot`, its position unknown (see [`SectorValues::cell_of`]).
    ///
    /// # Errors
    /// As [`SectorValues::cell_of`].
    pub fn cell(&self, slot: u64) -> Result<Cell, Error> {
        self.cell_of(slot, None)
    }
}
