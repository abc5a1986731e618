//! The retrograde levels of a cyclic unit: positions final at level d tell their predecessors.

use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use super::working::{
    chunks, is_pending, is_unresolved, WorkingUnit, MARK_BLOCK, PENDING, UNRESOLVED,
};
use crate::error::Error;
use crate::kernel::prefetch;
use crate::progress::Progress;
use crate::rules::for_each_unmove_with;
use crate::space::Sector;

impl WorkingUnit<'_> {
    /// Runs the levels 0, 1, 2, ... up to the deepest pending one, and returns how many ran.
    pub(super) fn run_levels(&self, progress: &dyn Progress) -> Result<u32, Error> {
        let u = self;
        let work = chunks(&u.parts);
        let mut level = 0u32;
        progress.phase("retrograde levels", u.max_pending.load(Relaxed) as u64 + 1);
        while level <= u.max_pending.load(Relaxed) {
            work.par_iter().for_each_init(
                || (Vec::with_capacity(64), Vec::with_capacity(64)),
                |(next, previous), &(k, a, b)| u.level_chunk(level, k, a, b, next, previous),
            );
            u.take_error()?;
            level += 1;
            progress.phase("retrograde levels", u.max_pending.load(Relaxed) as u64 + 1);
            progress.advance(level as u64);
        }
        Ok(level)
    }

    /// Resolves the positions of slots `a..b` of part `k` pending at `level`, each one's
    /// predecessors told while the next one's lines are on their way.
    #[inline]
    fn level_chunk(
        &self,
        level: u32,
        k: usize,
        a: usize,
        b: usize,
        next: &mut Vec<(u8, u64)>,
        previous: &mut Vec<(u8, u64)>,
    ) {
        let part = &self.parts[k];
        for start in (a..b).step_by(MARK_BLOCK) {
            if !part.marked(start / MARK_BLOCK, level) {
                continue;
            }
            let end = (start + MARK_BLOCK).min(b);
            for (slot, state) in part.state[start..end].iter().enumerate() {
                if state.load(Relaxed) == PENDING | level as u16 {
                    self.resolve(k, start + slot, level, next);
                    self.tell(level, previous);
                    std::mem::swap(next, previous);
                }
            }
        }
        self.tell(level, previous);
        previous.clear();
    }

    /// Finalises a position pending at `level` and lists its predecessors in the unit in
    /// `preds` (sorted), their lines fetched for a later [`WorkingUnit::tell`]: the predecessors'
    /// states may lie anywhere in the unit (a sector that is its own twin), and each update is
    /// a locked instruction that waits for its own miss, so the caller tells one position's
    /// predecessors while the next one's lines are on their way.
    pub(super) fn resolve(&self, part: usize, slot: usize, level: u32, preds: &mut Vec<(u8, u64)>) {
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
    pub(super) fn tell(&self, level: u32, preds: &[(u8, u64)]) {
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
}
