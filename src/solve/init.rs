//! Initialising a unit: every position's children read (outside the unit) or counted
//! (inside it), and the positions already decided made pending.

use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use super::placement;
use super::working::{chunks, not_a_dependency, pending, WorkingUnit, CHUNK, UNRESOLVED, UNUSED};
use crate::error::{Damage, Error, Limit};
use crate::progress::Progress;
use crate::rules::{
    for_each_move, play, split_moves, too_few_pieces, value_without_moves, Move, Position, Value,
};
use crate::space::{Entry, Sector, SectorIndex, WorkUnit};

impl WorkingUnit<'_> {
    /// Reads every position's children outside the unit and counts those inside; `rows`
    /// lets a forward placement unit take [`placement::init_rows`].
    pub(super) fn init_all(&self, unit: &WorkUnit, progress: &dyn Progress, rows: bool) {
        let total: u64 = self.parts.iter().map(|p| p.state.len() as u64).sum();
        progress.phase("reading children", total);
        if !unit.cyclic && self.parts.len() == 1 {
            if rows && placement::applies(self, unit.sectors[0]) {
                placement::init_rows(self, progress);
            } else {
                init_grouped(self, progress);
            }
        } else {
            chunks(&self.parts).par_iter().for_each_init(
                Scratch::default,
                |scratch, &(k, a, b)| {
                    // Stopped on request: skipped, and the unit ends without writing.
                    if progress.cancelled() {
                        return;
                    }
                    let part = &self.parts[k];
                    part.index.for_each_slot(a as u64, b as u64, |slot, pos| {
                        let pos = pos.map(|p| part.layout_image(p));
                        self.init(k, slot as usize, pos, scratch)
                    });
                    self.flush(scratch);
                    progress.advance((b - a) as u64);
                },
            );
        }
    }

    /// Reads children outside the unit and counts distinct children inside it. Pipelined:
    /// the position's children are worked out and the cells of those outside the unit asked
    /// for, then the previous position (in `scratch`) is finished, its cells arrived in the
    /// meantime; [`WorkingUnit::flush`] finishes the last one.
    pub(super) fn init(
        &self,
        part: usize,
        slot: usize,
        pos: Option<Position>,
        scratch: &mut Scratch,
    ) {
        let Some(pos) = pos else {
            self.parts[part].state[slot].store(UNUSED, Relaxed);
            return;
        };
        // The two in-flight records take turns: this position starts in one while the
        // other, started last, is finished.
        let [a, b] = &mut scratch.flights;
        let (this, last) = if scratch.turn { (a, b) } else { (b, a) };
        self.start(part, slot, pos, &mut scratch.buffers, this);
        if last.pending {
            self.finish(last);
        }
        scratch.turn = !scratch.turn;
    }

    /// Finishes the position [`WorkingUnit::init`] left started.
    pub(super) fn flush(&self, scratch: &mut Scratch) {
        for st in scratch.flights.iter_mut().filter(|st| st.pending) {
            self.finish(st);
        }
    }

    /// Initialises one position at once (not pipelined).
    pub(super) fn init_now(&self, part: usize, slot: usize, pos: Position) {
        let mut scratch = Scratch::default();
        self.init(part, slot, Some(pos), &mut scratch);
        self.flush(&mut scratch);
    }

    /// The first half of [`WorkingUnit::init`]: the children, those outside the unit asked for.
    fn start(
        &self,
        part: usize,
        slot: usize,
        pos: Position,
        buffers: &mut Buffers,
        st: &mut InFlight,
    ) {
        let p = &self.parts[part];
        st.pending = true;
        st.part = part;
        st.slot = slot;
        st.pos = pos;
        st.best_win = u32::MAX;
        st.any = false;
        // In phases, so that the cache misses of one phase (orbit table entries, then child
        // cells) are independent loads the processor overlaps.
        let Buffers {
            child_positions,
            entries,
            inside,
        } = buffers;
        child_positions.clear();
        entries.clear();
        inside.clear();
        st.outside.clear();
        let orbits = p.index.orbits();
        // A move without a removal keeps the opponent's set as the child's mover set. Such
        // children are pairwise distinct, even up to symmetry, unless that set has a
        // non-trivial stabiliser (a symmetry relating two of them would have to fix it); when
        // they stay in the unit they are counted without computing their slots. Placements
        // and moves lead to different sectors (the hand differs), so each kind is asked.
        let free_set = pos.opponent_pieces() >= 3 && !orbits.entry(pos.opponent).stabilised();
        let s = Sector::of(&pos);
        let in_unit = |child: Sector| free_set && self.part_of(child).is_some();
        let place_fast = pos.mover_hand > 0 && in_unit(s.after_placement(0));
        let move_fast = in_unit(s.after_move(0));
        let mut plain = 0usize;
        let mut child_of = |mv: Move| {
            st.any = true;
            let fast = if mv.from().is_none() {
                place_fast
            } else {
                move_fast
            };
            if fast && mv.removed().is_none() {
                plain += 1;
                return;
            }
            let child = play(&pos, mv);
            if too_few_pieces(&child) {
                st.best_win = st.best_win.min(1);
            } else {
                child_positions.push(child);
            }
        };
        let rules = self.db.variant().rules();
        let hand = pos.mover_hand;
        if (!rules.may_place(hand) || place_fast) && (!rules.may_move(hand) || move_fast) {
            // Every move that closes no mill is a plain child in the unit: counted by
            // population counts, the others one by one.
            let others = split_moves(self.db.variant(), &pos, &mut child_of) as usize;
            plain += others;
            st.any |= others > 0;
        } else {
            for_each_move(self.db.variant(), &pos, &mut child_of);
        }
        entries.extend(child_positions.iter().map(|c| orbits.entry(c.mover)));
        self.locate(child_positions, entries, inside, &mut st.outside);
        st.in_unit = plain + inside.len();
    }

    /// Sorts the children into those in the unit, as distinct (part << 56 | slot), and those
    /// outside, as (child sector, slot) with their cells asked for.
    fn locate(
        &self,
        children: &[Position],
        entries: &[Entry],
        inside: &mut Vec<u64>,
        outside: &mut Vec<(u8, u64)>,
    ) {
        for (child, &e) in children.iter().zip(entries.iter()) {
            let sector = Sector::of(child);
            if let Some(k) = self.part_of(sector) {
                inside.push((k as u64) << 56 | self.parts[k].slot_with(child, e));
            } else if let Some(j) = self.children.iter().position(|c| c.sector == sector) {
                let slot = self.children[j].index.index_with(child, e);
                self.children[j].file.prefetch(slot);
                outside.push((j as u8, slot));
            } else {
                self.fail(not_a_dependency(sector));
            }
        }
        inside.sort_unstable();
        inside.dedup();
    }

    /// The second half of [`WorkingUnit::init`]: the cells outside read, the position's state
    /// (with its counter) and deepest winning child outside stored.
    fn finish(&self, st: &mut InFlight) {
        st.pending = false;
        let p = &self.parts[st.part];
        let (slot, pos) = (st.slot, &st.pos);
        let mut best_win = st.best_win;
        let mut deepest_win: Option<u32> = None;
        let mut draw = false;
        for &(j, slot) in st.outside.iter() {
            let c = &self.children[j as usize];
            match c.file.cell_in_whole(slot) {
                Ok(Some(Value::Loss(d))) => best_win = best_win.min(d + 1),
                Ok(Some(Value::Win(d))) => deepest_win = Some(deepest_win.unwrap_or(0).max(d)),
                Ok(Some(Value::Draw)) => draw = true,
                Ok(None) => self.fail(Error::damaged(c.file.path(), Damage::UnusedSlot { slot })),
                Err(e) => self.fail(e),
            }
        }
        let count = st.in_unit + draw as usize;
        if count > u8::MAX as usize {
            self.fail(Error::Limit {
                sector: p.sector,
                limit: Limit::Children { count },
            });
            return;
        }
        let depth = if !st.any {
            // No move: lost, or a drawn full board (which then stays unresolved: a draw).
            match value_without_moves(self.db.variant(), pos) {
                Value::Draw => None,
                _ => Some(0),
            }
        } else if best_win != u32::MAX {
            Some(best_win)
        } else if count == 0 {
            Some(deepest_win.map_or(1, |d| d + 1))
        } else {
            None
        };
        match depth.map(|d| (d, pending(p.sector, d))) {
            Some((_, Err(e))) => self.fail(e),
            Some((d, Ok(state))) => {
                p.state[slot].store(state, Relaxed);
                p.mark(slot, d);
                self.raise_max_pending(d);
            }
            None => {
                if let Some(d) = deepest_win {
                    p.set_deepest(slot, d + 1);
                }
                p.state[slot].store(UNRESOLVED | count as u16, Relaxed);
            }
        }
    }
}

