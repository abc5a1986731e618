//! The working state of a work unit being solved: a 16-bit state per position of each of its
//! sectors (with the counter of its children in a cyclic unit), the deepest winning child
//! outside, and marks of the levels at which positions are pending.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::error::{Error, Limit};
use crate::kernel::AtomicArray;
use crate::rules::Position;
use crate::space::{Entry, Sector, SectorIndex, WorkUnit};
use crate::store::{Database, Keys, SectorFile};

// Working states of a position (16 bits).
pub(super) const MAX_LEVEL: u32 = 0x3FFF;
/// 0..=MAX_LEVEL: final depth.
/// | the number of the position's distinct children in the unit not yet known to win (at
/// most 255), to which a draw outside the unit adds one that never goes.
pub(super) const UNRESOLVED: u16 = 0x4000;
pub(super) const PENDING: u16 = 0x8000; // | depth at which it becomes final
pub(super) const UNUSED: u16 = 0xFFFF;

/// The working state of a position of `sector` final at `depth`.
pub(super) fn pending(sector: Sector, depth: u32) -> Result<u16, Error> {
    if depth > MAX_LEVEL {
        return Err(Error::Limit {
            sector,
            limit: Limit::Depth {
                depth,
                max: MAX_LEVEL,
            },
        });
    }
    Ok(PENDING | depth as u16)
}

/// A move led into `sector`, which the unit neither holds nor depends on.
pub(super) fn not_a_dependency(sector: Sector) -> Error {
    Error::Limit {
        sector,
        limit: Limit::NotADependency { child: sector },
    }
}

#[inline]
pub(super) fn is_unresolved(s: u16) -> bool {
    s & 0xC000 == UNRESOLVED
}

#[inline]
pub(super) fn is_pending(s: u16) -> bool {
    s & 0xC000 == PENDING && s != UNUSED
}

pub(super) const CHUNK: usize = 1 << 14;

/// Units of fewer slots than this list the positions a level makes pending; larger ones
/// scan for them in slot order (see `WorkingUnit::listing`). Measured on nine: 5-6/6-5
/// (152 M slots) solves faster listing, 9-9 (415 M) and 7-8/8-7 (1.08 G) scanning.
const LIST_BELOW: usize = 1 << 28;

/// Slots per block of level marks: a level scans a block only when one of its positions
/// may be pending at that level. Deep in a large unit only a few positions are pending at
/// each level, and scanning every state at every level costs more than resolving them.
pub(super) const MARK_BLOCK: usize = 1 << 10;
/// Levels told apart by the marks of a block (one bit each, the level modulo this); a
/// level that shares a bit only scans a block for nothing.
pub(super) const MARK_LEVELS: u32 = 256;
pub(super) const MARK_WORDS: usize = MARK_LEVELS as usize / 64;

/// One sector of the unit being solved.
pub(super) struct WorkingSector {
    /// The sector.
    pub(super) sector: Sector,
    /// The layout of the working state: the sector's own index, or, for the second sector of
    /// a twin unit (`b-a` with `a-b`), its twin's, each position kept at the slot of its
    /// [`Position::flipped`] image. The predecessors of a row of positions of `a-b` (one
    /// mover set `M`) are positions of `b-a` with opponent set `M`, so in this layout they
    /// fill one row, and those of a row of `b-a` fill the few rows of the sets `M` reaches by
    /// one move: the levels touch rows that stay in the cache instead of lines anywhere in
    /// gigabytes. Transposed to the sector's own order before writing.
    pub(super) index: SectorIndex,
    pub(super) flipped: bool,
    pub(super) state: AtomicArray<AtomicU16>,
    /// Per position of a cyclic unit, 1 + the depth of its deepest winning child outside
    /// the unit, or 0, up to [`DEEP`] (see [`WorkingSector::deepest`]); read only when its
    /// last child in the unit turns out to win (empty in a forward unit). The counter of its
    /// children lives in its state (see [`UNRESOLVED`]), so that telling a predecessor
    /// touches one line of one array: the levels' random updates cost by the memory they
    /// range over, not only by the lines they fetch.
    pub(super) deepest: AtomicArray<AtomicU8>,
    /// The values of `deepest` of [`DEEP`] and more, by slot: a few positions at most.
    pub(super) deeper: Mutex<HashMap<usize, u32>>,
    /// Per block of [`MARK_BLOCK`] slots, the levels at which a position of it was made
    /// pending (cyclic units only; empty otherwise).
    pub(super) marks: Vec<AtomicU64>,
}

/// The bytes of the working state of a unit of `slots` index slots: a 16-bit state per slot,
/// and in a cyclic unit a byte of its deepest winning child and the level marks. The children
/// it reads are mapped files, in the page cache besides.
pub fn working_bytes(unit: &WorkUnit, slots: u64) -> u64 {
    let state = 2 * slots;
    if unit.cyclic {
        let marks = slots.div_ceil(MARK_BLOCK as u64) * MARK_WORDS as u64 * 8;
        state + slots + marks
    } else {
        state
    }
}

