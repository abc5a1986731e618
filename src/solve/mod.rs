//! Parallel retrograde analysis of work units, writing one sector file per sector.
//!
//! Each position of the unit holds a 16-bit state and an 8-bit counter of unresolved children
//! inside the unit (3 bytes). Children in solved sectors are read from their files once, when
//! the unit is initialised. Then levels 0, 1, 2, ... are resolved in order: a position pending
//! at level `d` becomes final, and its predecessors (from un-moves) learn of it: a loss at `d`
//! makes them wins at `d + 1`; a win decrements their counters, and a counter reaching zero
//! makes a loss at one more than the deepest child. Wins come out shortest, losses longest;
//! what never resolves is a draw.

use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rayon::prelude::*;

use crate::error::Error;
use crate::kernel::{prefetch, AtomicArray};
use crate::progress::{Progress, UnitTimes};
use crate::rules::Position;
use crate::rules::Value;
use crate::rules::{
    for_each_move, for_each_unmove_with, play, too_few_pieces, value_without_moves,
};
use crate::space::{plan, Sector, WorkUnit};
use crate::space::{CostModel, Schedule, UnitGraph};
use crate::space::{Entry, SectorIndex};
use crate::store::Database;
use crate::store::{
    encode_cell, max_depth_for_width, write_sector, Header, SectorFile, SectorStats, UnitLock,
};

mod placement;

// Working states of a position (16 bits).
const MAX_LEVEL: u32 = 0x3FFF;
/// 0..=MAX_LEVEL: final depth.
const UNRESOLVED: u16 = 0x4000; // | (1 + deepest winning child outside the unit), or 0
const PENDING: u16 = 0x8000; // | depth at which it becomes final
const UNUSED: u16 = 0xFFFF;

/// The working state of a position of `sector` final at `depth`.
fn pending(sector: Sector, depth: u32) -> Result<u16, Error> {
    if depth > MAX_LEVEL {
        return Err(Error::Limit {
            sector: sector.to_string(),
            why: format!("depth {depth} exceeds {MAX_LEVEL}"),
        });
    }
    Ok(PENDING | depth as u16)
}

/// A move led into `sector`, which the unit neither holds nor depends on.
fn not_a_dependency(sector: Sector) -> Error {
    Error::Limit {
        sector: sector.to_string(),
        why: "reached by a move but not among the unit's dependencies (a bug in the sector graph)"
            .into(),
    }
}

#[inline]
fn is_unresolved(s: u16) -> bool {
    s & 0xC000 == UNRESOLVED
}

#[inline]
fn is_pending(s: u16) -> bool {
    s & 0xC000 == PENDING && s != UNUSED
}

const CHUNK: usize = 1 << 14;

/// Slots per block of level marks: a level scans a block only when one of its positions
/// may be pending at that level. Deep in a large unit only a few positions are pending at
/// each level, and scanning every state at every level costs more than resolving them.
const MARK_BLOCK: usize = 1 << 10;
/// Levels told apart by the marks of a block (one bit each, the level modulo this); a
/// level that shares a bit only scans a block for nothing.
const MARK_LEVELS: u32 = 256;
const MARK_WORDS: usize = MARK_LEVELS as usize / 64;

/// One sector of the unit being solved.
struct Part {
    /// The sector.
    sector: Sector,
    /// The layout of the working state: the sector's own index, or, for the second sector of
    /// a twin unit (`b-a` with `a-b`), its twin's, each position kept at the slot of its
    /// [`Position::flipped`] image. The predecessors of a row of positions of `a-b` (one
    /// mover set `M`) are positions of `b-a` with opponent set `M`, so in this layout they
    /// fill one row, and those of a row of `b-a` fill the few rows of the sets `M` reaches by
    /// one move: the levels touch rows that stay in the cache instead of lines anywhere in
    /// gigabytes. Transposed to the sector's own order before writing.
    index: SectorIndex,
    flipped: bool,
    state: AtomicArray<AtomicU16>,
    counter: AtomicArray<AtomicU8>,
    /// Per block of [`MARK_BLOCK`] slots, the levels at which a position of it was made
    /// pending (cyclic units only; empty otherwise).
    marks: Vec<AtomicU64>,
}

