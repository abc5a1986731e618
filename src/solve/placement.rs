//! Forward placement units, initialised row by row of their children.
//!
//! A placement without a removal leads from (mover M, opponent O) to (mover O, opponent
//! M + p). Taking the parents with one opponent set O together (a row of the flipped sector),
//! O is an orbit representative, so every such child lies in the one row of O in the child
//! sector, at the colex rank of M + p squeezed onto the points O leaves free: the ranks of all
//! placements of a parent come from one pass over M ([`Orbits::one_more`]), and the row's
//! cells are checked once and then read from the cache. A mill's removals take a piece r from
//! O: per row those are a handful of child rows, each with its orbit entry looked up once.
//! In a row whose representative has a non-trivial stabiliser only the canonical parents are
//! taken, and a child's slot is the least among its images.

use std::sync::atomic::Ordering::Relaxed;

use arrayvec::ArrayVec;
use rayon::prelude::*;

use super::working::{not_a_dependency, pending, ChildFile, WorkingUnit, UNRESOLVED};
use crate::error::{Error, Limit};
use crate::kernel::prefetch;
use crate::progress::Progress;
use crate::rules::{removable, PointSet, Position, Value, MAX_POINTS};
use crate::space::{next_combination, spread, OneMore, RowRank, Sector, SectorIndex};
use crate::store::{Key, Keys, Row};

/// Whether [`init_rows`] can initialise `sector`, a forward unit's only sector: its mover must
/// place (and may not move instead), and keeps three pieces.
pub(super) fn applies(u: &WorkingUnit, sector: Sector) -> bool {
    let rules = u.db.variant().rules();
    rules.only_places(sector.mover_hand)
        && sector.mover as u32 + sector.mover_hand as u32 >= 3
        && sector.opponent as u32 + sector.opponent_hand as u32 >= 3
        && u.children
            .iter()
            .any(|c| c.sector == sector.after_placement(0))
}

/// A checked row of a child sector with each cell's key at hand: one table load for the
/// one-byte cells of most sectors.
struct KeyedRow<'a> {
    row: Row<'a>,
    keys: &'a Keys,
}

impl<'a> KeyedRow<'a> {
    /// The row with the keys of its cell width (`keys` holds those of widths 1 and 2).
    fn new(row: Row<'a>, keys: &'a [Keys; 2]) -> KeyedRow<'a> {
        KeyedRow {
            keys: &keys[row.width() as usize - 1],
            row,
        }
    }

    #[inline]
    fn key(&self, i: u64) -> u32 {
        self.keys.key(self.row.code(i as usize))
    }
}

/// How many parents' state writes are on their way (their lines fetched) at once.
const STORES_IN_FLIGHT: usize = 8;

/// One removal of a row: the child's row, where each point of the board lands in it (its
/// place among the row's free points), and its cells.
struct RemovalRow<'a> {
    rank: RowRank<'a>,
    place: [u8; MAX_POINTS],
    cells: KeyedRow<'a>,
}

/// Initialises the unit's one sector (see [`applies`]), row by row of the flipped sector.
pub(super) fn init_rows(u: &WorkingUnit, progress: &dyn Progress) {
    let part = &u.parts[0];
    let s = part.index.sector();
    let flipped = SectorIndex::new(u.db.orbits().clone(), s.flipped());
    let rows = u.db.orbits().count(s.opponent as usize);
    let keys = [Keys::of_width(1), Keys::of_width(2)];
    progress.phase("reading children", flipped.size());
    (0..rows).into_par_iter().for_each(|r| {
        if progress.cancelled() {
            return;
        }
        let done = ParentRow::new(u, &flipped, r, &keys).and_then(|row| row.init());
        if let Err(e) = done {
            u.fail(e);
        }
        progress.advance(flipped.stride());
    });
}

/// The parents of one row of the flipped sector (one opponent set O, an orbit
/// representative) and the child rows they read.
struct ParentRow<'a> {
    u: &'a WorkingUnit<'a>,
    s: Sector,
    flipped: &'a SectorIndex,
    opponent: PointSet,
    stabilised: bool,
    /// The free points (those O leaves) by place, and each point's place.
    point_of_place: [u8; MAX_POINTS],
    place_of_point: [u8; MAX_POINTS],
    /// Every place, as bits.
    all_places: u32,
    /// The child sector of plain placements and its row of O.
    plain: &'a ChildFile,
    plain_cells: KeyedRow<'a>,
    plain_rank: RowRank<'a>,
    /// How parents rank in their own (flipped) row, for canonical parents of a stabilised O.
    own_rank: RowRank<'a>,
    /// Whether a removal leaves the opponent fewer than three pieces (a win at once), which
    /// pieces a mill may take, and the child row of each.
    removal_wins: bool,
    takeable: PointSet,
    removals: ArrayVec<RemovalRow<'a>, MAX_POINTS>,
}