/// The value of [`WorkingSector::deepest`] that sends a reader to `deeper`.
const DEEP: u8 = u8::MAX;

impl WorkingSector {
    /// Records 1 + the depth of the deepest winning child outside the unit of the position
    /// in `slot` (a cyclic unit's; a forward unit keeps none).
    pub(super) fn set_deepest(&self, slot: usize, value: u32) {
        let Some(cell) = self.deepest.get(slot) else {
            return;
        };
        if value >= DEEP as u32 {
            self.deeper
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(slot, value);
            cell.store(DEEP, Relaxed);
        } else {
            cell.store(value as u8, Relaxed);
        }
    }

    /// 1 + the depth of the deepest winning child outside the unit of the position in
    /// `slot`, or 0.
    #[inline]
    pub(super) fn deepest(&self, slot: usize) -> u32 {
        match self.deepest[slot].load(Relaxed) {
            DEEP => self.deeper.lock().unwrap_or_else(|e| e.into_inner())[&slot],
            d => d as u32,
        }
    }

    /// Notes that the position in `slot` is pending at `depth`.
    #[inline]
    pub(super) fn mark(&self, slot: usize, depth: u32) {
        let bit = depth % MARK_LEVELS;
        if let Some(w) = self
            .marks
            .get(slot / MARK_BLOCK * MARK_WORDS + bit as usize / 64)
        {
            let m = 1u64 << (bit % 64);
            // Mostly set already: a load keeps the line shared.
            if w.load(Relaxed) & m == 0 {
                w.fetch_or(m, Relaxed);
            }
        }
    }

    /// Whether a position of block `block` may be pending at `level`.
    #[inline]
    pub(super) fn marked(&self, block: usize, level: u32) -> bool {
        let bit = level % MARK_LEVELS;
        self.marks[block * MARK_WORDS + bit as usize / 64].load(Relaxed) & 1u64 << (bit % 64) != 0
    }

    /// A position of this part's sector as the layout's index holds it, and back (flipping
    /// is its own inverse).
    #[inline]
    pub(super) fn layout_image(&self, pos: Position) -> Position {
        if self.flipped {
            pos.flipped()
        } else {
            pos
        }
    }

    /// The slot of `pos`, a position of this part's sector.
    #[inline]
    pub(super) fn slot(&self, pos: &Position) -> u64 {
        self.index.index(&self.layout_image(*pos))
    }

    /// [`WorkingSector::slot`] with the table entry of `pos`'s mover already loaded.
    #[inline]
    pub(super) fn slot_with(&self, pos: &Position, mover: Entry) -> u64 {
        if self.flipped {
            self.index.index(&pos.flipped())
        } else {
            self.index.index_with(pos, mover)
        }
    }
}

/// A solved sector a unit's moves lead into.
pub(super) struct ChildFile {
    pub(super) sector: Sector,
    pub(super) index: SectorIndex,
    pub(super) file: Arc<SectorFile>,
    /// How the file's cells rank as children (its cell width's keys).
    pub(super) keys: Keys,
}

pub(super) struct WorkingUnit<'a> {
    pub(super) db: &'a Database,
    pub(super) parts: Vec<WorkingSector>,
    pub(super) children: Vec<ChildFile>,
    pub(super) max_pending: AtomicU32,
    pub(super) error: Mutex<Option<Error>>,
    /// Whether a predecessor whose move removed a piece can lie in the unit. It cannot when
    /// every sector keeps its piece counts (a removal leaves the unit for good, as in every
    /// cyclic unit of the separate-phase games), and then resolving skips generating them.
    pub(super) unremovals: bool,
    /// Whether a level lists the positions it makes pending at the next (see
    /// [`super::levels`]) rather than marking their blocks for a scan. Only in a small unit:
    /// the list spares the scan and the unranking, but it is in the order the level before
    /// told its positions, while a scan resolves them in slot order, where neighbours share
    /// the rows of their predecessors (in a twin unit, the predecessors of a row of one part
    /// fall in one row of the other, or in the few rows one move reaches). In a unit of
    /// gigabytes that sharing is worth more than what the list spares.
    pub(super) listing: bool,
}

