//! Writing a solved unit: the final values, a twin's transposed to its own slot order, with
//! the sector's statistics.

use std::sync::atomic::{AtomicU16, Ordering::Relaxed};

use rayon::prelude::*;

use super::working::{is_pending, is_unresolved, WorkingSector, CHUNK, PENDING, UNUSED};
use crate::error::Error;
use crate::kernel::{prefetch, AtomicArray};
use crate::progress::Progress;
use crate::rules::Value;
use crate::space::ImageCounter;
use crate::store::{encode_cell, width_for_depth, write_sector, Database, Header, SectorStats};

/// How many positions' stored lines the transposition of a twin has on their way.
const AHEAD: usize = 16;

impl WorkingSector {
    /// The final states in the sector's own slot order, for writing: a twin's transposed, the
    /// deepest winning children outside (no longer needed) freed first.
    pub(super) fn for_writing(self, db: &Database) -> Result<WorkingSector, Error> {
        let WorkingSector {
            sector,
            index,
            flipped,
            state: working,
            deepest,
            ..
        } = self;
        drop(deepest);
        if !flipped {
            return Ok(WorkingSector {
                sector,
                index,
                flipped,
                state: working,
                deepest: AtomicArray::zeroed(0)?,
                deeper: Default::default(),
                marks: Vec::new(),
            });
        }
        let own = db.index(sector);
        let state = AtomicArray::<AtomicU16>::zeroed(own.size() as usize)?;
        let n = own.size();
        let starts: Vec<u64> = (0..n).step_by(CHUNK).collect();
        starts.par_iter().for_each(|&a| {
            let b = (a + CHUNK as u64).min(n);
            // Several positions ahead, so that the stored lines of all of them are on their
            // way at once: each is a miss anywhere in the twin's working state.
            let mut ahead: std::collections::VecDeque<(u64, usize)> =
                std::collections::VecDeque::with_capacity(AHEAD + 1);
            own.for_each_slot(a, b, |slot, pos| {
                match pos.map(|p| index.index(&p.flipped()) as usize) {
                    Some(j) => {
                        prefetch(&working[j]);
                        ahead.push_back((slot, j));
                    }
                    None => state[slot as usize].store(UNUSED, Relaxed),
                }
                if ahead.len() > AHEAD {
                    let (s, j) = ahead.pop_front().expect("more than ahead");
                    state[s as usize].store(working[j].load(Relaxed), Relaxed);
                }
            });
            for (s, j) in ahead {
                state[s as usize].store(working[j].load(Relaxed), Relaxed);
            }
        });
        Ok(WorkingSector {
            sector,
            index: own,
            flipped: false,
            state,
            deepest: AtomicArray::zeroed(0)?,
            deeper: Default::default(),
            marks: Vec::new(),
        })
    }
}

/// The final value of a working state once the levels are done.
#[inline]
pub(super) fn final_cell(s: u16) -> Option<Value> {
    match s {
        UNUSED => None,
        s if is_pending(s) => Some(Value::from_depth((s & !PENDING) as u32)),
        s if is_unresolved(s) => Some(Value::Draw),
        s => Some(Value::from_depth(s as u32)),
    }
}

pub(super) fn write_part(
    db: &Database,
    part: &WorkingSector,
    progress: &dyn Progress,
) -> Result<(), Error> {
    let n = part.state.len();
    let starts: Vec<usize> = (0..n).step_by(CHUNK).collect();
    let stats = starts
        .par_iter()
        .map(|&a| stats_of(part, a, (a + CHUNK).min(n)))
        .reduce(SectorStats::default, SectorStats::merge);
    let mut header = Header::new(db.variant(), part.sector, n as u64);
    header.cell_width = width_for_depth(stats.max_depth);
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

/// The statistics of the slots `a..b` of a part in its own order.
fn stats_of(part: &WorkingSector, a: usize, b: usize) -> SectorStats {
    let index = &part.index;
    let mut images = ImageCounter::new(index);
    let mut st = SectorStats::default();
    for slot in a..b {
        if let Some(value) = final_cell(part.state[slot].load(Relaxed)) {
            let slot = slot as u64;
            st.add(
                value,
                images.images(slot, || index.position(slot).expect("a used slot")),
            );
        }
    }
    st
}

pub(super) fn fs_create_dir(db: &Database) -> Result<(), Error> {
    std::fs::create_dir_all(db.dir()).map_err(|e| Error::Io {
        path: db.dir().to_path_buf(),
        cause: e,
    })
}
