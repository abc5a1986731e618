//! The proof of placements: all placements of a position at once, a row at a time.

use super::rows::{ChildRow, ChildSector};
use crate::rules::{
    full_board_draw, play, removable, too_few_pieces, value_without_moves, Move, Point, PointSet,
    Position, Variant,
};
use crate::space::{OneMore, Orbits, Sector};
use crate::store::{Key, Proved};

/// The children of positions whose mover may only place, worked out for all placements of a
/// position at once. Such a position (M to move, O the opponent) leads to (O, M + p) for each
/// empty point p, or, where M + p closes a mill, to (O - r, M + p) for each piece r the rules
/// let it take. Positions come grouped by O (the flipped sector's rows), so the child rows
/// (that of O, those of each O - r) are found once per group, and the children without a
/// removal, all in one row, are ranked together ([`OneMore`]). It finds what [`crate::rules::for_each_move`]
/// generates (a test holds the two to the same faults), rule by rule: mills by
/// [`crate::rules::Board::closing_points`], removals by [`removable`]. (The opponent must
/// keep three pieces: a plain placement then never leaves its mover with too few.)
pub(super) struct Placements<'a> {
    variant: &'a Variant,
    orbits: &'a Orbits,
    children: &'a [ChildSector],
    one_more: OneMore<'a>,
    /// The group's opponent set; `None` before the first.
    opponent: Option<PointSet>,
    /// The row of O: `None` while not found yet, then `Some(None)` where the proof may not
    /// read its sector.
    plain: Option<Option<ChildRow<'a>>>,
    /// What a mill takes: the pieces, whether taking one wins at once (the opponent keeps
    /// fewer than three), and the row of O - r for each (found with the plain row).
    takeable: PointSet,
    taking_wins: bool,
    removals: Vec<Option<ChildRow<'a>>>,
}

impl<'a> Placements<'a> {
    pub(super) fn new(
        variant: &'a Variant,
        orbits: &'a Orbits,
        children: &'a [ChildSector],
    ) -> Self {
        Placements {
            variant,
            orbits,
            children,
            one_more: orbits.one_more(),
            opponent: None,
            plain: None,
            takeable: PointSet::EMPTY,
            taking_wins: false,
            removals: Vec::new(),
        }
    }

    /// Finds the group's rows from one placement `to` of `pos`.
    fn find_rows(&mut self, pos: &Position, to: Point) {
        let board = self.variant.board();
        let plain = play(pos, Move::place(to));
        let s = Sector::of(&plain);
        self.plain = Some(ChildRow::of(self.children, s, plain.mover));
        self.takeable = removable(board, self.variant.rules().removal, pos.opponent);
        self.removals.clear();
        self.taking_wins = false;
        for r in self.takeable {
            let child = play(pos, Move::place(to).removing(r));
            if too_few_pieces(&child) {
                self.taking_wins = true;
            } else {
                let s = Sector::of(&child);
                self.removals
                    .push(ChildRow::of(self.children, s, child.mover));
            }
        }
    }

    /// The code of what the children of `pos` prove (see [`Proved`]), and how many there are.
    #[inline]
    pub(super) fn prove(&mut self, pos: &Position) -> (u16, u64) {
        let variant = self.variant;
        if too_few_pieces(pos) || full_board_draw(variant, pos) {
            return (Proved::code(value_without_moves(variant, pos)), 0);
        }
        let empty = pos.empty(variant);
        let Some(first) = empty.iter().next() else {
            return (Proved::code(value_without_moves(variant, pos)), 0);
        };
        if self.opponent != Some(pos.opponent) {
            self.opponent = Some(pos.opponent);
            self.plain = None;
        }
        if self.plain.is_none() {
            self.find_rows(pos, first);
        }
        let Some(Some(plain)) = &self.plain else {
            return (Proved::BROKEN, empty.len() as u64);
        };
        // Without anything to take, a mill is a plain placement.
        let closing = if self.takeable.is_empty() {
            PointSet::EMPTY
        } else {
            variant.board().closing_points(pos.mover) & empty
        };
        let mut best = u32::MAX;
        let mut bad = 0;
        let mut take = |key: u32| {
            best = best.min(key);
            bad |= key;
        };
        let open = empty - closing;
        if plain.rank.stabilised() {
            for p in open {
                take(plain.key_of_set(pos.mover.with(p)));
            }
        } else {
            self.one_more.set(plain.places_of(pos.mover));
            for p in open {
                take(plain.key_at(self.one_more.rank(plain.places[p.index()] as u32)));
            }
        }
        let mut moves = open.len() as u64;
        if !closing.is_empty() {
            moves += (closing.len() * self.takeable.len()) as u64;
            if self.taking_wins {
                take(0);
            }
            for row in &self.removals {
                let Some(row) = row else {
                    take(Key::BAD);
                    continue;
                };
                if row.rank.stabilised() {
                    for p in closing {
                        take(row.key_of_set(pos.mover.with(p)));
                    }
                } else {
                    let mover = row.places_of(pos.mover);
                    for p in closing {
                        take(row.key_at(self.orbits.colex(mover | 1 << row.places[p.index()])));
                    }
                }
            }
        }
        let code = if bad & Key::BAD != 0 {
            Proved::BROKEN
        } else {
            Proved::code(Key::parent(best))
        };
        (code, moves)
    }
}