impl<'a> WorkingUnit<'a> {
    /// The working state of `unit`, its sectors' children opened, before initialisation.
    pub(super) fn new(db: &'a Database, unit: &WorkUnit) -> Result<WorkingUnit<'a>, Error> {
        let mut parts: Vec<WorkingSector> = Vec::new();
        for &s in &unit.sectors {
            let twin = parts.iter().find(|p| !p.flipped && p.sector == s.flipped());
            let (index, flipped) = match twin {
                Some(t) if unit.cyclic && s != t.sector => (t.index.clone(), true),
                _ => (db.index(s), false),
            };
            let n = index.size() as usize;
            // Forward units count no children inside the unit.
            let counted = if unit.cyclic { n } else { 0 };
            let state = AtomicArray::<AtomicU16>::zeroed(n)?;
            state
                .par_iter()
                .with_min_len(CHUNK)
                .for_each(|x| x.store(UNUSED, Relaxed));
            parts.push(WorkingSector {
                sector: s,
                index,
                flipped,
                state,
                deepest: AtomicArray::zeroed(counted)?,
                deeper: Mutex::default(),
                marks: if unit.cyclic {
                    (0..n.div_ceil(MARK_BLOCK) * MARK_WORDS)
                        .map(|_| AtomicU64::new(0))
                        .collect()
                } else {
                    Vec::new()
                },
            });
        }
        let slots: usize = parts.iter().map(|p| p.state.len()).sum();
        let listing = slots < LIST_BELOW;
        let mut children = Vec::new();
        for &s in &unit.sectors {
            for c in s.successors(db.variant()) {
                if !unit.sectors.contains(&c) && !children.iter().any(|x: &ChildFile| x.sector == c)
                {
                    // A cyclic unit reads its children's cells at random, about as many
                    // as it has positions: from a copy in huge pages (see
                    // `SectorFile::in_huge_pages`) nine's 9-9 ran its children pass in
                    // 41.7 to 46.1 s instead of 46.3 to 49.7 s (docs/performance.md).
                    let file = db.rows(c)?;
                    children.push(ChildFile {
                        sector: c,
                        index: db.index(c),
                        keys: Keys::of_width(file.header().cell_width),
                        file: if unit.cyclic {
                            file.in_huge_pages()?
                        } else {
                            file
                        },
                    });
                }
            }
        }
        // A removal takes a piece from the side that moves next, so it leads to a sector whose
        // mover has fewer pieces than the parent's opponent; un-removals matter only when such
        // a move stays in the unit.
        let pieces = |on_board: u8, in_hand: u8| on_board as u32 + in_hand as u32;
        let unremovals = unit.sectors.iter().any(|a| {
            a.successors(db.variant()).iter().any(|c| {
                unit.sectors.contains(c)
                    && pieces(c.mover, c.mover_hand) < pieces(a.opponent, a.opponent_hand)
            })
        });
        Ok(WorkingUnit {
            db,
            parts,
            children,
            max_pending: AtomicU32::new(0),
            error: Mutex::new(None),
            unremovals,
            listing,
        })
    }

    #[inline]
    /// The solved sector `sector` among those the unit reads.
    pub(super) fn child(&self, sector: Sector) -> Option<&ChildFile> {
        self.children.iter().find(|c| c.sector == sector)
    }

    #[inline]
    pub(super) fn part_of(&self, sector: Sector) -> Option<usize> {
        self.parts.iter().position(|p| p.sector == sector)
    }

    pub(super) fn fail(&self, e: Error) {
        self.error.lock().unwrap().get_or_insert(e);
    }

    /// Records a pending depth; the shared maximum is written only when it grows, so that
    /// threads do not take its cache line from each other on every position.
    #[inline]
    pub(super) fn raise_max_pending(&self, depth: u32) {
        if depth > self.max_pending.load(Relaxed) {
            self.max_pending.fetch_max(depth, Relaxed);
        }
    }

    pub(super) fn take_error(&self) -> Result<(), Error> {
        match self.error.lock().unwrap().take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// The chunks of all parts, for parallel iteration.
pub(super) fn chunks(parts: &[WorkingSector]) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    for (k, p) in parts.iter().enumerate() {
        let n = p.state.len();
        let mut start = 0;
        while start < n {
            out.push((k, start, (start + CHUNK).min(n)));
            start += CHUNK;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::plan;

    /// The deepest winning child outside comes back as it was set, on either side of the
    /// byte's limit: below it from the byte, from it up from the map beside it.
    #[test]
    fn the_deepest_child_outside_round_trips_past_a_byte() {
        let removal = crate::rules::Removal::Standard;
        let (variant, dir, db) = crate::store::scratch("deepest", "six", removal);
        let units = plan(&variant, &[Sector::start(&variant)]);
        let first = units
            .iter()
            .position(|u| u.cyclic)
            .expect("six has cyclic units");
        for unit in &units[..first] {
            super::super::solve_unit(&db, unit, &crate::progress::Silent).unwrap();
        }
        let u = WorkingUnit::new(&db, &units[first]).unwrap();
        let part = &u.parts[0];
        let values = [0, 1, 2, 254, 255, 256, 1000, MAX_LEVEL + 1];
        assert!(part.deepest.len() > values.len());
        for (slot, &v) in values.iter().enumerate() {
            part.set_deepest(slot, v);
        }
        for (slot, &v) in values.iter().enumerate() {
            assert_eq!(part.deepest(slot), v, "slot {slot}");
        }
        assert_eq!(part.deeper.lock().unwrap().len(), 4);
        drop(u);
        let _ = std::fs::remove_dir_all(dir);
    }
}