/// What initialising keeps from position to position, so that it allocates nothing.
#[derive(Default)]
pub(super) struct Scratch {
    buffers: Buffers,
    /// The two positions in flight: the last one started, and room for the next.
    flights: [InFlight; 2],
    /// Which of `flights` the next position starts in (`true`: the first).
    turn: bool,
}

/// Buffers for working out one position's children.
#[derive(Default)]
pub(super) struct Buffers {
    child_positions: Vec<Position>,
    entries: Vec<Entry>,
    inside: Vec<u64>,
}

/// A position whose children are worked out and whose cells outside the unit are on their way.
#[derive(Default)]
pub(super) struct InFlight {
    pending: bool,
    part: usize,
    slot: usize,
    pos: Position,
    best_win: u32,
    any: bool,
    /// Distinct children inside the unit.
    in_unit: usize,
    /// Children outside as (child, slot).
    outside: Vec<(u8, u64)>,
}

/// Initialises a forward-only unit of one sector with its positions grouped by the opponent's
/// set: every position of the unit is visited once, as the mirror image of a slot of the
/// flipped sector (opponent and mover exchanged), whose slots run through the opponent's sets
/// orbit by orbit. A child without a removal has the parent's opponent set as its mover set,
/// so the children of consecutive positions fall in one row of the child sector (one orbit of
/// its mover set, tens of kilobytes) and those with a removal in a handful of rows: the reads
/// hit the cache instead of memory. The price is one scattered write per position, against
/// the ten to twenty reads of its children.
fn init_grouped(u: &WorkingUnit, progress: &dyn Progress) {
    let part = &u.parts[0];
    let s = part.index.sector();
    let flipped = SectorIndex::new(u.db.orbits().clone(), s.flipped());
    let n = flipped.size();
    progress.phase("reading children", n);
    let chunks: Vec<u64> = (0..n).step_by(CHUNK).collect();
    chunks
        .par_iter()
        .for_each_init(Scratch::default, |scratch, &a| {
            if progress.cancelled() {
                return;
            }
            let b = (a + CHUNK as u64).min(n);
            flipped.for_each_slot(a, b, |_, pos| {
                if let Some(q) = pos {
                    // Each class of positions is one used slot of the flipped sector, so each
                    // of the unit's used slots is initialised exactly once.
                    let parent = q.flipped();
                    let slot = part.index.index(&parent) as usize;
                    u.init(0, slot, Some(parent), scratch);
                }
            });
            u.flush(scratch);
            progress.advance(b - a);
        });
}
