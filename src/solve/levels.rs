//! The retrograde levels of a cyclic unit: positions final at level d tell their predecessors.
//!
//! The positions pending at level d + 1 come from two places: those a level made pending
//! (a predecessor of a loss, or of the last win of a position) are listed as they are made,
//! with the position itself, so that the next level neither scans for them nor unranks their
//! slots; those initialisation (or a deeper loss) made pending at a later level are found by
//! scanning the blocks the marks name. A position is resolved once: by whichever of the two
//! claims its state first. A large unit lists nothing: its levels scan in slot order,
//! which keeps the predecessors of neighbouring positions in the cache (see
//! `WorkingUnit::listing`), and unrank the slots they find by stepping from one to the next.

use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use super::working::{
    chunks, is_pending, is_unresolved, WorkingUnit, MARK_BLOCK, PENDING, UNRESOLVED,
};
use crate::error::Error;
use crate::kernel::prefetch;
use crate::progress::{go_on, Progress};
use crate::rules::{for_each_unmove_with, Position};
use crate::space::{Sector, Walker};

/// A position made pending at the next level, as a level found it: its part and slot, and
/// its sets (any symmetric image: its predecessors' slots are the same).
#[derive(Clone, Copy, Debug)]
pub(super) struct Listed {
    /// The part in the top byte, the slot below: 16 bytes an entry.
    part_slot: u64,
    mover: u32,
    opponent: u32,
}

impl Listed {
    const SLOT_BITS: u32 = 56;

    fn part(&self) -> usize {
        (self.part_slot >> Self::SLOT_BITS) as usize
    }

    fn slot(&self) -> u64 {
        self.part_slot & ((1 << Self::SLOT_BITS) - 1)
    }
}

/// The predecessors of a resolved position: part, slot and the position.
type Predecessors = Vec<(u8, u64, Position)>;

/// Listed positions per parallel task.
const LIST_CHUNK: usize = 1 << 12;

/// One task of a level: scan blocks of a part's slots, or resolve a run of listed positions.
enum Task<'a> {
    Scan(usize, usize, usize),
    Listed(&'a [Listed]),
}

/// How many resolved positions' predecessors are in flight (their lines fetched) before the
/// oldest is told: enough for the misses of several positions to overlap.
const IN_FLIGHT: usize = 8;
/// How far ahead in a list the state of a listed position is fetched before it is claimed.
const LIST_AHEAD: usize = 16;

/// A thread's buffers: the predecessors of the last resolved positions, fetched and waiting
/// to be told (a ring of [`IN_FLIGHT`]), spare lists, and the positions made pending at the
/// next level.
#[derive(Default)]
struct Buffers {
    waiting: std::collections::VecDeque<Predecessors>,
    spare: Vec<Predecessors>,
    listed: Vec<Listed>,
    /// Predecessors whose last child in the unit turned out to win at this level, to be
    /// claimed as losses once their lines are fetched (see [`WorkingUnit::settle`]).
    settled: Predecessors,
}

