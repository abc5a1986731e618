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

use super::{not_a_dependency, pending, Unit, UNRESOLVED};
use crate::error::Error;
use crate::kernel::prefetch;
use crate::progress::Progress;
use crate::rules::removable;
use crate::rules::Position;
use crate::rules::Value;
use crate::rules::{PointSet, MAX_POINTS};
use crate::space::Sector;
use crate::space::{next_combination, spread, RowRank, SectorIndex};
use crate::store::{decode_code, Cell, Row};

/// Children ordered by what they are worth to the parent, smaller better: a child's loss at
/// depth d is key d, a draw [`DRAW`], a child's win at depth d `WIN_BASE + (0xFFFF - d)` (the
/// longest win best), so the parent's value comes from the smallest key.
const DRAW: u32 = 0x1_0000;
const WIN_BASE: u32 = 0x2_0000;
/// An unused slot where a child must be: damage, reported.
const BAD: u32 = 0x4_0000;

#[inline]
fn key(cell: Cell) -> u32 {
    match cell {
        Some(Value::Loss(d)) => d,
        Some(Value::Draw) => DRAW,
        Some(Value::Win(d)) => WIN_BASE + (0xFFFF - d),
        None => BAD,
    }
}

/// Whether [`init_rows`] can initialise `sector`, a forward unit's only sector: its mover must
/// place (and may not move instead), and keeps three pieces.
pub(super) fn applies(u: &Unit, sector: Sector) -> bool {
    let rules = u.db.variant().rules();
    rules.may_place(sector.mover_hand)
        && !rules.may_move(sector.mover_hand)
        && sector.mover as u32 + sector.mover_hand as u32 >= 3
        && sector.opponent as u32 + sector.opponent_hand as u32 >= 3
        && u.children
            .iter()
            .any(|c| c.sector == child_sector(sector, 0))
}

/// The sector a placement leads to, with `removed` opponent pieces taken.
fn child_sector(s: Sector, removed: u8) -> Sector {
    Sector {
        mover: s.opponent - removed,
        opponent: s.mover + 1,
        mover_hand: s.opponent_hand,
        opponent_hand: s.mover_hand - 1,
    }
}

/// A checked row of a child sector with each cell's key at hand: one table load for the
/// one-byte cells of most sectors.
struct Keyed<'a> {
    row: Row<'a>,
    table: Option<&'a [u32; 256]>,
}

impl Keyed<'_> {
    #[inline]
    fn key(&self, i: u64) -> u32 {
        let code = self.row.code(i as usize);
        match self.table {
            Some(t) => t[code as usize],
            None => key(decode_code(code, 2)),
        }
    }
}

/// One removal of a row: the child's row, where each point of the board lands in it (its
/// place among the row's free points), and its cells.
struct Removal<'a> {
    rank: RowRank<'a>,
    place: [u8; MAX_POINTS],
    cells: Keyed<'a>,
}

/// Initialises the unit's one sector (see [`applies`]), row by row of the flipped sector.
pub(super) fn init_rows(u: &Unit, progress: &dyn Progress) {
    let part = &u.parts[0];
    let s = part.index.sector();
    let flipped = SectorIndex::new(u.db.orbits().clone(), s.flipped());
    let rows = u.db.orbits().count(s.opponent as usize);
    let mut table = [0u32; 256];
    for (code, k) in table.iter_mut().enumerate() {
        *k = key(decode_code(code as u16, 1));
    }
    progress.phase("reading children", flipped.size());
    (0..rows).into_par_iter().for_each(|r| {
        if let Err(e) = init_row(u, &flipped, r, &table) {
            u.fail(e);
        }
        progress.advance(flipped.stride());
    });
}

fn keyed<'a>(row: Row<'a>, table: &'a [u32; 256]) -> Keyed<'a> {
    Keyed {
        table: (row.width() == 1).then_some(table),
        row,
    }
}

