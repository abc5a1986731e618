//! The space of positions: sectors and the plan of work units, the index, the schedule.

mod index;
mod reach;
mod schedule;
mod sector;

pub(crate) use index::slot_of;
pub(crate) use index::{
    next_combination, spread, Entry, ImageCounter, OneMore, RowPlaces, RowRank, Walker,
};
pub use index::{Orbits, SectorIndex};
pub use reach::{reachable, Reachable};
pub use schedule::{disk_peak, simulate, CostModel, Schedule, UnitGraph, UnitState};
pub use sector::{endgame_roots, plan, Sector, WorkUnit};
