//! Initialising a unit: every position's children read (outside the unit) or counted
//! (inside it), and the positions already decided made pending.

use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use super::placement;
use super::working::{
    not_a_dependency, pending, WorkingSector, WorkingUnit, CHUNK, UNRESOLVED, UNUSED,
};
use crate::error::{Damage, Error, Limit};
use crate::kernel::prefetch;
use crate::progress::Progress;
use crate::rules::{
    for_each_move, play, split_moves, too_few_pieces, value_without_moves, Move, Point, PointSet,
    Position, Value, Variant,
};
use crate::space::{Entry, RowPlaces, Sector, SectorIndex, WorkUnit};
use crate::store::Key;

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
            // Without `rows`, every part in its own layout and every child the general way
            // (the tests' yardstick for the rows).
            let orders: Vec<Option<SectorIndex>> = self
                .parts
                .iter()
                .map(|p| rows.then(|| self.grouped_order(p)).flatten())
                .collect();
            let hands = self
                .parts
                .iter()
                .any(|p| p.sector.mover_hand > 0 || p.sector.opponent_hand > 0);
            let sizes = self
                .parts
                .iter()
                .zip(&orders)
                .map(|(p, order)| match order {
                    Some(flipped) => flipped.size(),
                    None => p.state.len() as u64,
                });
            let chunks: Vec<(usize, u64, u64)> = sizes
                .enumerate()
                .flat_map(|(k, n)| (0..n).step_by(CHUNK).map(move |a| (k, a, n)))
                .collect();
            progress.phase("reading children", chunks.iter().map(|c| c.2 - c.1).sum());
            chunks
                .par_iter()
                .for_each_init(Scratch::default, |scratch, &(k, a, n)| {
                    // Stopped on request: skipped, and the unit ends without writing.
                    if progress.cancelled() {
                        return;
                    }
                    let b = (a + CHUNK as u64).min(n);
                    let part = &self.parts[k];
                    // Both orders visit runs of positions with one opponent set, except a part
                    // in its own unflipped layout. Without hands (nine's twins) only the few
                    // children with a removal leave the unit: rows gain nothing measurable.
                    scratch.buffers.rows.by_rows =
                        rows && (hands && part.flipped || orders[k].is_some());
                    match &orders[k] {
                        None => part.index.for_each_slot(a, b, |slot, pos| {
                            let pos = pos.map(|p| part.layout_image(p));
                            self.init(k, slot as usize, pos, scratch)
                        }),
                        // Each class of the part's positions is one used slot of the flipped
                        // sector, so each used slot of the part is initialised exactly once.
                        Some(flipped) => flipped.for_each_slot(a, b, |_, q| {
                            if let Some(q) = q {
                                let parent = q.flipped();
                                self.init(k, part.slot(&parent) as usize, Some(parent), scratch);
                            }
                        }),
                    }
                    self.flush(scratch);
                    progress.advance(b - a);
                });
        }
    }

    /// The order in which to visit a part of a unit of several sectors or a cyclic one: its
    /// own layout's (`None`), or the slots of its flipped sector (the parts' positions grouped
    /// by the opponent's set), where its placements lead out of the unit. A placement without
    /// a removal leads from (M, O) to (O, M + p), so the children of a run of parents with
    /// one O fall in one row of the child sector (kilobytes, read from the cache) rather than
    /// in a row anywhere in it. A twin's second part is kept in that order already (see
    /// [`WorkingSector::index`]); a part with no placement to read has little to gain and
    /// would pay one scattered write per position.
    fn grouped_order(&self, part: &WorkingSector) -> Option<SectorIndex> {
        let s = part.sector;
        let places_out = self.db.variant().rules().may_place(s.mover_hand)
            && self.part_of(s.after_placement(0)).is_none();
        (!part.flipped && places_out).then(|| self.db.index(s.flipped()))
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
        st.read = Read::default();
        // In phases, so that the cache misses of one phase (orbit table entries, then child
        // cells) are independent loads the processor overlaps.
        let Buffers {
            child_positions,
            entries,
            inside,
            rows,
        } = buffers;
        child_positions.clear();
        entries.clear();
        inside.clear();
        st.outside.clear();
        let orbits = p.index.orbits();
        let by_rows = rows.by_rows;
        let (place_fast, move_fast) = if by_rows {
            // Its state is written when it is finished, after the next position has
            // started: the line is on its way by then (the order scatters the writes).
            prefetch(&p.state[slot]);
            rows.meet(self, part, &pos);
            rows.fast
        } else {
            self.counted_in_unit(&pos)
        };
        let rules = self.db.variant().rules();
        let hand = pos.mover_hand;
        // The open placements' children, in one row outside the unit (see `ChildRows`).
        let plain_row = match rows.sectors[0] {
            Some(j) if by_rows && !place_fast => Some((j, self.child_row(rows, 0, j, None, &pos))),
            _ => None,
        };
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
            if by_rows && self.take_in_row(rows, &pos, mv, inside, &mut st.outside) {
                return;
            }
            let child = play(&pos, mv);
            if too_few_pieces(&child) {
                st.best_win = st.best_win.min(1);
            } else {
                child_positions.push(child);
            }
        };
        let places_plain = !rules.may_place(hand) || place_fast || plain_row.is_some();
        if places_plain && (!rules.may_move(hand) || move_fast) {
            // Every move that closes no mill is a plain child in the unit (counted by
            // population counts) or a placement into one row outside (ranked there); the
            // others are taken one by one.
            let open = split_moves(self.db.variant(), &pos, &mut child_of);
            st.any |= open.count() > 0;
            match &plain_row {
                Some((j, row)) => {
                    plain += open.shifts as usize;
                    let row = &rows.made[*row];
                    self.placements_in_row(*j, row, &pos, open.placements, st);
                }
                None => plain += open.count() as usize,
            }
        } else if let Some((j, row)) = &plain_row {
            // The moves one by one (the opponent's set has a stabiliser, so the children in
            // the unit may coincide), the open placements still ranked in their row.
            let open = open_placements_apart(self.db.variant(), &pos, child_of);
            st.any |= !open.is_empty();
            let row = &rows.made[*row];
            self.placements_in_row(*j, row, &pos, open, st);
        } else {
            for_each_move(self.db.variant(), &pos, &mut child_of);
        }
        entries.extend(child_positions.iter().map(|c| orbits.entry(c.mover)));
        self.locate(child_positions, entries, inside, &mut st.outside);
        st.in_unit = plain + inside.len();
    }

    /// The children of `pos` by placing on `points` without a removal, all in `row` of child
    /// `j`, read at once: the run's parents read each of the row's cells several times, so it
    /// is in the cache. Their places plus one are ranked from one pass over the mover's places
    /// ([`crate::space::OneMore`]), once more under each other symmetry of a symmetric row,
    /// whose slots are the least of the ranks.
    #[inline]
    fn placements_in_row(
        &self,
        j: usize,
        row: &RowPlaces,
        pos: &Position,
        points: PointSet,
        st: &mut InFlight,
    ) {
        let c = &self.children[j];
        let mut ranks = self.db.orbits().one_more();
        ranks.set(row.places_of(pos.mover));
        let mut read = |slot: u64| match c.file.key_in_whole(slot, &c.keys) {
            Ok(k) if k & Key::BAD == 0 => st.read.add(k),
            // Left to `finish`, which names an unused slot.
            Ok(_) => st.outside.push((j as u8, slot)),
            Err(e) => self.fail(e),
        };
        if !row.symmetric() {
            for p in points {
                read(row.base() + ranks.rank(row.place(p)));
            }
            return;
        }
        let mut best = [0u64; 32];
        for (b, p) in best.iter_mut().zip(points) {
            *b = ranks.rank(row.place(p));
        }
        for i in 0..row.image_count() {
            ranks.set(row.image_places_of(i, pos.mover));
            for (b, p) in best.iter_mut().zip(points) {
                *b = (*b).min(ranks.rank(row.image_place(i, p)));
            }
        }
        for &b in &best[..points.len() as usize] {
            read(row.base() + b);
        }
    }

    /// Whether the placements and the moves without a removal of `pos` lead into the unit
    /// and may be counted there without their slots. A move without a removal keeps the
    /// opponent's set as the child's mover set. Such children are pairwise distinct, even
    /// up to symmetry, unless that set has a non-trivial stabiliser (a symmetry relating two
    /// of them would have to fix it). Placements and moves lead to different sectors (the
    /// hand differs), so each kind is asked.
    fn counted_in_unit(&self, pos: &Position) -> (bool, bool) {
        let orbits = self.db.orbits();
        let free_set = pos.opponent_pieces() >= 3 && !orbits.entry(pos.opponent).stabilised();
        let s = Sector::of(pos);
        let in_unit = |child: Sector| free_set && self.part_of(child).is_some();
        let place_fast = pos.mover_hand > 0 && in_unit(s.after_placement(0));
        (place_fast, in_unit(s.after_move(0)))
    }

    /// Where the row of the children of `pos` of `kind` (in `target`, its entry of
    /// [`ChildRows::sectors`]), with `removed` taken, lies in `rows.made`: made the first time
    /// the run meets it.
    #[inline]
    fn child_row(
        &self,
        rows: &mut ChildRows,
        kind: usize,
        target: usize,
        removed: Option<Point>,
        pos: &Position,
    ) -> usize {
        let at = &mut rows.at.0[kind][removed.map_or(32, |r| r.index())];
        if *at != 0 {
            return *at as usize - 1;
        }
        let index = match target.checked_sub(IN_UNIT) {
            Some(k) => &self.parts[k].index,
            None => &self.children[target].index,
        };
        let set = removed.map_or(pos.opponent, |r| pos.opponent.without(r));
        rows.made.push(index.row_places(set));
        *at = rows.made.len() as u8;
        rows.made.len() - 1
    }

    /// The child of `pos` by `mv` where it lies in a row of the run; `None` for the general
    /// path (a child lost for too few pieces, or in a flipped part of the unit).
    #[inline]
    fn row_child(&self, rows: &mut ChildRows, pos: &Position, mv: Move) -> Option<RowChild> {
        let taken = match mv.removed() {
            None => 0,
            Some(_) if pos.opponent.len() + pos.opponent_hand as u32 <= 3 => return None,
            Some(_) => 1,
        };
        let (kind, mover) = match mv.from() {
            None => (taken, pos.mover.with(mv.to())),
            Some(from) => (2 + taken, pos.mover.without(from).with(mv.to())),
        };
        let target = rows.sectors[kind]?;
        let i = self.child_row(rows, kind, target, mv.removed(), pos);
        let row = &rows.made[i];
        let (index, child): (_, fn(usize, u64) -> RowChild) = match target.checked_sub(IN_UNIT) {
            Some(k) => (&self.parts[k].index, |k, slot| {
                RowChild::Inside(k - IN_UNIT, slot)
            }),
            None => (&self.children[target].index, RowChild::Outside),
        };
        let slot = if row.symmetric() {
            index.slot_of_set(row, mover)
        } else {
            index.slot_in_row(row, row.places_of(mover))
        };
        Some(child(target, slot))
    }

    /// Pushes the child of `pos` by `mv` to `inside` or `outside` (its cell asked for) as
    /// [`WorkingUnit::locate`] would, where it lies in a row of the run; false if not.
    #[inline]
    fn take_in_row(
        &self,
        rows: &mut ChildRows,
        pos: &Position,
        mv: Move,
        inside: &mut Vec<u64>,
        outside: &mut Vec<(u8, u64)>,
    ) -> bool {
        match self.row_child(rows, pos, mv) {
            Some(RowChild::Outside(j, slot)) => {
                self.children[j].file.prefetch(slot);
                outside.push((j as u8, slot));
            }
            Some(RowChild::Inside(k, slot)) => inside.push((k as u64) << 56 | slot),
            None => return false,
        }
        true
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
        // The keys of the children still to read, with those read at once.
        let mut read = st.read;
        for &(j, slot) in st.outside.iter() {
            let c = &self.children[j as usize];
            match c.file.key_in_whole(slot, &c.keys) {
                Ok(k) => read.add(k),
                Err(e) => self.fail(e),
            }
        }
        let Read {
            best,
            best_of_wins,
            draw,
            bad,
        } = read;
        if bad & Key::BAD != 0 {
            for &(j, slot) in st.outside.iter() {
                let c = &self.children[j as usize];
                if let Ok(None) = c.file.cell_in_whole(slot) {
                    self.fail(Error::damaged(c.file.path(), Damage::UnusedSlot { slot }));
                }
            }
            return;
        }
        let best_win = st
            .best_win
            .min(if best < Key::DRAW { best + 1 } else { u32::MAX });
        let deepest_win = (best_of_wins != u32::MAX).then(|| 0xFFFF - (best_of_wins - Key::WIN));
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

/// Calls `others` with every move of `pos` but its placements that close no mill, whose
/// points it returns.
fn open_placements_apart(
    variant: &Variant,
    pos: &Position,
    mut others: impl FnMut(Move),
) -> PointSet {
    let mut open = PointSet::EMPTY;
    for_each_move(variant, pos, |mv| {
        if mv.from().is_none() && mv.removed().is_none() {
            open = open.with(mv.to());
        } else {
            others(mv);
        }
    });
    open
}

/// Where [`ChildRows`] numbers the parts of the unit: after the children.
const IN_UNIT: usize = 1 << 16;

/// A child found in a row of the run: outside the unit (child, slot) or in it (part, slot).
enum RowChild {
    Outside(usize, u64),
    Inside(usize, u64),
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
    rows: ChildRows,
}

/// The rows that the children of positions with one opponent set O fall in. A move leads from
/// (M, O) to (O - r, M'): M' the mover's pieces after it, r the piece a mill takes, if any. So
/// every child of a run of positions with one O lies in the row of O or of O - r of one of four
/// sectors (after a placement or a move, with a removal or without: a child sector, or a part
/// of the unit in its own layout), at the colex rank of M''s places there (the least of the
/// ranks under the row's symmetries, where its set has a stabiliser): a load per piece and a
/// table rank instead of a play, an orbit lookup, two symmetries and a squeeze per child. The
/// rows are made when a run meets them and kept for the run.
#[derive(Default)]
pub(super) struct ChildRows {
    /// Whether the positions come in runs with one opponent set (set per chunk of work).
    by_rows: bool,
    /// The part and the opponent set of the run.
    run: Option<(usize, PointSet)>,
    /// Where the children after a placement, a placement with a removal, a move and a move
    /// with a removal lie: a child outside the unit, or [`IN_UNIT`] plus a part whose layout
    /// is its own (`None`: none, or in a flipped part).
    sectors: [Option<usize>; 4],
    /// [`WorkingUnit::counted_in_unit`] for the run (it depends on the sector and the
    /// opponent's set alone).
    fast: (bool, bool),
    /// The rows made in this run.
    made: Vec<RowPlaces>,
    /// Where the row of each kind of child (as `sectors`) and each removed point (32: none)
    /// lies in `made`, plus one (0: not made yet).
    at: RowsAt,
}

/// See [`ChildRows::at`].
#[derive(Clone, Copy)]
struct RowsAt([[u8; 33]; 4]);

impl Default for RowsAt {
    fn default() -> RowsAt {
        RowsAt([[0; 33]; 4])
    }
}

impl ChildRows {
    /// Starts a new run when `pos` (of `part`) has another opponent set than the last.
    #[inline]
    fn meet(&mut self, u: &WorkingUnit, part: usize, pos: &Position) {
        if self.run == Some((part, pos.opponent)) {
            return;
        }
        let s = u.parts[part].sector;
        if self.run.map(|(k, _)| k) != Some(part) {
            let rules = u.db.variant().rules();
            let outside = |c: Sector| match u.part_of(c) {
                Some(k) => (!u.parts[k].flipped).then_some(IN_UNIT + k),
                None => u.children.iter().position(|x| x.sector == c),
            };
            let place = rules.may_place(s.mover_hand) && s.mover_hand > 0;
            let moves = rules.may_move(s.mover_hand);
            let take = s.opponent > 0;
            self.sectors = [
                place.then(|| outside(s.after_placement(0))).flatten(),
                (place && take)
                    .then(|| outside(s.after_placement(1)))
                    .flatten(),
                moves.then(|| outside(s.after_move(0))).flatten(),
                (moves && take).then(|| outside(s.after_move(1))).flatten(),
            ];
        }
        self.run = Some((part, pos.opponent));
        self.fast = u.counted_in_unit(pos);
        self.made.clear();
        self.at = RowsAt::default();
    }
}

/// What the keys of a position's children outside the unit read so far give, without a
/// branch per child: the least (a loss the shallowest first), the least of the wins (the
/// deepest), whether one is a draw, and the union of their bits (one bad).
#[derive(Clone, Copy)]
struct Read {
    best: u32,
    best_of_wins: u32,
    draw: bool,
    bad: u32,
}

impl Default for Read {
    fn default() -> Read {
        Read {
            best: u32::MAX,
            best_of_wins: u32::MAX,
            draw: false,
            bad: 0,
        }
    }
}

impl Read {
    /// Takes one child's key in.
    #[inline(always)]
    fn add(&mut self, k: u32) {
        self.best = self.best.min(k);
        self.best_of_wins = self
            .best_of_wins
            .min(if k >= Key::WIN { k } else { u32::MAX });
        self.draw |= k == Key::DRAW;
        self.bad |= k;
    }
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
    /// Children outside as (child, slot), their cells still to read.
    outside: Vec<(u8, u64)>,
    /// The children outside read already.
    read: Read,
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

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering::Relaxed;

    use super::super::{solve_unit, WorkingUnit};
    use crate::progress::Silent;
    use crate::rules::Removal;
    use crate::space::{plan, Sector};

    /// Every cyclic unit initialised by rows (a part's positions by runs of one opponent
    /// set, their children ranked in the rows of the run) leaves each position the state and
    /// deepest winning child the general path leaves it: Lasker's units with pieces in hand,
    /// under two removal rules.
    #[test]
    fn rows_equal_the_general_path_in_cyclic_units() {
        // Lasker from three pieces each on the board and one in each hand: its twins with
        // hands and every unit below them (those without take the general path).
        let hands = Sector {
            mover: 3,
            opponent: 3,
            mover_hand: 1,
            opponent_hand: 1,
        };
        for removal in [Removal::Standard, Removal::Strict] {
            let (variant, dir, db) = crate::store::scratch("init-rows-test", "lasker", removal);
            let (mut compared, mut with_hands) = (0, 0);
            for unit in plan(&variant, &[hands]) {
                if unit.cyclic {
                    let by = |rows: bool| {
                        let u = WorkingUnit::new(&db, &unit).unwrap();
                        u.init_all(&unit, &Silent, rows);
                        u.take_error().unwrap();
                        u
                    };
                    let (fast, general) = (by(true), by(false));
                    for (a, b) in fast.parts.iter().zip(&general.parts) {
                        for slot in 0..a.state.len() {
                            let (x, y) = (a.state[slot].load(Relaxed), b.state[slot].load(Relaxed));
                            assert_eq!(x, y, "{removal}: {} slot {slot}", a.sector);
                            assert_eq!(a.deepest(slot), b.deepest(slot), "{} {slot}", a.sector);
                        }
                    }
                    compared += 1;
                    with_hands += unit.sectors.iter().any(|s| s.mover_hand > 0) as usize;
                }
                solve_unit(&db, &unit, &Silent).unwrap();
            }
            assert!(compared > 3, "only {compared} cyclic units compared");
            assert!(with_hands > 3, "only {with_hands} cyclic units with hands");
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
}
