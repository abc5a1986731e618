//! Verification: every stored position recomputed from its children by forward move generation.
//!
//! A win must have a losing child one ply shallower and none shallower still; a loss must have
//! only winning children, the deepest one ply shallower (a loss at 0 has no move); a draw must
//! have a drawing child and no losing child. With depths checked, a database that passes is
//! the game's solution, given correct move generation. This deliberately shares nothing with
//! the solver but the rules and the index: no un-moves, no counters, no levels.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rayon::prelude::*;

use crate::error::Error;
use crate::kernel::{prefetch, AtomicArray};
use crate::progress::Progress;
use crate::rules::Move;
use crate::rules::Value;
use crate::rules::Variant;
use crate::rules::{
    for_each_move, full_board_draw, play, removable, too_few_pieces, value_without_moves,
};
use crate::rules::{Color, Position};
use crate::rules::{Point, PointSet, MAX_POINTS};
use crate::space::Sector;
use crate::space::{OneMore, Orbits, RowRank, SectorIndex};
use crate::store::Database;
use crate::store::{decode_code, Cell, Row, SectorFile};

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
    prove(db, sectors, max_faults, resume, false, progress)
}

/// [`verify_with`]; with `generic` every position's children come move by move from
/// [`for_each_move`], placements too (the tests hold [`Placements`] to that).
fn prove(
    db: &Database,
    sectors: &[Sector],
    max_faults: usize,
    resume: bool,
    generic: bool,
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
        let (positions, children) =
            verify_sector(db, s, &file, &files, &mut faults, generic, progress);
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

/// A sector the proof may read: its index, its file and how its cells become keys.
type Child = (Sector, SectorIndex, Arc<SectorFile>, Keys);

// The solver's placement rows rank children the same way (`solve::placement`); this is
// written again on purpose: the proof shares nothing with the solver but the rules and the
// index, so that a mistake in one is caught by the other.

/// Children ordered by what they are worth to the parent, smaller better: a child's loss at
/// depth d is key d, a draw [`DRAW_KEY`], a child's win at depth d `WIN_KEY + (0xFFFF - d)`
/// (the longest win best), and a child without a stored value [`BAD_KEY`].
const DRAW_KEY: u32 = 0x1_0000;
const WIN_KEY: u32 = 0x2_0000;
const BAD_KEY: u32 = 0x4_0000;

/// The key of a child's cell.
fn key_of(cell: Cell) -> u32 {
    match cell {
        Some(Value::Loss(d)) => d,
        Some(Value::Draw) => DRAW_KEY,
        Some(Value::Win(d)) => WIN_KEY + (0xFFFF - d),
        None => BAD_KEY,
    }
}

/// The value a position has when its best child (by key, none without a stored value) has
/// the key `best`.
fn value_of_best(best: u32) -> Value {
    if best < DRAW_KEY {
        Value::Win(best + 1)
    } else if best == DRAW_KEY {
        Value::Draw
    } else {
        Value::Loss(0xFFFF - (best - WIN_KEY) + 1)
    }
}

/// Codes of what the children prove for a slot: not reached yet, a child without a stored
/// value, a draw, a depth beyond what any cell holds (children as deep as the widest cells
/// allow), then depth d as d + [`DEPTH_BASE`] (odd depths win).
const UNREACHED: u16 = 0;
const BROKEN: u16 = 1;
const DRAW_CODE: u16 = 2;
const TOO_DEEP: u16 = 3;
const DEPTH_BASE: u32 = 4;

/// The code of a proved value.
fn code_of(value: Value) -> u16 {
    match value {
        Value::Draw => DRAW_CODE,
        Value::Win(d) | Value::Loss(d) => u16::try_from(d + DEPTH_BASE).unwrap_or(TOO_DEEP),
    }
}

/// The value of a code of [`code_of`] (not [`UNREACHED`], [`BROKEN`] or [`TOO_DEEP`]).
fn value_of_code(code: u16) -> Value {
    if code == DRAW_CODE {
        Value::Draw
    } else {
        Value::from_depth(code as u32 - DEPTH_BASE)
    }
}

/// How the codes of one file's cells become keys: the one-byte codes by a table made from
/// their decoding, the two-byte ones worked out without a branch ([`wide_key`]).
enum Keys {
    Narrow(Box<[u32; 256]>),
    Wide,
}

impl Keys {
    fn of(file: &SectorFile) -> Keys {
        match file.header().cell_width {
            1 => Keys::Narrow(Box::new(std::array::from_fn(|c| {
                key_of(decode_code(c as u16, 1))
            }))),
            _ => Keys::Wide,
        }
    }

    #[inline]
    fn key(&self, code: u16) -> u32 {
        match self {
            Keys::Narrow(table) => table[code as usize & 0xFF],
            Keys::Wide => wide_key(code),
        }
    }
}

/// [`key_of`] of a two-byte code: odd depths are wins, even ones losses, and the two largest
/// codes stand for an unused slot and a draw (a test holds this to [`decode_code`]).
#[inline]
fn wide_key(code: u16) -> u32 {
    let d = code as u32;
    let depth_key = if d & 1 == 1 {
        WIN_KEY + (0xFFFF - d)
    } else {
        d
    };
    let key = if d == 0xFFFF { DRAW_KEY } else { depth_key };
    if d == 0xFFFE {
        BAD_KEY
    } else {
        key
    }
}

/// The first move of `pos` whose child has no stored value, found the plain way (its sector
/// and its slot by the index), with why: the fast path found one and the report names it.
fn broken_child(
    db: &Database,
    pos: &Position,
    children_of: &[Child],
) -> Option<(crate::Move, String)> {
    let mut broken = None;
    for_each_move(db.variant(), pos, |mv| {
        let child = play(pos, mv);
        if broken.is_some() || too_few_pieces(&child) {
            return;
        }
        let s = Sector::of(&child);
        broken = match children_of.iter().find(|c| c.0 == s) {
            None => Some((
                mv,
                format!("is in sector {s}, which the proof may not read"),
            )),
            Some(c) => {
                let slot = c.1.index(&child);
                c.2.cell_unchecked(slot)
                    .is_none()
                    .then(|| (mv, format!("has no stored value (slot {slot} of {s})")))
            }
        };
    });
    broken
}

/// One row of a child sector, as the proof reads it: how opponent sets rank in it, where each
/// point lands in it, and its cells with how they become keys.
struct ChildRow<'a> {
    rank: RowRank<'a>,
    places: [u8; 32],
    cells: Row<'a>,
    keys: &'a Keys,
}

