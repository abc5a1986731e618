//! The proof of any position move by move, its child rows cached while positions share the
//! opponent's set.

use super::rows::{ChildRow, ChildSector};
use crate::rules::{
    for_each_move, play, too_few_pieces, value_without_moves, Move, PointSet, Position, Variant,
    MAX_POINTS,
};
use crate::space::{OneMore, Orbits, Sector};
use crate::store::{Key, Proved};

/// Marks of the cache of child rows by kind of move: not looked up yet; the child has too few
/// pieces (lost at once); its sector is not one the proof may read. Smaller values are rows.
const UNKNOWN: u8 = 0xFF;
const WON_AT_ONCE: u8 = 0xFE;
const NO_ROW: u8 = 0xFD;
/// Kinds of children in that cache: by the point removed or none, for placements, then moves.
const KINDS: usize = 2 * (MAX_POINTS + 1);

/// The children of positions taken grouped by the opponent's set, move by move from
/// [`for_each_move`]. Within a group, every child of one kind of move (a placement or a move,
/// removing a given point or none) has the same piece counts (one sector) and the same mover
/// set (the opponent set, less the point removed): one row, found once per group.
pub(super) struct Moves<'a> {
    variant: &'a Variant,
    orbits: &'a Orbits,
    children: &'a [ChildSector],
    /// The rows of the group's children, by child mover set and sector.
    rows: Vec<(PointSet, Sector, ChildRow<'a>)>,
    /// The group's opponent set.
    rows_of: PointSet,
    /// The row of each kind of child (an index into `rows`, or a mark).
    kind_rows: [u8; KINDS],
    /// The ranks of the parent's mover set plus one place, in the row `one_more_row`: the
    /// children of placements without a removal, ranked in O(1) each.
    one_more: OneMore<'a>,
    one_more_row: usize,
    /// The places of the parent's mover set in each row, and the parent (counted in
    /// `parent`) they were worked out for.
    mover_in: [u32; KINDS],
    mover_of: [u64; KINDS],
    parent: u64,
}

impl<'a> Moves<'a> {
    /// A prover reading `children`.
    pub(super) fn new(
        variant: &'a Variant,
        orbits: &'a Orbits,
        children: &'a [ChildSector],
    ) -> Moves<'a> {
        Moves {
            variant,
            orbits,
            children,
            rows: Vec::new(),
            rows_of: PointSet::EMPTY,
            kind_rows: [UNKNOWN; KINDS],
            one_more: orbits.one_more(),
            one_more_row: usize::MAX,
            mover_in: [0; KINDS],
            mover_of: [0; KINDS],
            parent: 0,
        }
    }

    /// The code of what the children of `pos` prove (see [`Proved`]), and how many there are.
    pub(super) fn prove(&mut self, pos: &Position) -> (u16, u64) {
        if pos.opponent != self.rows_of {
            self.rows.clear();
            self.rows_of = pos.opponent;
            self.kind_rows = [UNKNOWN; KINDS];
        }
        // The best child so far by key (smaller is better for the mover), and whether a
        // child had no stored value: branch-free, so that the children's reads overlap.
        let mut best = u32::MAX;
        let mut bad = 0u32;
        let mut moves = 0;
        self.one_more_row = usize::MAX;
        // A new parent: the mover sets worked out in `mover_in` are the last one's.
        self.parent += 1;
        for_each_move(self.variant, pos, |mv| {
            moves += 1;
            let key = self.key(pos, mv);
            best = best.min(key);
            bad |= key & Key::BAD;
        });
        let code = if bad != 0 {
            Proved::BROKEN
        } else if moves == 0 {
            Proved::code(value_without_moves(self.variant, pos))
        } else {
            Proved::code(Key::parent(best))
        };
        (code, moves)
    }

    /// The key of the child `mv` leads to.
    #[inline]
    fn key(&mut self, pos: &Position, mv: Move) -> u32 {
        let kind = mv.removed().map_or(MAX_POINTS, |r| r.index())
            + (MAX_POINTS + 1) * mv.from().is_some() as usize;
        if self.kind_rows[kind] == UNKNOWN {
            self.kind_rows[kind] = self.find_row(pos, mv);
        }
        match self.kind_rows[kind] {
            WON_AT_ONCE => 0,
            NO_ROW => Key::BAD,
            k => self.key_in_row(pos, mv, k as usize),
        }
    }

    /// The row (an index into `rows`) of the child `mv` leads to, or a mark.
    fn find_row(&mut self, pos: &Position, mv: Move) -> u8 {
        let child = play(pos, mv);
        if too_few_pieces(&child) {
            return WON_AT_ONCE;
        }
        // Placements and moves (Lasker) may lead to two sectors with one mover set.
        let s = Sector::of(&child);
        let found = self
            .rows
            .iter()
            .position(|r| r.0 == child.mover && r.1 == s);
        found
            .or_else(|| {
                let row = ChildRow::of(self.children, s, child.mover)?;
                self.rows.push((child.mover, s, row));
                Some(self.rows.len() - 1)
            })
            .map_or(NO_ROW, |k| k as u8)
    }

    /// The key of the child `mv` leads to, which lies in row `k`.
    #[inline]
    fn key_in_row(&mut self, pos: &Position, mv: Move, k: usize) -> u32 {
        let row = &self.rows[k].2;
        let (rank, places) = (&row.rank, &row.places);
        // A placement adds one point to the mover set, which becomes the child's opponent
        // set: its rank comes from the mover set's places in the child's row, worked out once
        // per parent and row.
        let child_slot = if mv.from().is_none() && !rank.stabilised() {
            if self.mover_of[k] != self.parent {
                self.mover_of[k] = self.parent;
                self.mover_in[k] = row.places_of(pos.mover);
            }
            let to = places[mv.to().index()] as u32;
            if mv.removed().is_none() {
                // Without a removal, every placement shares the row: O(1) each.
                if self.one_more_row != k {
                    self.one_more.set(self.mover_in[k]);
                    self.one_more_row = k;
                }
                rank.base() + self.one_more.rank(to)
            } else {
                rank.base() + self.orbits.colex(self.mover_in[k] | 1 << to)
            }
        } else {
            rank.slot(rank.map(play(pos, mv).opponent))
        };
        row.key_at(child_slot - rank.base())
    }
}