fn init_row(u: &Unit, flipped: &SectorIndex, r: usize, table: &[u32; 256]) -> Result<(), Error> {
    let part = &u.parts[0];
    let s = part.index.sector();
    let variant = u.db.variant();
    let board = variant.board();
    let orbits = u.db.orbits();
    let width = flipped.stride();
    let (opponent, stabilised) = orbits.representative(s.opponent as usize, r);
    let free = board.all() - opponent;
    let mut point_of_place = [0u8; MAX_POINTS];
    let mut place_of_point = [0u8; MAX_POINTS];
    for (place, p) in free.iter().enumerate() {
        point_of_place[place] = p.0;
        place_of_point[p.index()] = place as u8;
    }
    let all_places = PointSet::first(free.len() as usize).0;
    let child = |removed: u8| {
        let sector = child_sector(s, removed);
        u.children.iter().find(|c| c.sector == sector)
    };
    let plain = child(0).expect("applies() found it");
    let plain_stride = plain.index.stride();
    let plain_cells = keyed(
        plain.file.row(r as u64 * plain_stride, plain_stride)?,
        table,
    );
    // With a stabiliser, parents and children are canonical by the least of their images.
    let own_rank = flipped.row_of(opponent);
    let plain_rank = plain.index.row_of(opponent);
    // A removal that leaves the opponent fewer than three pieces wins at once.
    let removal_wins = opponent.len() + s.opponent_hand as u32 <= 3;
    let takeable = removable(board, variant.rules().removal, opponent);
    let mut removals: ArrayVec<Removal, MAX_POINTS> = ArrayVec::new();
    // The sector graph leaves the removals' sector out when no mill can close (too few
    // pieces): a parent closing one then would be a bug, reported below.
    if let (false, false, Some(c)) = (removal_wins, takeable.is_empty(), child(1)) {
        let stride = c.index.stride();
        for point in takeable {
            let rank = c.index.row_of(opponent.without(point));
            let cells = keyed(c.file.row(rank.base(), stride)?, table);
            removals.push(Removal {
                place: rank.places_of_points(),
                rank,
                cells,
            });
        }
    }
    let mut ranks = orbits.one_more();
    let mut x = PointSet::first(s.mover as usize).0;
    // The parent of the previous step, whose state is written once its line is fetched.
    let mut previous: Option<(usize, u16)> = None;
    for k in 0..width {
        let this = x;
        x = next_combination(x);
        let mover = spread(this, &point_of_place);
        if stabilised && own_rank.slot(mover.0) - own_rank.base() < k {
            // A symmetric image of this parent comes earlier in the row.
            continue;
        }
        let parent = Position {
            mover,
            opponent,
            mover_hand: s.mover_hand,
            opponent_hand: s.opponent_hand,
        };
        let slot = part.index.index(&parent) as usize;
        let empty = all_places & !this;
        if empty == 0 {
            // A full board: the general path knows what that is worth.
            u.init_now(0, slot, parent);
            continue;
        }
        prefetch(&part.state[slot]);
        let mut best = u32::MAX;
        let (mut bad_plain, mut bad_removal) = (0, 0);
        let mut plain_places = empty;
        if !takeable.is_empty() {
            let closing = board.closing_points(mover) - opponent;
            for p in closing {
                plain_places &= !(1 << place_of_point[p.index()]);
            }
            if !closing.is_empty() && removal_wins {
                best = 0;
            } else if !closing.is_empty() {
                if removals.is_empty() {
                    return Err(not_a_dependency(child_sector(s, 1)));
                }
                for rm in &removals {
                    if rm.rank.stabilised() {
                        let m = rm.rank.map(mover);
                        for p in closing {
                            let slot = rm.rank.slot(m | rm.rank.map(p.set()));
                            let k = rm.cells.key(slot - rm.rank.base());
                            best = best.min(k);
                            bad_removal |= k & BAD;
                        }
                    } else {
                        let mut m = 0u32;
                        for p in mover {
                            m |= 1 << rm.place[p.index()];
                        }
                        for p in closing {
                            let k = rm.cells.key(orbits.colex(m | 1 << rm.place[p.index()]));
                            best = best.min(k);
                            bad_removal |= k & BAD;
                        }
                    }
                }
            }
        }
        if plain_places != 0 {
            let mut e = plain_places;
            if stabilised {
                while e != 0 {
                    let q = e.trailing_zeros();
                    e &= e - 1;
                    let set = mover.0 | 1 << point_of_place[q as usize];
                    let k = plain_cells.key(plain_rank.slot(set) - plain_rank.base());
                    best = best.min(k);
                    bad_plain |= k & BAD;
                }
            } else {
                ranks.set(this);
                while e != 0 {
                    let q = e.trailing_zeros();
                    e &= e - 1;
                    let k = plain_cells.key(ranks.rank(q));
                    best = best.min(k);
                    bad_plain |= k & BAD;
                }
            }
        }
        if bad_plain | bad_removal != 0 {
            let file = if bad_plain != 0 {
                plain
            } else {
                child(1).expect("read")
            };
            return Err(Error::Corrupt {
                path: file.file.path().to_path_buf(),
                why: format!("a child of {s} slot {slot} is marked unused"),
            });
        }
        let state = match best {
            DRAW => UNRESOLVED,
            // A child lost at depth `best`: a win one ply later.
            d if d < DRAW => pending(s, d + 1)?,
            // Every child wins; the deepest decides.
            w => pending(s, 0xFFFF - (w - WIN_BASE) + 1)?,
        };
        if let Some((slot, state)) = previous.replace((slot, state)) {
            part.state[slot].store(state, Relaxed);
        }
    }
    if let Some((slot, state)) = previous {
        part.state[slot].store(state, Relaxed);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{final_cell, solve_unit, Unit};
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
                let u = Unit::new(&db, &unit).unwrap();
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