impl Part {
    /// Notes that the position in `slot` is pending at `depth`.
    #[inline]
    fn mark(&self, slot: usize, depth: u32) {
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
    fn marked(&self, block: usize, level: u32) -> bool {
        let bit = level % MARK_LEVELS;
        self.marks[block * MARK_WORDS + bit as usize / 64].load(Relaxed) & 1u64 << (bit % 64) != 0
    }

    /// A position of this part's sector as the layout's index holds it, and back (flipping
    /// is its own inverse).
    #[inline]
    fn layout_image(&self, pos: Position) -> Position {
        if self.flipped {
            pos.flipped()
        } else {
            pos
        }
    }

    /// The slot of `pos`, a position of this part's sector.
    #[inline]
    fn slot(&self, pos: &Position) -> u64 {
        self.index.index(&self.layout_image(*pos))
    }

    /// [`Part::slot`] with the table entry of `pos`'s mover already loaded.
    #[inline]
    fn slot_with(&self, pos: &Position, mover: Entry) -> u64 {
        if self.flipped {
            self.index.index(&pos.flipped())
        } else {
            self.index.index_with(pos, mover)
        }
    }

    /// The position in `slot` (one of its symmetric images), or `None` for an unused slot.
    #[inline]
    fn position(&self, slot: u64) -> Option<Position> {
        self.index.position(slot).map(|p| self.layout_image(p))
    }

    /// The final states in the sector's own slot order, for writing: a twin's transposed, the
    /// counters (no longer needed) freed first.
    fn for_writing(self, db: &Database) -> Result<Part, Error> {
        let Part {
            sector,
            index,
            flipped,
            state: working,
            counter,
            ..
        } = self;
        drop(counter);
        if !flipped {
            return Ok(Part {
                sector,
                index,
                flipped,
                state: working,
                counter: AtomicArray::zeroed(0)?,
                marks: Vec::new(),
            });
        }
        let own = db.index(sector);
        let state = AtomicArray::<AtomicU16>::zeroed(own.size() as usize)?;
        let n = own.size();
        let starts: Vec<u64> = (0..n).step_by(CHUNK).collect();
        starts.par_iter().for_each(|&a| {
            let b = (a + CHUNK as u64).min(n);
            // One position ahead, so that its stored line is on its way.
            let mut previous: Option<(u64, usize)> = None;
            own.for_each_slot(a, b, |slot, pos| {
                let from = pos.map(|p| index.index(&p.flipped()) as usize);
                if let Some(j) = from {
                    prefetch(&working[j]);
                } else {
                    state[slot as usize].store(UNUSED, Relaxed);
                }
                if let Some((s, j)) = previous.take() {
                    state[s as usize].store(working[j].load(Relaxed), Relaxed);
                }
                previous = from.map(|j| (slot, j));
            });
            if let Some((s, j)) = previous {
                state[s as usize].store(working[j].load(Relaxed), Relaxed);
            }
        });
        Ok(Part {
            sector,
            index: own,
            flipped: false,
            state,
            counter: AtomicArray::zeroed(0)?,
            marks: Vec::new(),
        })
    }
}

/// A solved sector a unit's moves lead into.
struct Child {
    sector: Sector,
    index: SectorIndex,
    file: Arc<SectorFile>,
}

struct Unit<'a> {
    db: &'a Database,
    parts: Vec<Part>,
    children: Vec<Child>,
    max_pending: AtomicU32,
    error: Mutex<Option<Error>>,
    /// Whether a predecessor whose move removed a piece can lie in the unit. It cannot when
    /// every sector keeps its piece counts (a removal leaves the unit for good, as in every
    /// cyclic unit of the separate-phase games), and then resolving skips generating them.
    unremovals: bool,
}