impl WorkingUnit<'_> {
    /// Runs the levels 0, 1, 2, ... up to the deepest pending one, and returns how many ran.
    pub(super) fn run_levels(&self, progress: &dyn Progress) -> Result<u32, Error> {
        let blocks = chunks(&self.parts);
        // The positions listed for the level about to run, in the lists the tasks of the level
        // before filled; emptied lists are handed out again, so that the levels reuse their
        // memory.
        let mut listed: Vec<Vec<Listed>> = Vec::new();
        let spare: std::sync::Mutex<Vec<Vec<Listed>>> = std::sync::Mutex::new(Vec::new());
        let mut level = 0u32;
        progress.phase(
            "retrograde levels",
            self.max_pending.load(Relaxed) as u64 + 1,
        );
        while level <= self.max_pending.load(Relaxed) || !listed.is_empty() {
            let tasks: Vec<Task> = blocks
                .iter()
                .map(|&(k, a, b)| Task::Scan(k, a, b))
                .chain(
                    listed
                        .iter()
                        .flat_map(|l| l.chunks(LIST_CHUNK).map(Task::Listed)),
                )
                .collect();
            let found: Vec<Vec<Listed>> = tasks
                .par_iter()
                .map_init(Buffers::default, |buffers, task| {
                    if buffers.listed.capacity() == 0 {
                        buffers.listed = spare.lock().unwrap().pop().unwrap_or_default();
                    }
                    // Stopped on request: the rest of the level is skipped, and the unit
                    // ends below without writing.
                    if !progress.cancelled() {
                        self.level_task(level, task, buffers);
                    }
                    std::mem::take(&mut buffers.listed)
                })
                .filter(|l| !l.is_empty())
                .collect();
            drop(tasks);
            let mut pool = spare.lock().unwrap();
            pool.extend(listed.drain(..).map(|mut l| {
                l.clear();
                l
            }));
            drop(pool);
            listed = found;
            self.take_error()?;
            go_on(progress)?;
            level += 1;
            progress.phase(
                "retrograde levels",
                self.max_pending.load(Relaxed) as u64 + 1,
            );
            progress.advance(level as u64);
        }
        Ok(level)
    }

    /// Resolves the positions of one task pending at `level`, each one's predecessors told
    /// while the next one's lines are on their way.
    fn level_task(&self, level: u32, task: &Task, b: &mut Buffers) {
        match *task {
            Task::Scan(k, start, end) => {
                let part = &self.parts[k];
                let mut walker = Walker::new(&part.index);
                for block in (start..end).step_by(MARK_BLOCK) {
                    if !part.marked(block / MARK_BLOCK, level) {
                        continue;
                    }
                    let states = &part.state[block..(block + MARK_BLOCK).min(end)];
                    for (i, state) in states.iter().enumerate() {
                        if state.load(Relaxed) == PENDING | level as u16 {
                            let slot = (block + i) as u64;
                            let pos = || {
                                let p = walker.position(slot).expect("pending slots are used");
                                part.layout_image(p)
                            };
                            self.resolve(k, slot, pos, level, b);
                        }
                    }
                }
            }
            Task::Listed(list) => {
                for (i, l) in list.iter().enumerate() {
                    if let Some(ahead) = list.get(i + LIST_AHEAD) {
                        prefetch(&self.parts[ahead.part()].state[ahead.slot() as usize]);
                    }
                    let sector = self.parts[l.part()].sector;
                    let pos = Position {
                        mover: crate::rules::PointSet::from_bits(l.mover),
                        opponent: crate::rules::PointSet::from_bits(l.opponent),
                        mover_hand: sector.mover_hand,
                        opponent_hand: sector.opponent_hand,
                    };
                    self.resolve(l.part(), l.slot(), || pos, level, b);
                }
            }
        }
        while let Some(mut preds) = b.waiting.pop_front() {
            self.tell(level, &preds, &mut b.listed, &mut b.settled);
            preds.clear();
            b.spare.push(preds);
        }
        self.settle(level, &mut b.settled, &mut b.listed);
    }

    /// Finalises the position in `slot` of part `k` if it is still pending at `level` (a
    /// listed position may have been claimed by the scan of its block, or the other way
    /// round), lists its predecessors in the unit and fetches their lines, then tells those of
    /// the oldest position in flight. `pos` gives the position (in its part's sector), asked
    /// only once the slot is claimed.
    #[inline]
    fn resolve(
        &self,
        k: usize,
        slot: u64,
        pos: impl FnOnce() -> Position,
        level: u32,
        b: &mut Buffers,
    ) {
        let p = &self.parts[k];
        let claimed = p.state[slot as usize]
            .compare_exchange(PENDING | level as u16, level as u16, Relaxed, Relaxed)
            .is_ok();
        if !claimed {
            return;
        }
        let pos = pos();
        let mut preds = b.spare.pop().unwrap_or_default();
        self.predecessors(&pos, level, &mut preds);
        b.waiting.push_back(preds);
        if b.waiting.len() > IN_FLIGHT {
            let mut oldest = b.waiting.pop_front().expect("more than in flight");
            self.tell(level, &oldest, &mut b.listed, &mut b.settled);
            oldest.clear();
            b.spare.push(oldest);
        }
    }

    /// The predecessors of `pos` in the unit, in `preds`, their lines fetched for a later
    /// [`WorkingUnit::tell`]: the predecessors' states may lie anywhere in the unit (a sector
    /// that is its own twin), and each update is a locked instruction that waits for its own
    /// miss. After a loss (even levels) the predecessors win, which telling twice does not
    /// change; after a win each counter must fall once per distinct predecessor, so those
    /// that may repeat are sorted and made distinct.
    #[inline]
    fn predecessors(&self, pos: &Position, level: u32, preds: &mut Predecessors) {
        preds.clear();
        for_each_unmove_with(self.db.variant(), pos, self.unremovals, |prev, _| {
            if let Some(k) = self.part_of(Sector::of(&prev)) {
                preds.push((k as u8, self.parts[k].slot(&prev), prev));
            }
        });
        let wins = level.is_multiple_of(2);
        // Predecessors without an un-removal all have `pos.mover` as their opponent's set, so
        // two of them are one position only through a symmetry that fixes that set: where
        // none does, they are distinct already.
        if !wins && (self.unremovals || self.db.orbits().entry(pos.mover).stabilised()) {
            preds.sort_unstable_by_key(|&(k, j, _)| (k, j));
            preds.dedup_by_key(|&mut (k, j, _)| (k, j));
        }
        for &(k, j, _) in preds.iter() {
            prefetch(&self.parts[k as usize].state[j as usize]);
        }
    }

    /// Tells the predecessors `preds` of a position final at `level` of it; those it makes
    /// pending at the next level go to `listed`, those pending later are marked.
    #[inline]
    fn tell(
        &self,
        level: u32,
        preds: &Predecessors,
        listed: &mut Vec<Listed>,
        settled: &mut Predecessors,
    ) {
        let wins = level.is_multiple_of(2);
        for &(k, j, prev) in preds {
            let (k, j) = (k as usize, j as usize);
            let cell = &self.parts[k].state[j];
            let depth = if wins {
                // The child loses: the predecessor wins at level + 1 unless it already wins
                // sooner.
                let mut cur = cell.load(Relaxed);
                loop {
                    let improves = is_unresolved(cur)
                        || (is_pending(cur) && (cur & !PENDING) as u32 > level + 1);
                    if !improves {
                        break None;
                    }
                    if self.claim(k, j, level + 1, cur) {
                        break Some(level + 1);
                    }
                    cur = cell.load(Relaxed);
                }
            } else if is_unresolved(cell.load(Relaxed))
                && cell.fetch_sub(1, Relaxed) == UNRESOLVED | 1
            {
                // Every child now wins: a loss after the deepest of them, claimed later. A
                // decided position keeps its state; an unresolved one changes at a loss
                // level only by these decrements (never more than its count) and that claim.
                prefetch(&self.parts[k].deepest[j]);
                settled.push((k as u8, j as u64, prev));
                None
            } else {
                None
            };
            if let Some(d) = depth {
                self.note_pending(level, k, j, d, &prev, listed);
            }
        }
    }

    /// Claims as losses the positions whose counters fell to zero in a task, each after the
    /// deepest of its children: their lines fetched together, not one miss after another.
    fn settle(&self, level: u32, settled: &mut Predecessors, listed: &mut Vec<Listed>) {
        for &(k, j, _) in settled.iter() {
            prefetch(&self.parts[k as usize].state[j as usize]);
        }
        for &(k, j, prev) in settled.iter() {
            let (k, j) = (k as usize, j as usize);
            let depth = (level + 1).max(self.parts[k].deepest(j));
            if self.claim(k, j, depth, UNRESOLVED) {
                self.note_pending(level, k, j, depth, &prev, listed);
            }
        }
        settled.clear();
    }

    /// Lists a position just made pending at the next level, or marks one pending later.
    #[inline]
    fn note_pending(
        &self,
        level: u32,
        k: usize,
        j: usize,
        depth: u32,
        prev: &Position,
        listed: &mut Vec<Listed>,
    ) {
        if depth == level + 1 && self.listing {
            listed.push(Listed {
                part_slot: (k as u64) << Listed::SLOT_BITS | j as u64,
                mover: prev.mover.bits(),
                opponent: prev.opponent.bits(),
            });
        } else {
            self.parts[k].mark(j, depth);
        }
    }

    /// Makes the position in `slot` of part `k` pending at `depth` if its state is still
    /// `from`; the caller lists or marks it.
    #[inline]
    fn claim(&self, k: usize, slot: usize, depth: u32, from: u16) -> bool {
        let ok = self.parts[k].state[slot]
            .compare_exchange(from, PENDING | depth as u16, Relaxed, Relaxed)
            .is_ok();
        if ok {
            self.raise_max_pending(depth);
        }
        ok
    }
}
