//! Verification: every stored position recomputed from its children by forward move generation.
//!
//! A win must have a losing child one ply shallower and none shallower still; a loss must have
//! only winning children, the deepest one ply shallower (a loss at 0 has no move); a draw must
//! have a drawing child and no losing child. With depths checked, a database that passes is
//! the game's solution, given correct move generation. This deliberately shares nothing with
//! the solver but the rules and the index: no un-moves, no counters, no levels.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rayon::prelude::*;

use crate::db::Database;
use crate::error::Error;
use crate::index::{RowRank, SectorIndex};
use crate::movegen::{for_each_move, play, too_few_pieces, value_without_moves};
use crate::point::{PointSet, MAX_POINTS};
use crate::position::{Color, Position};
use crate::sector::Sector;
use crate::solve::Progress;
use crate::storage::SectorFile;
use crate::value::Value;

/// One thing found wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// The sector where it was found.
    pub sector: Sector,
    /// The position in notation, when the fault is about one position.
    pub position: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for Fault {
    /// `sector S[ position P]: message`, as `verify` lists it after `FAULT `.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "sector {}", self.sector)?;
        if let Some(p) = &self.position {
            write!(f, " position {p}")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// What a verification checked and found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Sectors checked.
    pub sectors: usize,
    /// Canonical positions recomputed.
    pub positions: u64,
    /// Child values read.
    pub children: u64,
    /// Faults found, in sector order; at most the requested number of them.
    pub faults: Vec<Fault>,
    /// All faults found, listed or not.
    pub fault_count: u64,
    /// Sectors not recomputed because their proof record still held (`resume`).
    pub skipped: usize,
}

/// What the proof of one sector relied on: its file's and its dependencies' checksums.
type Relied = Vec<(Sector, u64)>;

/// Where the proof record of `sector` lies: next to its file, as `W-B-WF-BF.proved`.
pub fn proof_path(db: &Database, sector: Sector) -> std::path::PathBuf {
    db.path(sector).with_extension("proved")
}

const PROOF_MAGIC: &str = "morris proof 1";

/// The proof record of a sector, if it has a readable one.
fn read_proof(db: &Database, sector: Sector) -> Option<Relied> {
    let text = std::fs::read_to_string(proof_path(db, sector)).ok()?;
    let mut lines = text.lines();
    if lines.next()? != PROOF_MAGIC {
        return None;
    }
    lines
        .map(|l| {
            let (s, sum) = l.split_once(' ')?;
            Some((s.parse().ok()?, u64::from_str_radix(sum, 16).ok()?))
        })
        .collect()
}

/// Records that `sector` was proved from the files `relied` names (written whole or not at all).
fn write_proof(db: &Database, sector: Sector, relied: &Relied) -> std::io::Result<()> {
    let mut text = format!("{PROOF_MAGIC}\n");
    for (s, sum) in relied {
        text.push_str(&format!("{s} {sum:016x}\n"));
    }
    let path = proof_path(db, sector);
    let part = path.with_extension("proved.part");
    std::fs::write(&part, text)?;
    std::fs::rename(&part, &path)
}

/// Opened sector files, damaged or not, keyed by sector; an error stands for a file that
/// cannot be used at all.
type Files = BTreeMap<Sector, Result<Arc<SectorFile>, String>>;

/// Verifies `sectors` of `db` (and reads, without verifying, what they depend on).
/// Lists at most `max_faults` faults but counts them all. Damage of any kind (unreadable,
/// foreign, truncated or missing files, wrong values) is a fault in the report, never an error.
pub fn verify(
    db: &Database,
    sectors: &[Sector],
    max_faults: usize,
    progress: &dyn Progress,
) -> Report {
    verify_with(db, sectors, max_faults, false, progress)
}

/// [`verify`], and with `resume` each sector found sound is recorded in a proof record (the
/// checksums of its file and of its dependencies' files), and a sector whose record matches
/// the files as they are now is not recomputed again: an interrupted verification goes on
/// where it stopped. Every file's blocks are still checked against their checksums, so a file
/// changed since its proof has another checksum, or a damaged block, and is proved again.
pub fn verify_with(
    db: &Database,
    sectors: &[Sector],
    max_faults: usize,
    resume: bool,
    progress: &dyn Progress,
) -> Report {
    let mut report = Report::default();
    let mut files: Files = BTreeMap::new();
    let variant = db.variant();
    let open = |s: Sector| -> Result<Arc<SectorFile>, String> {
        match db.sector(s) {
            Ok(f) => Ok(f),
            Err(Error::Missing { .. }) => Err(format!(
                "sector {s} is missing ({}); run `{}`",
                db.path(s).display(),
                db.solve_command(&format!("--sector {s}"))
            )),
            Err(e) => Err(e.to_string()),
        }
    };
    for &s in sectors {
        for c in std::iter::once(s).chain(s.successors(variant)) {
            files.entry(c).or_insert_with(|| open(c));
        }
    }
    let mut faults = Faults {
        list: Vec::new(),
        count: 0,
        max: max_faults,
    };
    let mut block_checked = std::collections::BTreeSet::new();
    for &s in sectors {
        report.sectors += 1;
        let faults_before = faults.count;
        let file = match &files[&s] {
            Ok(f) => f.clone(),
            Err(why) => {
                faults.note(Fault {
                    sector: s,
                    position: None,
                    message: why.clone(),
                });
                continue;
            }
        };
        for b in file.check_all_blocks() {
            faults.note(Fault {
                sector: s,
                position: None,
                message: file.block_error(b).to_string(),
            });
        }
        let mut usable = true;
        for c in s.successors(variant) {
            match &files[&c] {
                Err(why) => {
                    faults.note(Fault {
                        sector: s,
                        position: None,
                        message: format!("dependency {why}"),
                    });
                    usable = false;
                }
                // A dependency that is verified too reports its own blocks; the others are
                // checked here, once, since this sector's proof reads them unchecked.
                Ok(f) if !sectors.contains(&c) && block_checked.insert(c) => {
                    for b in f.check_all_blocks() {
                        faults.note(Fault {
                            sector: s,
                            position: None,
                            message: format!("dependency {}", f.block_error(b)),
                        });
                    }
                }
                Ok(_) => {}
            }
        }
        if !usable {
            continue;
        }
        let relied: Relied = std::iter::once(s)
            .chain(s.successors(variant).into_iter().filter(|&c| c != s))
            .filter_map(|c| Some((c, files[&c].as_ref().ok()?.header().checksum)))
            .collect();
        let sound_so_far = faults.count == faults_before;
        if resume && sound_so_far && read_proof(db, s).as_ref() == Some(&relied) {
            report.skipped += 1;
            continue;
        }
        let clock = Instant::now();
        let (positions, children) = verify_sector(db, s, &file, &files, &mut faults, progress);
        let found = faults.count - faults_before;
        progress.sector_checked(s, positions, children, found, clock.elapsed());
        report.positions += positions;
        report.children += children;
        if resume && found == 0 {
            if let Err(e) = write_proof(db, s, &relied) {
                faults.note(Fault {
                    sector: s,
                    position: None,
                    message: format!(
                        "sound, but its proof record {} cannot be written: {e}",
                        proof_path(db, s).display()
                    ),
                });
            }
        }
    }
    report.faults = faults.list;
    report.fault_count = faults.count;
    report
}

/// The faults kept for the report, and the count of all.
struct Faults {
    list: Vec<Fault>,
    count: u64,
    max: usize,
}

impl Faults {
    fn note(&mut self, f: Fault) {
        self.count += 1;
        if self.list.len() < self.max {
            self.list.push(f);
        }
    }
}

/// Marks of the per-group cache of child rows: not looked up yet; the child has too few
/// pieces (lost at once); its sector is not one the proof may read. Smaller values are rows.
const UNKNOWN: u8 = 0xFF;
const WON_AT_ONCE: u8 = 0xFE;
const NO_ROW: u8 = 0xFD;
/// Kinds of children in that cache: by the point removed or none, for placements, then moves.
const KINDS: usize = 2 * (MAX_POINTS + 1);

fn verify_sector(
    db: &Database,
    sector: Sector,
    file: &SectorFile,
    files: &Files,
    faults: &mut Faults,
    progress: &dyn Progress,
) -> (u64, u64) {
    let variant = db.variant();
    let index = db.index(sector);
    let children_of: Vec<(Sector, SectorIndex, Arc<SectorFile>)> = std::iter::once(sector)
        .chain(sector.successors(variant))
        .filter_map(|c| files[&c].as_ref().ok().map(|f| (c, db.index(c), f.clone())))
        .collect();
    let found = Mutex::new(faults);
    let positions = AtomicU64::new(0);
    let children = AtomicU64::new(0);
    let report = |slot: u64, pos: Option<&Position>, message: String| {
        let position = pos.map(|p| p.to_notation(variant, p.turn_from_hands(Color::White)));
        found.lock().unwrap().note(Fault {
            sector,
            position,
            message: format!("slot {slot}: {message}"),
        });
    };
    let flipped = SectorIndex::new(db.orbits().clone(), sector.flipped());
    progress.phase(&format!("verify {sector}"), index.size() + flipped.size());
    const CHUNK: u64 = 1 << 14;
    // First, slot order: a slot holds a value exactly when a canonical position lives there.
    let chunks: Vec<u64> = (0..index.size()).step_by(CHUNK as usize).collect();
    chunks.par_iter().for_each(|&start| {
        let end = (start + CHUNK).min(index.size());
        index.for_each_slot(start, end, |slot, pos| {
            match (pos, file.cell_unchecked(slot)) {
                (None, Some(_)) => report(slot, None, "an unused slot holds a value".into()),
                (Some(pos), None) => report(
                    slot,
                    Some(&pos),
                    "a canonical position is marked unused".into(),
                ),
                _ => {}
            }
        });
        progress.advance(end - start);
    });
    // Then each position from its children, taken grouped by the opponent's set (as the
    // flipped sector's slots run): a child's mover set is that set, or it less a removed
    // piece, so the rows children fall in change only with it, and their reads hit the cache.
    let chunks: Vec<u64> = (0..flipped.size()).step_by(CHUNK as usize).collect();
    chunks.par_iter().for_each(|&start| {
        let end = (start + CHUNK).min(flipped.size());
        let (mut n, mut c) = (0u64, 0u64);
        // The rows of the children of the current opponent set, by child mover set, with
        // where each point lands in the row.
        let mut rows: Vec<(PointSet, Sector, usize, RowRank, [u8; 32])> = Vec::new();
        let mut rows_of = PointSet::EMPTY;
        // The row of each kind of child, once found: a placement or a move, removing a given
        // point or none. Within the group, every child of one kind has the same counts of
        // pieces (one sector) and the same mover set (the opponent set, less the point
        // removed): one row.
        let mut kind_rows = [UNKNOWN; KINDS];
        // The ranks of the position's mover set plus one place, in the row `one_more_row`:
        // the children of placements without a removal, ranked in O(1) each.
        let mut one_more = db.orbits().one_more();
        flipped.for_each_slot(start, end, |_, q| {
            let Some(q) = q else { return };
            let pos = q.flipped();
            let slot = index.index(&pos);
            // The stored value lies anywhere in the file: fetched while the children are
            // worked out, and read after them.
            file.prefetch(slot);
            let mut moves = 0;
            if pos.opponent != rows_of {
                rows.clear();
                rows_of = pos.opponent;
                kind_rows = [UNKNOWN; KINDS];
            }
            let mut shortest_loss: Option<u32> = None;
            let mut deepest_win: Option<u32> = None;
            let mut draw = false;
            let mut any = false;
            let mut broken: Option<(crate::Move, String)> = None;
            let mut one_more_row = usize::MAX;
            for_each_move(variant, &pos, |mv| {
                any = true;
                moves += 1;
                let child = play(&pos, mv);
                let kind = mv.removed().map_or(MAX_POINTS, |r| r.index())
                    + (MAX_POINTS + 1) * mv.from().is_some() as usize;
                if kind_rows[kind] == UNKNOWN {
                    kind_rows[kind] = if too_few_pieces(&child) {
                        WON_AT_ONCE
                    } else {
                        // Placements and moves (Lasker) may lead to two sectors with one
                        // mover set.
                        let s = Sector::of(&child);
                        let found = rows.iter().position(|r| r.0 == child.mover && r.1 == s);
                        found
                            .or_else(|| {
                                let j = children_of.iter().position(|x| x.0 == s)?;
                                let rank = children_of[j].1.row_of(child.mover);
                                let places = rank.places_of_points();
                                rows.push((child.mover, s, j, rank, places));
                                Some(rows.len() - 1)
                            })
                            .map_or(NO_ROW, |k| k as u8)
                    };
                }
                let value = match kind_rows[kind] {
                    WON_AT_ONCE => Some(Value::Loss(0)),
                    // Reported as a child without a stored value.
                    NO_ROW => None,
                    k => {
                        let k = k as usize;
                        let (_, _, j, rank, places) = &rows[k];
                        // A placement without a removal adds one point to the mover set,
                        // which becomes the child's opponent set.
                        let plain = mv.from().is_none() && mv.removed().is_none();
                        let child_slot = if plain && !rank.stabilised() {
                            if one_more_row != k {
                                let x = pos
                                    .mover
                                    .iter()
                                    .fold(0u32, |x, p| x | 1 << places[p.index()]);
                                one_more.set(x);
                                one_more_row = k;
                            }
                            rank.base() + one_more.rank(places[mv.to().index()] as u32)
                        } else {
                            rank.slot(rank.map(child.opponent))
                        };
                        children_of[*j].2.cell_unchecked(child_slot)
                    }
                };
                match value {
                    Some(Value::Loss(d)) => {
                        shortest_loss = Some(shortest_loss.map_or(d, |x| x.min(d)))
                    }
                    Some(Value::Win(d)) => deepest_win = Some(deepest_win.map_or(d, |x| x.max(d))),
                    Some(Value::Draw) => draw = true,
                    None => broken = Some((mv, "has no stored value".into())),
                }
            });
            let Some(stored) = file.cell_unchecked(slot) else {
                // Reported by the first pass.
                return;
            };
            n += 1;
            c += moves;
            if let Some((mv, why)) = broken {
                let name = mv.to_notation(variant.board());
                report(slot, Some(&pos), format!("the result of {name} {why}"));
                return;
            }
            let expected = if !any {
                value_without_moves(variant, &pos)
            } else if let Some(d) = shortest_loss {
                Value::Win(d + 1)
            } else if draw {
                Value::Draw
            } else {
                Value::Loss(deepest_win.map_or(0, |d| d + 1))
            };
            if expected != stored {
                report(
                    slot,
                    Some(&pos),
                    format!("stored {stored}, its children prove {expected}"),
                );
            }
        });
        positions.fetch_add(n, Relaxed);
        children.fetch_add(c, Relaxed);
        progress.advance(end - start);
    });
    (positions.into_inner(), children.into_inner())
}