impl<'a> ParentRow<'a> {
    /// Row `r` of the flipped sector, its child rows checked.
    fn new(
        u: &'a WorkingUnit<'a>,
        flipped: &'a SectorIndex,
        r: usize,
        keys: &'a [Keys; 2],
    ) -> Result<ParentRow<'a>, Error> {
        let s = u.parts[0].index.sector();
        let variant = u.db.variant();
        let (opponent, stabilised) = u.db.orbits().representative(s.opponent as usize, r);
        let mut point_of_place = [0u8; MAX_POINTS];
        let mut place_of_point = [0u8; MAX_POINTS];
        let free = variant.board().all() - opponent;
        for (place, p) in free.iter().enumerate() {
            point_of_place[place] = p.index() as u8;
            place_of_point[p.index()] = place as u8;
        }
        let plain = u.child(s.after_placement(0)).expect("applies() found it");
        let plain_stride = plain.index.stride();
        let plain_cells =
            KeyedRow::new(plain.file.row(r as u64 * plain_stride, plain_stride)?, keys);
        let removal_wins = opponent.len() + s.opponent_hand as u32 <= 3;
        let takeable = removable(variant.board(), variant.rules().removal, opponent);
        let mut row = ParentRow {
            u,
            s,
            flipped,
            opponent,
            stabilised,
            point_of_place,
            place_of_point,
            all_places: PointSet::first(free.len() as usize).bits(),
            plain,
            plain_cells,
            // With a stabiliser, parents and children are canonical by the least of their
            // images.
            plain_rank: plain.index.row_of(opponent),
            own_rank: flipped.row_of(opponent),
            removal_wins,
            takeable,
            removals: ArrayVec::new(),
        };
        // The sector graph leaves the removals' sector out when no mill can close (too few
        // pieces): a parent closing one then would be a bug, reported when it is met. (Only
        // with pieces to take is there a removals' sector to look for.)
        if removal_wins || takeable.is_empty() {
            return Ok(row);
        }
        if let Some(c) = u.child(s.after_placement(1)) {
            let stride = c.index.stride();
            for point in takeable {
                let rank = c.index.row_of(opponent.without(point));
                let cells = KeyedRow::new(c.file.row(rank.base(), stride)?, keys);
                row.removals.push(RemovalRow {
                    place: rank.places_of_points(),
                    rank,
                    cells,
                });
            }
        }
        Ok(row)
    }

    /// Initialises every canonical parent of the row.
    fn init(&self) -> Result<(), Error> {
        let part = &self.u.parts[0];
        let mut ranks = self.u.db.orbits().one_more();
        let mut x = PointSet::first(self.s.mover as usize).bits();
        // The parents of the last steps, whose states are written once their lines are
        // fetched: the writes land anywhere in the sector, and several must be on their way
        // at once for their misses to overlap.
        let mut waiting: std::collections::VecDeque<(usize, u16)> =
            std::collections::VecDeque::with_capacity(STORES_IN_FLIGHT + 1);
        for k in 0..self.flipped.stride() {
            let this = x;
            x = next_combination(x);
            let mover = spread(this, &self.point_of_place);
            if self.stabilised && self.own_rank.slot(mover.bits()) - self.own_rank.base() < k {
                // A symmetric image of this parent comes earlier in the row.
                continue;
            }
            let parent = Position {
                mover,
                opponent: self.opponent,
                mover_hand: self.s.mover_hand,
                opponent_hand: self.s.opponent_hand,
            };
            let slot = part.index.index(&parent) as usize;
            let Some(state) = self.state(this, &parent, slot, &mut ranks)? else {
                continue;
            };
            waiting.push_back((slot, state));
            if waiting.len() > STORES_IN_FLIGHT {
                let (slot, state) = waiting.pop_front().expect("more than in flight");
                part.state[slot].store(state, Relaxed);
            }
        }
        for (slot, state) in waiting {
            part.state[slot].store(state, Relaxed);
        }
        Ok(())
    }

    /// The working state of `parent` (in `slot`; its mover set squeezed is `this`), from the
    /// best of its children; `None` when it was initialised the general way.
    #[inline]
    fn state(
        &self,
        this: u32,
        parent: &Position,
        slot: usize,
        ranks: &mut OneMore,
    ) -> Result<Option<u16>, Error> {
        let empty = self.all_places & !this;
        if empty == 0 {
            // A full board: the general path knows what that is worth.
            self.u.init_now(0, slot, *parent);
            return Ok(None);
        }
        prefetch(&self.u.parts[0].state[slot]);
        let mover = parent.mover;
        let mut best = u32::MAX;
        let mut plain_places = empty;
        let mut bad_removal = 0;
        if !self.takeable.is_empty() {
            let closing = self.u.db.variant().board().closing_points(mover) - self.opponent;
            for p in closing {
                plain_places &= !(1 << self.place_of_point[p.index()]);
            }
            if !closing.is_empty() && self.removal_wins {
                best = 0;
            } else if !closing.is_empty() {
                if self.removals.is_empty() {
                    return Err(not_a_dependency(self.s.after_placement(1)));
                }
                (best, bad_removal) = self.best_removal(mover, closing);
            }
        }
        let (plain_best, bad_plain) = self.best_plain(this, mover, plain_places, ranks);
        best = best.min(plain_best);
        if bad_plain | bad_removal != 0 {
            let child = if bad_plain != 0 {
                self.plain.sector
            } else {
                self.s.after_placement(1)
            };
            return Err(Error::Limit {
                sector: self.s,
                limit: Limit::UnusedChild {
                    child,
                    slot: slot as u64,
                },
            });
        }
        Ok(Some(match Key::parent(best) {
            Value::Draw => UNRESOLVED,
            v => pending(self.s, v.depth().unwrap_or(0))?,
        }))
    }

    /// The best key of the children of mills closed on `closing`, each taking a piece, and
    /// whether one had no stored value.
    #[inline]
    fn best_removal(&self, mover: PointSet, closing: PointSet) -> (u32, u32) {
        let orbits = self.u.db.orbits();
        let (mut best, mut bad) = (u32::MAX, 0);
        for rm in &self.removals {
            if rm.rank.stabilised() {
                let m = rm.rank.map(mover);
                for p in closing {
                    let slot = rm.rank.slot(m | rm.rank.map(p.set()));
                    let k = rm.cells.key(slot - rm.rank.base());
                    best = best.min(k);
                    bad |= k & Key::BAD;
                }
            } else {
                let mut m = 0u32;
                for p in mover {
                    m |= 1 << rm.place[p.index()];
                }
                for p in closing {
                    let k = rm.cells.key(orbits.colex(m | 1 << rm.place[p.index()]));
                    best = best.min(k);
                    bad |= k & Key::BAD;
                }
            }
        }
        (best, bad)
    }

    /// The best key of the children of placements on the places `places` without a removal,
    /// and whether one had no stored value.
    #[inline]
    fn best_plain(
        &self,
        this: u32,
        mover: PointSet,
        places: u32,
        ranks: &mut OneMore,
    ) -> (u32, u32) {
        let (mut best, mut bad) = (u32::MAX, 0);
        let mut e = places;
        if self.stabilised {
            while e != 0 {
                let q = e.trailing_zeros();
                e &= e - 1;
                let set = mover.bits() | 1 << self.point_of_place[q as usize];
                let k = self
                    .plain_cells
                    .key(self.plain_rank.slot(set) - self.plain_rank.base());
                best = best.min(k);
                bad |= k & Key::BAD;
            }
        } else {
            ranks.set(this);
            while e != 0 {
                let q = e.trailing_zeros();
                e &= e - 1;
                let k = self.plain_cells.key(ranks.rank(q));
                best = best.min(k);
                bad |= k & Key::BAD;
            }
        }
        (best, bad)
    }
}