impl<'a> ChildRow<'a> {
    /// The row of the positions whose mover set is `mover` in sector `s`, `None` when the
    /// proof may not read `s`.
    fn of(children_of: &'a [Child], s: Sector, mover: PointSet) -> Option<ChildRow<'a>> {
        let (_, index, file, keys) = children_of.iter().find(|x| x.0 == s)?;
        let rank = index.row_of(mover);
        Some(ChildRow {
            places: rank.places_of_points(),
            // Unchecked: a damaged block of any file the proof reads is reported before.
            cells: file.row_unchecked(rank.base(), index.stride()),
            keys,
            rank,
        })
    }

    /// The key of the child whose opponent set is `set` (its mover set is the row's).
    #[inline]
    fn key_of_set(&self, set: PointSet) -> u32 {
        self.key_at(self.rank.slot(self.rank.map(set)) - self.rank.base())
    }

    /// The key of the cell `at` places after the row's start.
    #[inline]
    fn key_at(&self, at: u64) -> u32 {
        self.keys.key(self.cells.code(at as usize))
    }

    /// The places in the row of the points of `set`, as bits.
    #[inline]
    fn places_of(&self, set: PointSet) -> u32 {
        set.iter().fold(0, |x, p| x | 1 << self.places[p.index()])
    }
}

/// The children of positions whose mover may only place, worked out for all placements of a
/// position at once. Such a position (M to move, O the opponent) leads to (O, M + p) for each
/// empty point p, or, where M + p closes a mill, to (O - r, M + p) for each piece r the rules
/// let it take. Positions come grouped by O (the flipped sector's rows), so the child rows
/// (that of O, those of each O - r) are found once per group, and the children without a
/// removal, all in one row, are ranked together ([`OneMore`]). It finds what [`for_each_move`]
/// generates (a test holds the two to the same faults), rule by rule: mills by
/// [`crate::rules::Board::closing_points`], removals by [`removable`]. (The opponent must
/// keep three pieces: a plain placement then never leaves its mover with too few.)
struct Placements<'a> {
    variant: &'a Variant,
    orbits: &'a Orbits,
    children_of: &'a [Child],
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
    fn new(variant: &'a Variant, orbits: &'a Orbits, children_of: &'a [Child]) -> Self {
        Placements {
            variant,
            orbits,
            children_of,
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
        self.plain = Some(ChildRow::of(self.children_of, s, plain.mover));
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
                    .push(ChildRow::of(self.children_of, s, child.mover));
            }
        }
    }

    /// The code of what the children of `pos` prove (see [`code_of`]), and how many there are.
    #[inline]
    fn prove(&mut self, pos: &Position) -> (u16, u64) {
        let variant = self.variant;
        if too_few_pieces(pos) || full_board_draw(variant, pos) {
            return (code_of(value_without_moves(variant, pos)), 0);
        }
        let empty = pos.empty(variant);
        let Some(first) = empty.iter().next() else {
            return (code_of(value_without_moves(variant, pos)), 0);
        };
        if self.opponent != Some(pos.opponent) {
            self.opponent = Some(pos.opponent);
            self.plain = None;
        }
        if self.plain.is_none() {
            self.find_rows(pos, first);
        }
        let Some(Some(plain)) = &self.plain else {
            return (BROKEN, empty.len() as u64);
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
                    take(BAD_KEY);
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
        let code = if bad & BAD_KEY != 0 {
            BROKEN
        } else {
            code_of(value_of_best(best))
        };
        (code, moves)
    }
}