impl Unit<'_> {
    #[inline]
    fn part_of(&self, sector: Sector) -> Option<usize> {
        self.parts.iter().position(|p| p.sector == sector)
    }

    fn fail(&self, e: Error) {
        self.error.lock().unwrap().get_or_insert(e);
    }

    #[inline]
    fn set_pending(&self, part: usize, slot: usize, depth: u32, from: u16) -> bool {
        let ok = self.parts[part].state[slot]
            .compare_exchange(from, PENDING | depth as u16, Relaxed, Relaxed)
            .is_ok();
        if ok {
            self.parts[part].mark(slot, depth);
            self.raise_max_pending(depth);
        }
        ok
    }

    /// Records a pending depth; the shared maximum is written only when it grows, so that
    /// threads do not take its cache line from each other on every position.
    #[inline]
    fn raise_max_pending(&self, depth: u32) {
        if depth > self.max_pending.load(Relaxed) {
            self.max_pending.fetch_max(depth, Relaxed);
        }
    }

    /// Reads children outside the unit and counts distinct children inside it. Pipelined:
    /// the position's children are worked out and the cells of those outside the unit asked
    /// for, then the previous position (in `scratch`) is finished, its cells arrived in the
    /// meantime; [`Unit::flush`] finishes the last one.
    fn init(&self, part: usize, slot: usize, pos: Option<Position>, scratch: &mut Scratch) {
        let Some(pos) = pos else {
            self.parts[part].state[slot].store(UNUSED, Relaxed);
            return;
        };
        let mut spare = std::mem::take(&mut scratch.spare);
        self.start(part, slot, pos, scratch, &mut spare);
        let mut ahead = std::mem::replace(&mut scratch.ahead, spare);
        if ahead.pending {
            self.finish(&mut ahead);
        }
        scratch.spare = ahead;
    }

    /// Finishes the position [`Unit::init`] left started.
    fn flush(&self, scratch: &mut Scratch) {
        if scratch.ahead.pending {
            self.finish(&mut scratch.ahead);
        }
    }

    /// Initialises one position at once (not pipelined).
    fn init_now(&self, part: usize, slot: usize, pos: Position) {
        let mut scratch = Scratch::default();
        self.init(part, slot, Some(pos), &mut scratch);
        self.flush(&mut scratch);
    }

    /// The first half of [`Unit::init`]: the children, those outside the unit asked for.
    fn start(
        &self,
        part: usize,
        slot: usize,
        pos: Position,
        scratch: &mut Scratch,
        st: &mut Started,
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
        let Scratch {
            kids,
            entries,
            inside,
            ..
        } = scratch;
        kids.clear();
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
        let plain_in_unit = |placement: bool| {
            let (added, spent) = if placement { (1, 1) } else { (0, 0) };
            free_set
                && self
                    .part_of(Sector {
                        mover: pos.opponent.len() as u8,
                        opponent: pos.mover.len() as u8 + added,
                        mover_hand: pos.opponent_hand,
                        opponent_hand: pos.mover_hand.wrapping_sub(spent),
                    })
                    .is_some()
        };
        let (place_fast, move_fast) = (plain_in_unit(true), plain_in_unit(false));
        let mut plain = 0usize;
        for_each_move(self.db.variant(), &pos, |mv| {
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
                kids.push(child);
            }
        });
        entries.extend(kids.iter().map(|c| orbits.entry(c.mover)));
        // In-unit children as (part << 56 | slot); outside ones as (child sector, slot).
        for (child, &e) in kids.iter().zip(entries.iter()) {
            let sector = Sector::of(child);
            if let Some(k) = self.part_of(sector) {
                inside.push((k as u64) << 56 | self.parts[k].slot_with(child, e));
            } else if let Some(j) = self.children.iter().position(|c| c.sector == sector) {
                let slot = self.children[j].index.index_with(child, e);
                self.children[j].file.prefetch(slot);
                st.outside.push((j as u8, slot));
            } else {
                self.fail(not_a_dependency(sector));
            }
        }
        inside.sort_unstable();
        inside.dedup();
        st.in_unit = plain + inside.len();
    }

    /// The second half of [`Unit::init`]: the cells outside read, the position's state and
    /// counter stored.
    fn finish(&self, st: &mut Started) {
        st.pending = false;
        let p = &self.parts[st.part];
        let (slot, pos) = (st.slot, &st.pos);
        let mut best_win = st.best_win;
        let mut deepest_win: Option<u32> = None;
        let mut draw = false;
        for &(j, slot) in st.outside.iter() {
            let c = &self.children[j as usize];
            match c.file.cell(slot) {
                Ok(Some(Value::Loss(d))) => best_win = best_win.min(d + 1),
                Ok(Some(Value::Win(d))) => deepest_win = Some(deepest_win.unwrap_or(0).max(d)),
                Ok(Some(Value::Draw)) => draw = true,
                Ok(None) => self.fail(Error::Corrupt {
                    path: c.file.path().to_path_buf(),
                    why: format!("slot {slot} of a canonical position is marked unused"),
                }),
                Err(e) => self.fail(e),
            }
        }
        let count = st.in_unit + draw as usize;
        if count > u8::MAX as usize {
            self.fail(Error::Limit {
                sector: p.sector.to_string(),
                why: format!("a position has {count} children, more than a counter holds"),
            });
            return;
        }
        if let Some(c) = p.counter.get(slot) {
            c.store(count as u8, Relaxed);
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
            None => p.state[slot].store(
                UNRESOLVED | deepest_win.map_or(0, |d| d as u16 + 1),
                Relaxed,
            ),
        }
    }

    /// Finalises a position pending at `level` and lists its predecessors in the unit in
    /// `preds` (sorted), their lines fetched for a later [`Unit::tell`]: the predecessors'
    /// states may lie anywhere in the unit (a sector that is its own twin), and each update is
    /// a locked instruction that waits for its own miss, so the caller tells one position's
    /// predecessors while the next one's lines are on their way.
    fn resolve(&self, part: usize, slot: usize, level: u32, preds: &mut Vec<(u8, u64)>) {
        let p = &self.parts[part];
        p.state[slot].store(level as u16, Relaxed);
        let pos = p.position(slot as u64).expect("pending slots are used");
        preds.clear();
        for_each_unmove_with(self.db.variant(), &pos, self.unremovals, |prev, _| {
            if let Some(k) = self.part_of(Sector::of(&prev)) {
                preds.push((k as u8, self.parts[k].slot(&prev)));
            }
        });
        preds.sort_unstable();
        preds.dedup();
        let wins = level.is_multiple_of(2);
        for &(k, j) in preds.iter() {
            prefetch(&self.parts[k as usize].state[j as usize]);
            if !wins {
                prefetch(&self.parts[k as usize].counter[j as usize]);
            }
        }
    }

    /// Tells the predecessors `preds` (distinct) of a position final at `level` of it.
    fn tell(&self, level: u32, preds: &[(u8, u64)]) {
        let wins = level.is_multiple_of(2);
        for &(k, j) in preds {
            let (k, j) = (k as usize, j as usize);
            let cell = &self.parts[k].state[j];
            if wins {
                // The child loses: the predecessor wins at level + 1 unless it already wins sooner.
                let mut cur = cell.load(Relaxed);
                while is_unresolved(cur) || (is_pending(cur) && (cur & !PENDING) as u32 > level + 1)
                {
                    if self.set_pending(k, j, level + 1, cur) {
                        break;
                    }
                    cur = cell.load(Relaxed);
                }
            } else if self.parts[k].counter[j].fetch_sub(1, Relaxed) == 1 {
                // Every child now wins: a loss after the deepest of them.
                let cur = cell.load(Relaxed);
                if is_unresolved(cur) {
                    let outside = (cur & !UNRESOLVED) as u32;
                    self.set_pending(k, j, (level + 1).max(outside), cur);
                }
            }
        }
    }

    /// The working state of `unit`, its sectors' children opened, before initialisation.
    fn new<'a>(db: &'a Database, unit: &WorkUnit) -> Result<Unit<'a>, Error> {
        let mut parts: Vec<Part> = Vec::new();
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
            parts.push(Part {
                sector: s,
                index,
                flipped,
                state,
                counter: AtomicArray::zeroed(counted)?,
                marks: if unit.cyclic {
                    (0..n.div_ceil(MARK_BLOCK) * MARK_WORDS)
                        .map(|_| AtomicU64::new(0))
                        .collect()
                } else {
                    Vec::new()
                },
            });
        }
        let mut children = Vec::new();
        for &s in &unit.sectors {
            for c in s.successors(db.variant()) {
                if !unit.sectors.contains(&c) && !children.iter().any(|x: &Child| x.sector == c) {
                    children.push(Child {
                        sector: c,
                        index: db.index(c),
                        file: db.sector(c)?,
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
        Ok(Unit {
            db,
            parts,
            children,
            max_pending: AtomicU32::new(0),
            error: Mutex::new(None),
            unremovals,
        })
    }

    /// Reads every position's children outside the unit and counts those inside; `rows`
    /// lets a forward placement unit take [`placement::init_rows`].
    fn init_all(&self, unit: &WorkUnit, progress: &dyn Progress, rows: bool) {
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

    fn take_error(&self) -> Result<(), Error> {
        match self.error.lock().unwrap().take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// Buffers reused from position to position, so that initialising allocates nothing.
#[derive(Default)]
struct Scratch {
    kids: Vec<Position>,
    entries: Vec<Entry>,
    inside: Vec<u64>,
    /// The position started and not yet finished.
    ahead: Started,
    /// Buffers for the next one.
    spare: Started,
}

/// A position whose children are worked out and whose cells outside the unit are on their way.
#[derive(Default)]
struct Started {
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

/// The chunks of all parts, for parallel iteration.
fn chunks(parts: &[Part]) -> Vec<(usize, usize, usize)> {
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

/// Initialises a forward-only unit of one sector with its positions grouped by the opponent's
/// set: every position of the unit is visited once, as the mirror image of a slot of the
/// flipped sector (opponent and mover exchanged), whose slots run through the opponent's sets
/// orbit by orbit. A child without a removal has the parent's opponent set as its mover set,
/// so the children of consecutive positions fall in one row of the child sector (one orbit of
/// its mover set, tens of kilobytes) and those with a removal in a handful of rows: the reads
/// hit the cache instead of memory. The price is one scattered write per position, against
/// the ten to twenty reads of its children.
fn init_grouped(u: &Unit, progress: &dyn Progress) {
    let part = &u.parts[0];
    let s = part.index.sector();
    let flipped = SectorIndex::new(u.db.orbits().clone(), s.flipped());
    let n = flipped.size();
    progress.phase("reading children", n);
    let chunks: Vec<u64> = (0..n).step_by(CHUNK).collect();
    chunks
        .par_iter()
        .for_each_init(Scratch::default, |scratch, &a| {
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

/// Solves one work unit (its dependencies must be solved in `db`) and writes its sector files.
///
/// # Errors
/// A missing or damaged dependency, a write failure, or a limit of the working state.
pub fn solve_unit(
    db: &Database,
    unit: &WorkUnit,
    progress: &dyn Progress,
) -> Result<UnitTimes, Error> {
    let mut times = UnitTimes::default();
    let mut clock = Instant::now();
    let u = Unit::new(db, unit)?;
    let work = chunks(&u.parts);
    let total: u64 = unit.sectors.iter().map(|&s| db.index(s).size()).sum();
    u.init_all(unit, progress, true);
    u.take_error()?;
    times.slots = total;
    times.init = clock.elapsed();
    clock = Instant::now();

    if unit.cyclic {
        let mut level = 0u32;
        progress.phase("retrograde levels", u.max_pending.load(Relaxed) as u64 + 1);
        while level <= u.max_pending.load(Relaxed) {
            work.par_iter().for_each_init(
                || (Vec::with_capacity(64), Vec::with_capacity(64)),
                |(next, previous), &(k, a, b)| {
                    let part = &u.parts[k];
                    for start in (a..b).step_by(MARK_BLOCK) {
                        if !part.marked(start / MARK_BLOCK, level) {
                            continue;
                        }
                        let end = (start + MARK_BLOCK).min(b);
                        for (slot, state) in part.state[start..end].iter().enumerate() {
                            if state.load(Relaxed) == PENDING | level as u16 {
                                u.resolve(k, start + slot, level, next);
                                u.tell(level, previous);
                                std::mem::swap(next, previous);
                            }
                        }
                    }
                    u.tell(level, previous);
                    previous.clear();
                },
            );
            u.take_error()?;
            level += 1;
            times.levels = level;
            progress.phase("retrograde levels", u.max_pending.load(Relaxed) as u64 + 1);
            progress.advance(level as u64);
        }
    }

    times.retrograde = clock.elapsed();
    clock = Instant::now();
    progress.phase("writing", total);
    for part in u.parts {
        write_part(db, &part.for_writing(db)?, progress)?;
    }
    db.forget();
    times.write = clock.elapsed();
    Ok(times)
}

/// The final value of a working state once the levels are done.
#[inline]
fn final_cell(s: u16) -> Option<Value> {
    match s {
        UNUSED => None,
        s if is_pending(s) => Some(Value::from_depth((s & !PENDING) as u32)),
        s if is_unresolved(s) => Some(Value::Draw),
        s => Some(Value::from_depth(s as u32)),
    }
}

fn write_part(db: &Database, part: &Part, progress: &dyn Progress) -> Result<(), Error> {
    let index = &part.index;
    let n = part.state.len();
    let stats = (0..n)
        .into_par_iter()
        .with_min_len(CHUNK)
        .fold(SectorStats::default, |mut st, slot| {
            let Some(value) = final_cell(part.state[slot].load(Relaxed)) else {
                return st;
            };
            let images = if index.free_orbit(slot as u64) {
                index.group_size()
            } else {
                index.images(&index.position(slot as u64).unwrap())
            };
            st.positions += 1;
            st.raw_positions += images;
            st.max_depth = st.max_depth.max(value.depth().unwrap_or(0));
            match value {
                Value::Win(_) => {
                    st.win += 1;
                    st.raw_win += images;
                }
                Value::Loss(_) => {
                    st.loss += 1;
                    st.raw_loss += images;
                }
                Value::Draw => {
                    st.draw += 1;
                    st.raw_draw += images;
                }
            }
            st
        })
        .reduce(SectorStats::default, SectorStats::merge);
    let mut header = Header::new(db.variant(), part.sector, n as u64);
    header.cell_width = if stats.max_depth <= max_depth_for_width(1) {
        1
    } else {
        2
    };
    header.stats = stats;
    let width = header.cell_width;
    fs_create_dir(db)?;
    let w = width as usize;
    write_sector(&db.path(part.sector), &mut header, |a, b, out| {
        out.par_chunks_mut(CHUNK * w)
            .enumerate()
            .for_each(|(i, chunk)| {
                let first = a as usize + i * CHUNK;
                for (j, cell) in chunk.chunks_exact_mut(w).enumerate() {
                    encode_cell(final_cell(part.state[first + j].load(Relaxed)), cell);
                }
            });
        progress.advance(b - a);
    })
}

fn fs_create_dir(db: &Database) -> Result<(), Error> {
    std::fs::create_dir_all(db.dir()).map_err(|e| Error::Io {
        path: db.dir().to_path_buf(),
        cause: e,
    })
}

/// Whether a sector is solved: `Ok(false)` when its file is absent.
///
/// # Errors
/// A file that is present but damaged, or holds another variant, rule set or sector: it is
/// reported, never silently replaced.
pub fn is_solved(db: &Database, sector: Sector) -> Result<bool, Error> {
    match db.sector(sector) {
        Ok(_) => Ok(true),
        Err(Error::Missing { .. }) => Ok(false),
        Err(e) => Err(e),
    }
}

/// Whether every sector of `unit` is solved.
///
/// # Errors
/// As [`is_solved`].
pub fn unit_done(db: &Database, unit: &WorkUnit) -> Result<bool, Error> {
    let mut done = true;
    for &s in &unit.sectors {
        done &= is_solved(db, s)?;
    }
    Ok(done)
}

/// The modelled cost of each unit of a plan, which orders the [`Schedule`].
pub fn unit_costs(db: &Database, units: &[WorkUnit]) -> Vec<f64> {
    CostModel::reference().costs(db.variant(), units, |s| db.index(s).size())
}

/// Solves `unit` (its dependencies solved) under its lock, unless another process solved it
/// while this one waited for the lock: then `Ok(None)`.
///
/// # Errors
/// As [`solve_unit`] and [`is_solved`], and `Error::Io` when the lock cannot be taken.
pub fn solve_locked(
    db: &Database,
    unit: &WorkUnit,
    progress: &dyn Progress,
    verify: bool,
) -> Result<Option<UnitTimes>, Error> {
    let _lock = UnitLock::acquire(db.dir(), unit.sectors[0], &unit.sectors, || {
        progress.waiting(unit)
    })?;
    // Another process may have solved it while this one waited.
    db.forget();
    if unit_done(db, unit)? {
        return Ok(None);
    }
    let mut times = solve_unit(db, unit, progress)?;
    if verify {
        let clock = Instant::now();
        prove_unit(db, unit, progress)?;
        times.verify = clock.elapsed();
    }
    Ok(Some(times))
}

/// Proves a unit just written (its children are still in the page cache) with
/// [`crate::verify::verify_with`], recording each sector's proof as `verify --resume` does, so
/// that a later `verify --resume` does not prove it again; on a fault its files are renamed
/// `*.unsound`, so that no later unit or run reads them, and the fault is the error.
fn prove_unit(db: &Database, unit: &WorkUnit, progress: &dyn Progress) -> Result<(), Error> {
    let report = crate::verify::verify_with(db, &unit.sectors, 1, true, progress);
    db.forget();
    let Some(first) = report.faults.first() else {
        return Ok(());
    };
    for &s in &unit.sectors {
        let path = db.path(s);
        let aside = path.with_extension("sec.unsound");
        std::fs::rename(&path, &aside).map_err(|e| Error::Io {
            path: path.clone(),
            cause: e,
        })?;
    }
    Err(Error::Unsound {
        unit: unit
            .sectors
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" "),
        count: report.fault_count,
        first: first.to_string(),
    })
}

/// Solves every work unit needed for `roots` (dependencies first), skipping units whose files
/// are already complete and valid. Returns how many units were solved now.
///
/// Units are taken in the order of a [`Schedule`] (the ready unit with the costliest chain
/// of work behind it first), the order an MPI run's rank 0 hands them out in. Each unit is
/// solved under an exclusive lock ([`UnitLock`]), so several processes may solve one folder
/// together: one that reaches a unit another is solving waits for it and then skips it.
///
/// # Errors
/// As [`solve_unit`] and [`is_solved`]: a damaged or foreign file stops the run untouched.
pub fn solve(db: &Database, roots: &[Sector], progress: &dyn Progress) -> Result<usize, Error> {
    solve_units(db, &plan(db.variant(), roots), progress, false)
}

/// [`solve`] for the units of a plan (as [`plan`] makes it: dependencies first); with
/// `verify`, each unit solved now is proved right after it is written, and a fault stops the
/// run (`Error::Unsound`).
///
/// # Errors
/// As [`solve`], and `Error::Unsound`.
pub fn solve_units(
    db: &Database,
    units: &[WorkUnit],
    progress: &dyn Progress,
    verify: bool,
) -> Result<usize, Error> {
    fs_create_dir(db)?;
    let graph = UnitGraph::new(db.variant(), units);
    let mut schedule = Schedule::new(&graph, &unit_costs(db, units));
    let mut number = 0;
    for (i, unit) in units.iter().enumerate() {
        if unit_done(db, unit)? {
            progress.unit(unit, number, units.len(), true);
            number += 1;
            schedule.done(i);
        }
    }
    db.forget();
    let mut solved = 0;
    while let Some(i) = schedule.next_unit() {
        let unit = &units[i];
        progress.unit(unit, number, units.len(), false);
        number += 1;
        if let Some(times) = solve_locked(db, unit, progress, verify)? {
            solved += 1;
            progress.unit_solved(unit, &times);
        }
        schedule.done(i);
    }
    debug_assert!(schedule.is_finished());
    Ok(solved)
}

/// The value of the start position, if its sector is solved.
pub fn start_value(db: &Database) -> Option<Value> {
    db.probe(&Position::start(db.variant())).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Silent;
    use crate::rules::Variant;

    /// A unit whose files are wrong (here one win made a loss, written with sound checksums,
    /// as a solver bug would write it) fails the proof that `solve --verify` runs: the error
    /// names the unit, and its files are moved aside so that no later unit reads them.
    #[test]
    fn an_unsound_unit_stops_the_run_and_is_moved_aside() {
        let variant = Variant::by_name("nine").unwrap();
        let dir = std::env::temp_dir().join(format!("morris-unsound-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let db = Database::new(&dir, &variant).unwrap();
        let s: Sector = "3-3-0-0".parse().unwrap();
        let units = plan(&variant, &[s]);
        assert_eq!(solve_units(&db, &units, &Silent, true).unwrap(), 1);
        let file = db.sector(s).unwrap();
        let slots = file.header().slots;
        let wrong = (0..slots)
            .find(|&i| matches!(file.cell(i).unwrap(), Some(Value::Win(_))))
            .unwrap();
        let mut header = file.header().clone();
        let cells: Vec<crate::store::Cell> = (0..slots).map(|i| file.cell(i).unwrap()).collect();
        drop(file);
        db.forget();
        let w = header.cell_width as usize;
        write_sector(&db.path(s), &mut header, |a, _, out| {
            for (j, cell) in out.chunks_exact_mut(w).enumerate() {
                let i = a + j as u64;
                let value = if i == wrong {
                    Some(Value::Loss(2))
                } else {
                    cells[i as usize]
                };
                encode_cell(value, cell);
            }
        })
        .unwrap();
        db.forget();
        match prove_unit(&db, &units[0], &Silent) {
            Err(Error::Unsound { unit, count, first }) => {
                assert_eq!(unit, "3-3-0-0");
                assert!(count >= 1);
                assert!(
                    first.contains(&format!("slot {wrong}: stored loss in 2")),
                    "{first}"
                );
            }
            other => panic!("{other:?}"),
        }
        assert!(!db.path(s).exists());
        assert!(db.path(s).with_extension("sec.unsound").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
