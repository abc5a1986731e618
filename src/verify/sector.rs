//! The proof of one sector: every position from its children, then every slot against the
//! sector's file, and the header's statistics against the payload.

use std::sync::atomic::{AtomicU16, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

use rayon::prelude::*;

use super::fault::{Fault, Faults, Files};
use super::moves::Moves;
use super::placements::Placements;
use super::rows::{broken_child, ChildSector};
use crate::kernel::{prefetch, AtomicArray};
use crate::progress::Progress;
use crate::rules::{Color, Position, Value};
use crate::space::{ImageCounter, Sector, SectorIndex};
use crate::store::{Database, Keys, Proved, SectorFile, SectorStats};

/// Slots per parallel task.
const CHUNK: u64 = 1 << 14;

/// One sector's proof: what it reads, and what the children prove for each slot.
struct SectorProof<'a> {
    db: &'a Database,
    sector: Sector,
    index: SectorIndex,
    file: &'a SectorFile,
    children: Vec<ChildSector>,
    /// What the children prove for each slot (see [`Proved`]), in working memory that takes
    /// the scattered writes of the first pass.
    expected: AtomicArray<AtomicU16>,
    faults: Mutex<&'a mut Faults>,
    progress: &'a dyn Progress,
}

/// Proves `sector`, whose file and dependencies are in `files` (usable: the caller checked),
/// noting faults; returns the positions proved and the child values read.
pub(super) fn verify_sector(
    db: &Database,
    sector: Sector,
    file: &SectorFile,
    files: &Files,
    faults: &mut Faults,
    generic: bool,
    progress: &dyn Progress,
) -> (u64, u64) {
    let index = db.index(sector);
    let expected = match AtomicArray::<AtomicU16>::zeroed(index.size() as usize) {
        Ok(a) => a,
        Err(e) => {
            // The proof cannot run without it: a fault, not an error.
            faults.note(Fault::of_sector(
                sector,
                format!("cannot be proved: {}", crate::error::Error::from(e)),
            ));
            return (0, 0);
        }
    };
    let children = std::iter::once(sector)
        .chain(sector.successors(db.variant()))
        .filter_map(|c| {
            let f = files[&c].as_ref().ok()?;
            Some(ChildSector {
                sector: c,
                index: db.index(c),
                file: f.clone(),
                keys: Keys::of_width(f.header().cell_width),
            })
        })
        .collect();
    let proof = SectorProof {
        db,
        sector,
        index,
        file,
        children,
        expected,
        faults: Mutex::new(faults),
        progress,
    };
    let flipped = SectorIndex::new(db.orbits().clone(), sector.flipped());
    progress.phase(
        &format!("verify {sector}"),
        proof.index.size() + flipped.size(),
    );
    let counts = proof.prove_positions(&flipped, generic);
    // Stopped on request: the values of the positions skipped are not there to compare.
    if !progress.cancelled() {
        proof.compare_slots();
    }
    counts
}