fn verify_sector(
    db: &Database,
    sector: Sector,
    file: &SectorFile,
    files: &Files,
    faults: &mut Faults,
    generic: bool,
    progress: &dyn Progress,
) -> (u64, u64) {
    let variant = db.variant();
    let index = db.index(sector);
    let children_of: Vec<Child> = std::iter::once(sector)
        .chain(sector.successors(variant))
        .filter_map(|c| {
            let f = files[&c].as_ref().ok()?;
            Some((c, db.index(c), f.clone(), Keys::of(f)))
        })
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
    let orbits = db.orbits();
    let flipped = SectorIndex::new(orbits.clone(), sector.flipped());
    progress.phase(&format!("verify {sector}"), index.size() + flipped.size());
    const CHUNK: u64 = 1 << 14;
    // What the children prove for each slot (see [`code_of`]), in working memory that
    // takes the scattered writes of the first pass; an unmappable array is a fault, since
    // the proof cannot run without it.
    let expected = match AtomicArray::<AtomicU16>::zeroed(index.size() as usize) {
        Ok(a) => a,
        Err(e) => {
            found.lock().unwrap().note(Fault {
                sector,
                position: None,
                message: format!("cannot be proved: {e}"),
            });
            return (0, 0);
        }
    };
    // First each position from its children, taken grouped by the opponent's set (as the
    // flipped sector's slots run): a child's mover set is that set, or it less a removed
    // piece, so the rows children fall in change only with it, and their reads hit the cache.
    // Where the mover may only place, its children are worked out a row at a time
    // ([`Placements`]), the cost of most of the game; elsewhere move by move.
    let rules = variant.rules();
    let placing = !generic
        && rules.may_place(sector.mover_hand)
        && !rules.may_move(sector.mover_hand)
        && sector.opponent + sector.opponent_hand >= 3;
    let chunks: Vec<u64> = (0..flipped.size()).step_by(CHUNK as usize).collect();
    chunks.par_iter().for_each(|&start| {
        let end = (start + CHUNK).min(flipped.size());
        let (mut n, mut c) = (0u64, 0u64);
        // The rows of the children of the current opponent set, by child mover set, with
        // where each point lands in the row.
        let mut rows: Vec<(PointSet, Sector, ChildRow)> = Vec::new();
        let mut rows_of = PointSet::EMPTY;
        // The row of each kind of child, once found: a placement or a move, removing a given
        // point or none. Within the group, every child of one kind has the same counts of
        // pieces (one sector) and the same mover set (the opponent set, less the point
        // removed): one row.
        let mut kind_rows = [UNKNOWN; KINDS];
        // The ranks of the position's mover set plus one place, in the row `one_more_row`:
        // the children of placements without a removal, ranked in O(1) each.
        let mut one_more = orbits.one_more();
        // The places of a parent's mover set in each row (by the row's index in `rows`),
        // and the parent they were worked out for (counted in `parent`).
        let mut mover_in = [0u32; KINDS];
        let mut mover_of = [0u64; KINDS];
        let mut parent = 0u64;
        let mut placements = Placements::new(variant, orbits, &children_of);
        flipped.for_each_slot(start, end, |_, q| {
            let Some(q) = q else { return };
            let pos = q.flipped();
            let slot = index.index(&pos);
            // The slot lies anywhere in the sector: fetched while the children are worked
            // out, and written after them.
            prefetch(&expected[slot as usize]);
            if placing {
                let (code, moves) = placements.prove(&pos);
                n += 1;
                c += moves;
                expected[slot as usize].store(code, Relaxed);
                return;
            }
            let mut moves = 0;
            if pos.opponent != rows_of {
                rows.clear();
                rows_of = pos.opponent;
                kind_rows = [UNKNOWN; KINDS];
            }
            // The best child so far by key (smaller is better for the mover), and whether a
            // child had no stored value: branch-free, so that the children's reads overlap.
            let mut best = u32::MAX;
            let mut bad = 0u32;
            let mut one_more_row = usize::MAX;
            // A new parent: the mover sets worked out in `mover_in` are the last one's.
            parent += 1;
            for_each_move(variant, &pos, |mv| {
                moves += 1;
                let kind = mv.removed().map_or(MAX_POINTS, |r| r.index())
                    + (MAX_POINTS + 1) * mv.from().is_some() as usize;
                if kind_rows[kind] == UNKNOWN {
                    let child = play(&pos, mv);
                    kind_rows[kind] = if too_few_pieces(&child) {
                        WON_AT_ONCE
                    } else {
                        // Placements and moves (Lasker) may lead to two sectors with one
                        // mover set.
                        let s = Sector::of(&child);
                        let found = rows.iter().position(|r| r.0 == child.mover && r.1 == s);
                        found
                            .or_else(|| {
                                let row = ChildRow::of(&children_of, s, child.mover)?;
                                rows.push((child.mover, s, row));
                                Some(rows.len() - 1)
                            })
                            .map_or(NO_ROW, |k| k as u8)
                    };
                }
                let key = match kind_rows[kind] {
                    WON_AT_ONCE => 0,
                    NO_ROW => BAD_KEY,
                    k => {
                        let k = k as usize;
                        let (_, _, row) = &rows[k];
                        let (rank, places) = (&row.rank, &row.places);
                        // A placement adds one point to the mover set, which becomes the
                        // child's opponent set: its rank comes from the mover set's places
                        // in the child's row, worked out once per parent and row.
                        let child_slot = if mv.from().is_none() && !rank.stabilised() {
                            if mover_of[k] != parent {
                                mover_of[k] = parent;
                                mover_in[k] = pos
                                    .mover
                                    .iter()
                                    .fold(0u32, |x, p| x | 1 << places[p.index()]);
                            }
                            let to = places[mv.to().index()] as u32;
                            if mv.removed().is_none() {
                                // Without a removal, every placement shares the row: O(1) each.
                                if one_more_row != k {
                                    one_more.set(mover_in[k]);
                                    one_more_row = k;
                                }
                                rank.base() + one_more.rank(to)
                            } else {
                                rank.base() + orbits.colex(mover_in[k] | 1 << to)
                            }
                        } else {
                            rank.slot(rank.map(play(&pos, mv).opponent))
                        };
                        row.key_at(child_slot - rank.base())
                    }
                };
                best = best.min(key);
                bad |= key & BAD_KEY;
            });
            n += 1;
            c += moves;
            let code = if bad != 0 {
                BROKEN
            } else if moves == 0 {
                code_of(value_without_moves(variant, &pos))
            } else {
                code_of(value_of_best(best))
            };
            expected[slot as usize].store(code, Relaxed);
        });
        positions.fetch_add(n, Relaxed);
        children.fetch_add(c, Relaxed);
        progress.advance(end - start);
    });
    // Then slot order: a slot holds a value exactly when a canonical position lives there,
    // the first pass reached it (once: the index ranks each class of positions in one slot),
    // and the value is the one its children prove.
    let chunks: Vec<u64> = (0..index.size()).step_by(CHUNK as usize).collect();
    chunks.par_iter().for_each(|&start| {
        let end = (start + CHUNK).min(index.size());
        index.for_each_slot(start, end, |slot, pos| {
            let proved = expected[slot as usize].load(Relaxed);
            match (pos, file.cell_unchecked(slot)) {
                (None, Some(_)) => report(slot, None, "an unused slot holds a value".into()),
                (None, None) if proved != UNREACHED => report(
                    slot,
                    None,
                    "an unused slot is the slot of a position (an index fault)".into(),
                ),
                (None, None) => {}
                (Some(pos), None) => report(
                    slot,
                    Some(&pos),
                    "a canonical position is marked unused".into(),
                ),
                (Some(pos), Some(_)) if proved == UNREACHED => report(
                    slot,
                    Some(&pos),
                    "no position of the flipped sector leads here (an index fault)".into(),
                ),
                (Some(pos), Some(_)) if proved == BROKEN => {
                    let message = match broken_child(db, &pos, &children_of) {
                        Some((mv, why)) => {
                            format!("the result of {} {why}", mv.to_notation(variant.board()))
                        }
                        // The rows and the index disagree: a bug of this program.
                        None => {
                            "a child's row has no stored value where the index finds one".into()
                        }
                    };
                    report(slot, Some(&pos), message);
                }
                (Some(pos), Some(stored)) if proved == TOO_DEEP => report(
                    slot,
                    Some(&pos),
                    format!("stored {stored}, its children prove a depth no cell holds"),
                ),
                (Some(pos), Some(stored)) => {
                    let proved = value_of_code(proved);
                    if proved != stored {
                        report(
                            slot,
                            Some(&pos),
                            format!("stored {stored}, its children prove {proved}"),
                        );
                    }
                }
            }
        });
        progress.advance(end - start);
    });
    (positions.into_inner(), children.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Silent;
    use crate::rules::Removal;
    use crate::solve::solve_unit;
    use crate::space::plan;

    /// The placements of whole games, proved a row at a time, find what move-by-move
    /// generation finds, position by position: on sound files (nothing), and on files with
    /// cells overwritten (the same faults, each naming the same position and values), under
    /// each removal rule.
    #[test]
    fn placements_prove_what_moves_prove() {
        let cases = [
            ("five", Removal::Standard),
            ("five", Removal::Strict),
            ("six", Removal::Lenient),
            ("six-diag", Removal::Standard),
            ("three", Removal::Standard),
        ];
        for (name, removal) in cases {
            let (variant, dir, db) = crate::store::scratch("verify-placements", name, removal);
            let units = plan(&variant, &[Sector::start(&variant)]);
            for unit in &units {
                solve_unit(&db, unit, &Silent).unwrap();
            }
            let rules = variant.rules();
            let placing: Vec<Sector> = units
                .iter()
                .flat_map(|u| u.sectors.iter().copied())
                .filter(|s| rules.may_place(s.mover_hand) && !rules.may_move(s.mover_hand))
                .collect();
            assert!(
                placing.len() > 5,
                "{name}: {} placement sectors",
                placing.len()
            );
            let both = |db: &Database| {
                let mut fast = prove(db, &placing, usize::MAX, false, false, &Silent);
                let mut slow = prove(db, &placing, usize::MAX, false, true, &Silent);
                // Slots are proved in parallel: faults come in any order within a sector.
                for r in [&mut fast, &mut slow] {
                    r.faults.sort_by_key(|f| f.to_string());
                }
                assert_eq!(fast.fault_count, slow.fault_count, "{name} {removal}");
                let differ = fast.faults.iter().zip(&slow.faults).find(|(a, b)| a != b);
                assert_eq!(differ, None, "{name} {removal}: rows, then moves");
                assert_eq!(fast.children, slow.children, "{name} {removal}");
                fast.fault_count
            };
            assert_eq!(both(&db), 0, "{name} {removal}: sound files");
            // Overwrite every 61st byte of each sector's payload (a cell: these games' cells
            // are one byte) with another value, so that parents and children disagree all over it.
            let mut rng = 0x9E37_79B9_7F4A_7C15u64;
            for &s in &placing {
                let path = db.path(s);
                let payload = db.sector(s).unwrap().header().payload_offset() as usize;
                db.forget();
                let mut bytes = std::fs::read(&path).unwrap();
                for b in bytes[payload..].iter_mut().step_by(61) {
                    rng = rng
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    *b = (rng >> 56) as u8;
                }
                std::fs::write(&path, bytes).unwrap();
            }
            let db = Database::new(&dir, &variant).unwrap();
            let found = both(&db);
            assert!(
                found > 10,
                "{name} {removal}: {found} faults in overwritten cells"
            );
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }

    /// Two-byte codes become the keys their decoded cells have, every one of them.
    #[test]
    fn wide_keys_are_the_keys_of_decoded_cells() {
        for code in 0..=u16::MAX {
            assert_eq!(wide_key(code), key_of(decode_code(code, 2)), "code {code}");
        }
    }

    /// The best child's key gives the parent's value, and proved values survive their codes.
    #[test]
    fn best_keys_and_codes_of_values() {
        assert_eq!(value_of_best(key_of(Some(Value::Loss(0)))), Value::Win(1));
        assert_eq!(value_of_best(key_of(Some(Value::Draw))), Value::Draw);
        assert_eq!(value_of_best(key_of(Some(Value::Win(5)))), Value::Loss(6));
        // A shallower loss beats a draw, a draw beats every win, a longer win is better.
        assert!(key_of(Some(Value::Loss(8))) < key_of(Some(Value::Draw)));
        assert!(key_of(Some(Value::Draw)) < key_of(Some(Value::Win(1))));
        assert!(key_of(Some(Value::Win(9))) < key_of(Some(Value::Win(3))));
        assert!(key_of(None) > key_of(Some(Value::Win(1))));
        for v in [
            Value::Draw,
            Value::Loss(0),
            Value::Win(1),
            Value::Loss(65530),
        ] {
            assert_eq!(value_of_code(code_of(v)), v);
        }
        assert_eq!(code_of(Value::Loss(65534)), TOO_DEEP);
    }
}