#[cfg(test)]
mod tests {
    use super::super::write::final_cell;
    use super::super::{solve_unit, WorkingUnit};
    use crate::progress::Silent;
    use crate::rules::Removal;
    use crate::space::{plan, Sector};

    /// Every forward placement unit of whole games, initialised row by row, gives each
    /// position the value the general path gives it, under each removal rule.
    #[test]
    fn rows_equal_the_general_path() {
        let cases = [
            ("five", Removal::Standard),
            ("five", Removal::Strict),
            ("six", Removal::Lenient),
            ("three", Removal::Standard),
        ];
        for (name, removal) in cases {
            let (variant, dir, db) = crate::store::scratch("placement-test", name, removal);
            let mut compared = 0;
            for unit in plan(&variant, &[Sector::start(&variant)]) {
                solve_unit(&db, &unit, &Silent).unwrap();
                let u = WorkingUnit::new(&db, &unit).unwrap();
                if unit.cyclic || !super::applies(&u, unit.sectors[0]) {
                    continue;
                }
                u.init_all(&unit, &Silent, false);
                u.take_error().unwrap();
                let file = db.sector(unit.sectors[0]).unwrap();
                for (slot, state) in u.parts[0].state.iter().enumerate() {
                    let general = final_cell(state.load(std::sync::atomic::Ordering::Relaxed));
                    assert_eq!(
                        file.cell(slot as u64).unwrap(),
                        general,
                        "{name} {removal}: {} slot {slot}",
                        unit.sectors[0]
                    );
                }
                compared += 1;
            }
            assert!(compared > 3, "{name}: only {compared} units compared");
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
}