impl SectorProof<'_> {
    /// Notes a fault of the position in `slot` (or of the slot alone).
    fn report(&self, slot: u64, pos: Option<&Position>, message: String) {
        let variant = self.db.variant();
        let position = pos.map(|p| p.to_notation(variant, p.turn_from_hands(Color::White)));
        self.faults.lock().unwrap().note(Fault {
            sector: self.sector,
            position,
            message: format!("slot {slot}: {message}"),
            missing: None,
        });
    }

    /// The first pass: each position from its children, taken grouped by the opponent's set
    /// (as the flipped sector's slots run): a child's mover set is that set, or it less a
    /// removed piece, so the rows children fall in change only with it, and their reads hit
    /// the cache. Where the mover may only place, its children are worked out a row at a time
    /// ([`Placements`]), the cost of most of the game; elsewhere move by move ([`Moves`]).
    /// Returns the positions proved and the child values read.
    fn prove_positions(&self, flipped: &SectorIndex, generic: bool) -> (u64, u64) {
        let variant = self.db.variant();
        let orbits = self.db.orbits();
        let s = self.sector;
        let placing = !generic
            && variant.rules().only_places(s.mover_hand)
            && s.opponent + s.opponent_hand >= 3;
        let positions = AtomicU64::new(0);
        let children = AtomicU64::new(0);
        let chunks: Vec<u64> = (0..flipped.size()).step_by(CHUNK as usize).collect();
        chunks.par_iter().for_each(|&start| {
            if self.progress.cancelled() {
                return;
            }
            let end = (start + CHUNK).min(flipped.size());
            let (mut n, mut c) = (0u64, 0u64);
            let mut moves = Moves::new(variant, orbits, &self.children);
            let mut placements = Placements::new(variant, orbits, &self.children);
            flipped.for_each_slot(start, end, |_, q| {
                let Some(q) = q else { return };
                let pos = q.flipped();
                let slot = self.index.index(&pos) as usize;
                // The slot lies anywhere in the sector: fetched while the children are worked
                // out, and written after them.
                prefetch(&self.expected[slot]);
                let (code, read) = if placing {
                    placements.prove(&pos)
                } else {
                    moves.prove(&pos)
                };
                n += 1;
                c += read;
                self.expected[slot].store(code, Relaxed);
            });
            positions.fetch_add(n, Relaxed);
            children.fetch_add(c, Relaxed);
            self.progress.advance(end - start);
        });
        (positions.into_inner(), children.into_inner())
    }

    /// The second pass, in slot order: a slot holds a value exactly when a canonical position
    /// lives there, the first pass reached it (once: the index ranks each class of positions
    /// in one slot), and the value is the one its children prove. The stored values' counts
    /// are summed as the header reports them, and must be the header's.
    fn compare_slots(&self) {
        let index = &self.index;
        let chunks: Vec<u64> = (0..index.size()).step_by(CHUNK as usize).collect();
        let stats = chunks
            .par_iter()
            .map(|&start| {
                let end = (start + CHUNK).min(index.size());
                let mut stats = SectorStats::default();
                let mut images = ImageCounter::new(index);
                index.for_each_slot(start, end, |slot, pos| {
                    let stored = self.file.cell_unchecked(slot);
                    if let (Some(p), Some(v)) = (&pos, stored) {
                        stats.add(v, images.images(slot, || *p));
                    }
                    self.compare_slot(slot, pos, stored);
                });
                self.progress.advance(end - start);
                stats
            })
            .reduce(SectorStats::default, SectorStats::merge);
        let header = &self.file.header().stats;
        if &stats != header {
            self.faults.lock().unwrap().note(Fault::of_sector(
                self.sector,
                format!(
                    "the header's statistics {} disagree with the payload's {}",
                    header.summary(),
                    stats.summary()
                ),
            ));
        }
    }

    /// Compares one slot's stored cell with what its children prove.
    fn compare_slot(&self, slot: u64, pos: Option<Position>, stored: Option<Value>) {
        let proved = self.expected[slot as usize].load(Relaxed);
        let report = |pos: &Position, message: String| self.report(slot, Some(pos), message);
        match (pos, stored) {
            (None, Some(_)) => self.report(slot, None, "an unused slot holds a value".into()),
            (None, None) if proved != Proved::UNREACHED => self.report(
                slot,
                None,
                "an unused slot is the slot of a position (an index fault)".into(),
            ),
            (None, None) => {}
            (Some(pos), None) => report(&pos, "a canonical position is marked unused".into()),
            (Some(pos), Some(_)) if proved == Proved::UNREACHED => report(
                &pos,
                "no position of the flipped sector leads here (an index fault)".into(),
            ),
            (Some(pos), Some(_)) if proved == Proved::BROKEN => {
                report(&pos, self.why_broken(&pos));
            }
            (Some(pos), Some(stored)) if proved == Proved::TOO_DEEP => report(
                &pos,
                format!("stored {stored}, its children prove a depth no cell holds"),
            ),
            (Some(pos), Some(stored)) => {
                let proved = Proved::value(proved);
                if proved != stored {
                    report(
                        &pos,
                        format!("stored {stored}, its children prove {proved}"),
                    );
                }
            }
        }
    }

    /// Why a position's children could not all be read: the move whose child has no value.
    fn why_broken(&self, pos: &Position) -> String {
        match broken_child(self.db, pos, &self.children) {
            Some((mv, why)) => format!(
                "the result of {} {why}",
                mv.to_notation(self.db.variant().board())
            ),
            // The rows and the index disagree: a bug of this program.
            None => "a child's row has no stored value where the index finds one".into(),
        }
    }
}
