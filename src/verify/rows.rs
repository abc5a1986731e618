//! The child sectors a proof reads, and their rows: how a child's cell is found and ranked.

use std::sync::Arc;

use crate::rules::{for_each_move, play, too_few_pieces, Move, PointSet, Position};
use crate::space::{RowRank, Sector, SectorIndex};
use crate::store::{Database, Keys, Row, SectorFile};

/// A sector the proof may read (the sector proved, or one its moves lead to): its index, its
/// file and how its cells become keys.
pub(super) struct ChildSector {
    pub(super) sector: Sector,
    pub(super) index: SectorIndex,
    pub(super) file: Arc<SectorFile>,
    pub(super) keys: Keys,
}

impl ChildSector {
    /// The child sector of `sector` in `children`, if the proof may read it.
    pub(super) fn find(children: &[ChildSector], sector: Sector) -> Option<&ChildSector> {
        children.iter().find(|c| c.sector == sector)
    }
}

/// The first move of `pos` whose child has no stored value, found the plain way (its sector
/// and its slot by the index), with why: the fast path found one and the report names it.
pub(super) fn broken_child(
    db: &Database,
    pos: &Position,
    children: &[ChildSector],
) -> Option<(Move, String)> {
    let mut broken = None;
    for_each_move(db.variant(), pos, |mv| {
        let child = play(pos, mv);
        if broken.is_some() || too_few_pieces(&child) {
            return;
        }
        let s = Sector::of(&child);
        broken = match ChildSector::find(children, s) {
            None => Some((
                mv,
                format!("is in sector {s}, which the proof may not read"),
            )),
            Some(c) => {
                let slot = c.index.index(&child);
                c.file
                    .cell_unchecked(slot)
                    .is_none()
                    .then(|| (mv, format!("has no stored value (slot {slot} of {s})")))
            }
        };
    });
    broken
}

/// One row of a child sector, as the proof reads it: how opponent sets rank in it, where each
/// point lands in it, and its cells with how they become keys.
pub(super) struct ChildRow<'a> {
    pub(super) rank: RowRank<'a>,
    pub(super) places: [u8; 32],
    cells: Row<'a>,
    keys: &'a Keys,
}

impl<'a> ChildRow<'a> {
    /// The row of the positions whose mover set is `mover` in sector `s`, `None` when the
    /// proof may not read `s`.
    pub(super) fn of(
        children: &'a [ChildSector],
        s: Sector,
        mover: PointSet,
    ) -> Option<ChildRow<'a>> {
        let child = ChildSector::find(children, s)?;
        let rank = child.index.row_of(mover);
        Some(ChildRow {
            places: rank.places_of_points(),
            // Unchecked: a damaged block of any file the proof reads is reported before.
            cells: child.file.row_unchecked(rank.base(), child.index.stride()),
            keys: &child.keys,
            rank,
        })
    }

    /// The key of the child whose opponent set is `set` (its mover set is the row's).
    #[inline]
    pub(super) fn key_of_set(&self, set: PointSet) -> u32 {
        self.key_at(self.rank.slot(self.rank.map(set)) - self.rank.base())
    }

    /// The key of the cell `at` places after the row's start.
    #[inline]
    pub(super) fn key_at(&self, at: u64) -> u32 {
        self.keys.key(self.cells.code(at as usize))
    }

    /// The places in the row of the points of `set`, as bits.
    #[inline]
    pub(super) fn places_of(&self, set: PointSet) -> u32 {
        set.iter().fold(0, |x, p| x | 1 << self.places[p.index()])
    }
}
