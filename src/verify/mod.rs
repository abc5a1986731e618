//! Verification: every stored position recomputed from its children by forward move generation.
//!
//! A win must have a losing child one ply shallower and none shallower still; a loss must have
//! only winning children, the deepest one ply shallower (a loss at 0 has no move); a draw must
//! have a drawing child and no losing child. With depths checked, a database that passes is
//! the game's solution, given correct move generation. This deliberately shares nothing with
//! the solver but the rules and the index: no un-moves, no counters, no levels.

mod fault;
mod moves;
mod placements;
mod record;
mod rows;
mod sector;

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

pub use fault::Fault;
use fault::{Faults, Files, Unusable};

use crate::error::Error;
use crate::progress::Progress;
use crate::space::Sector;
use crate::store::Database;
pub use record::proof_path;
use record::{read_proof, write_proof, Relied};
use sector::verify_sector;

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
    /// Whether the proof was stopped on request ([`Progress::cancelled`]) before every sector
    /// was proved: the sectors counted were proved, the rest not.
    pub cancelled: bool,
    /// The count of faults of each sector that has any, dependencies first: a sector's wrong
    /// values make its parents' values disagree with them, so the first sector listed is the
    /// one to look at first.
    pub by_sector: Vec<(Sector, u64)>,
}

impl Fault {
    /// A fault of a whole sector (its file, its header, its dependencies).
    fn of_sector(sector: Sector, message: String) -> Fault {
        Fault {
            sector,
            position: None,
            message,
            missing: None,
        }
    }
}

/// Verifies `sectors` of `db` (and reads, without verifying, what they depend on).
/// Lists at most `max_faults` faults but counts them all. Damage of any kind (unreadable,
/// foreign, truncated or missing files, wrong values) is a fault in the report, never an error.
#[must_use]
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
#[must_use]
pub fn verify_with(
    db: &Database,
    sectors: &[Sector],
    max_faults: usize,
    resume: bool,
    progress: &dyn Progress,
) -> Report {
    prove(
        db,
        sectors,
        max_faults,
        resume,
        false,
        DECODED_BYTES,
        progress,
    )
}

/// [`verify_with`]; with `generic` every position's children come move by move from
/// [`crate::rules::for_each_move`], placements too (the tests hold the row-at-a-time proof of
/// placements to that).
fn prove(
    db: &Database,
    sectors: &[Sector],
    max_faults: usize,
    resume: bool,
    generic: bool,
    budget: u64,
    progress: &dyn Progress,
) -> Report {
    let order = dependencies_first(db, sectors);
    let sectors = &order[..];
    let (files, later) = open_files(db, sectors);
    let mut uses: BTreeMap<Sector, usize> = BTreeMap::new();
    for &s in sectors {
        for c in read_by(db, s) {
            *uses.entry(c).or_default() += 1;
        }
    }
    let mut proof = Proof {
        db,
        sectors,
        files,
        later,
        uses,
        budget,
        damaged: BTreeMap::new(),
        faults: Faults {
            list: Vec::new(),
            count: 0,
            max: max_faults,
            by_sector: BTreeMap::new(),
        },
        report: Report::default(),
        resume,
        generic,
        progress,
    };
    proof.check_blocks();
    for &s in sectors {
        if progress.cancelled() {
            proof.report.cancelled = true;
            break;
        }
        proof.load(s);
        proof.prove_sector(s);
        proof.done_with(s);
    }
    let mut report = proof.report;
    report.faults = proof.faults.list;
    report.fault_count = proof.faults.count;
    report.by_sector = sectors
        .iter()
        .filter_map(|s| Some((*s, *proof.faults.by_sector.get(s)?)))
        .collect();
    report
}

/// `sectors` in the order of a plan (the sectors each depends on before it), so that the faults
/// of a sector come before those its wrong values cause in its parents.
fn dependencies_first(db: &Database, sectors: &[Sector]) -> Vec<Sector> {
    let asked: BTreeSet<Sector> = sectors.iter().copied().collect();
    let mut order: Vec<Sector> = crate::space::plan(db.variant(), sectors)
        .into_iter()
        .flat_map(|u| u.sectors)
        .filter(|s| asked.contains(s))
        .collect();
    // A sector no plan holds (no game reaches it) still gets its fault, last.
    let planned: BTreeSet<Sector> = order.iter().copied().collect();
    order.extend(asked.difference(&planned));
    order
}

/// `s` and the sectors its proof reads, each once.
fn read_by(db: &Database, s: Sector) -> BTreeSet<Sector> {
    std::iter::once(s)
        .chain(s.successors(db.variant()))
        .collect()
}

/// The sectors that the proof of `sectors` reads and that are held as win/draw/loss tables
/// without their depth files: the proof checks every depth, so it cannot be made from them.
/// A sector that cannot be opened is left out (the proof reports it).
pub fn without_depths(db: &Database, sectors: &[Sector]) -> Vec<Sector> {
    let read: BTreeSet<Sector> = sectors.iter().flat_map(|&s| read_by(db, s)).collect();
    (read.into_iter())
        .filter(|&s| db.sector(s).is_ok_and(|v| !v.has_distances()))
        .collect()
}

/// Why the files of sector `s` cannot be used, from the error opening them.
fn unusable(db: &Database, s: Sector, e: Error) -> Unusable {
    match e {
        Error::Missing(_) => Unusable {
            why: format!("sector {s} is missing ({})", db.path(s).display()),
            missing: Some(s),
        },
        Error::NoDistance { .. } => Unusable {
            why: format!(
                "sector {s} is held without its depth table ({}), and the proof checks every depth",
                db.path(s).display()
            ),
            missing: None,
        },
        e => Unusable {
            why: e.to_string(),
            missing: None,
        },
    }
}

/// Opens the files of `sectors` and of every sector they depend on: sector files in place
/// (mapped); tables opened and every block checked, but decoded only when a proof reads them
/// (the second set), so that a proof from tables holds the cells of a few sectors at a time,
/// not those of the whole game.
fn open_files(db: &Database, sectors: &[Sector]) -> (Files, BTreeSet<Sector>) {
    let mut files = Files::new();
    let mut later = BTreeSet::new();
    for &s in sectors {
        for c in read_by(db, s) {
            if files.contains_key(&c) || later.contains(&c) {
                continue;
            }
            if !db.held_as_tables(c) {
                files.insert(c, db.rows(c).map_err(|e| unusable(db, c, e)));
                continue;
            }
            let fault = match db.sector(c) {
                Ok(values) => values.faults().into_iter().next(),
                Err(e) => Some(e),
            };
            db.release(c);
            match fault {
                None => {
                    later.insert(c);
                }
                Some(e) => {
                    files.insert(c, Err(unusable(db, c, e)));
                }
            }
        }
    }
    (files, later)
}

/// The decoded tables a proof keeps for later readers, in bytes, beyond those the sector at
/// hand reads: a proof from tables holds at most about this much more than one sector and its
/// dependencies, decoding again what it freed.
const DECODED_BYTES: u64 = 6 << 30;

/// A verification under way.
struct Proof<'a> {
    db: &'a Database,
    sectors: &'a [Sector],
    /// The sectors open now: sector files, tables decoded for the proof at hand, and those
    /// that cannot be used.
    files: Files,
    /// Sectors held as tables, sound, decoded only while a proof reads them.
    later: BTreeSet<Sector>,
    /// How many sectors still to prove read each sector (itself included).
    uses: BTreeMap<Sector, usize>,
    /// The bytes of decoded tables kept for later readers ([`DECODED_BYTES`]).
    budget: u64,
    /// The damaged blocks of every file read, by sector; the dependencies' are reported once.
    damaged: BTreeMap<Sector, Vec<u64>>,
    faults: Faults,
    report: Report,
    resume: bool,
    generic: bool,
    progress: &'a dyn Progress,
}

impl Proof<'_> {
    /// Checks every block of every file the proof reads, before any value is proved: a
    /// damaged file is named as the cause, first, rather than the sectors that read it. The
    /// files verified report their own unusable files and damaged blocks here.
    fn check_blocks(&mut self) {
        for (&s, file) in &self.files {
            if let Ok(f) = file {
                self.damaged.insert(s, f.check_all_blocks());
            }
        }
        for &s in self.sectors {
            match self.files.get(&s) {
                // Tables, checked and sound: decoded when proved.
                None => {}
                Some(Err(u)) => self.faults.note(Fault {
                    missing: u.missing,
                    ..Fault::of_sector(s, u.why.clone())
                }),
                Some(Ok(f)) => {
                    for &b in &self.damaged[&s] {
                        self.faults
                            .note(Fault::of_sector(s, f.block_error(b).to_string()));
                    }
                }
            }
        }
    }

    /// Decodes the tables that the proof of `s` reads (`s` and its dependencies) and that
    /// are not decoded yet, first freeing decoded tables it does not read while they hold more
    /// than [`DECODED_BYTES`] (those are decoded again when a later proof reads them).
    fn load(&mut self, s: Sector) {
        let needed = read_by(self.db, s);
        let decoded = |files: &Files, later: &BTreeSet<Sector>| -> u64 {
            files
                .iter()
                .filter(|(c, _)| later.contains(c))
                .filter_map(|(_, f)| f.as_ref().ok())
                .map(|f| f.header().payload_len())
                .sum()
        };
        if decoded(&self.files, &self.later) > self.budget {
            let spare: Vec<Sector> = self
                .files
                .keys()
                .filter(|c| self.later.contains(c) && !needed.contains(c))
                .copied()
                .collect();
            for c in spare {
                self.files.remove(&c);
                self.damaged.remove(&c);
                self.db.release(c);
            }
        }
        for c in needed {
            if !self.later.contains(&c) || self.files.contains_key(&c) {
                continue;
            }
            let rows = self.db.rows(c).map_err(|e| unusable(self.db, c, e));
            if let (true, Err(u)) = (c == s, &rows) {
                // Its blocks checked sound a moment ago; say why it is not proved.
                self.faults.note(Fault {
                    missing: u.missing,
                    ..Fault::of_sector(s, u.why.clone())
                });
            }
            self.damaged.insert(c, Vec::new());
            self.files.insert(c, rows);
        }
    }

    /// Frees the decoded tables that no sector still to prove reads, once `s` is proved.
    fn done_with(&mut self, s: Sector) {
        for c in read_by(self.db, s) {
            let Some(n) = self.uses.get_mut(&c) else {
                continue;
            };
            *n -= 1;
            if *n == 0 && self.later.contains(&c) {
                self.files.remove(&c);
                self.damaged.remove(&c);
                self.db.release(c);
            }
        }
    }

    /// Whether every dependency of `s` can be read, noting a fault for each one that cannot:
    /// unusable, or damaged (a dependency that is not verified itself has its damaged blocks
    /// listed under the first sector that reads it).
    fn dependencies_sound(&mut self, s: Sector, reported: &mut BTreeSet<Sector>) -> bool {
        let mut sound = true;
        for c in s.successors(self.db.variant()) {
            if c == s {
                continue;
            }
            match &self.files[&c] {
                Err(u) => {
                    self.faults.note(Fault {
                        missing: u.missing,
                        ..Fault::of_sector(s, format!("dependency {}", u.why))
                    });
                    sound = false;
                }
                Ok(f) if !self.damaged[&c].is_empty() => {
                    sound = false;
                    if self.sectors.contains(&c) || !reported.insert(c) {
                        self.faults.note(Fault::of_sector(
                            s,
                            format!("cannot be proved: its dependency {c} has damaged blocks"),
                        ));
                    } else {
                        for &b in &self.damaged[&c] {
                            let why = f.block_error(b);
                            self.faults
                                .note(Fault::of_sector(s, format!("dependency {why}")));
                        }
                    }
                }
                Ok(_) => {}
            }
        }
        sound
    }

    /// Proves sector `s` unless it cannot be (its file or a dependency unusable or damaged)
    /// or, resuming, its proof record still holds.
    fn prove_sector(&mut self, s: Sector) {
        self.report.sectors += 1;
        let faults_before = self.faults.count;
        let Ok(file) = self.files[&s].clone() else {
            return;
        };
        let mut reported = BTreeSet::new();
        if !self.dependencies_sound(s, &mut reported) {
            return;
        }
        let variant = self.db.variant();
        let relied: Relied = std::iter::once(s)
            .chain(s.successors(variant).into_iter().filter(|&c| c != s))
            .filter_map(|c| Some((c, self.files[&c].as_ref().ok()?.header().checksum)))
            .collect();
        let sound_so_far = self.faults.count == faults_before && self.damaged[&s].is_empty();
        if self.resume && sound_so_far && read_proof(self.db, s).as_ref() == Some(&relied) {
            self.report.skipped += 1;
            return;
        }
        let clock = Instant::now();
        let (positions, children) = verify_sector(
            self.db,
            s,
            &file,
            &self.files,
            &mut self.faults,
            self.generic,
            self.progress,
        );
        if self.progress.cancelled() {
            // Stopped half way: neither proved nor faulty.
            self.report.sectors -= 1;
            return;
        }
        let found = self.faults.count - faults_before;
        self.progress
            .sector_checked(s, positions, children, found, clock.elapsed());
        self.report.positions += positions;
        self.report.children += children;
        if self.resume && found == 0 && self.damaged[&s].is_empty() {
            if let Err(e) = write_proof(self.db, s, &relied) {
                self.faults.note(Fault::of_sector(
                    s,
                    format!(
                        "sound, but its proof record {} cannot be written: {e}",
                        proof_path(self.db, s).display()
                    ),
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Silent;
    use crate::rules::Removal;
    use crate::solve::solve_unit;
    use crate::space::plan;

    /// A proof from tables, which decodes them as it goes (freeing what no later proof reads,
    /// and with no room to keep any, decoding again what a later proof reads), proves what the
    /// proof of the database proves.
    #[test]
    fn a_proof_from_tables_decoding_as_it_goes_proves_what_the_database_proof_proves() {
        let (variant, dir, db) = crate::store::scratch("verify-tables", "five", Removal::Standard);
        let units = plan(&variant, &[Sector::start(&variant)]);
        for unit in &units {
            solve_unit(&db, unit, &Silent).unwrap();
        }
        let sectors: Vec<Sector> = units.iter().flat_map(|u| u.sectors.clone()).collect();
        let out = dir.join("tables");
        crate::tables::build_tables(&db, &out, &crate::tables::Options::default(), &Silent)
            .unwrap();
        let tables = Database::tables(&out, &variant, 0).unwrap();
        let expected = prove(&db, &sectors, 10, false, false, DECODED_BYTES, &Silent);
        assert_eq!(expected.fault_count, 0);
        assert!(expected.positions > 100_000);
        for budget in [0, DECODED_BYTES] {
            let got = prove(&tables, &sectors, 10, false, false, budget, &Silent);
            assert_eq!(got.fault_count, 0, "budget {budget}: {:?}", got.faults);
            assert_eq!(
                (got.sectors, got.positions, got.children),
                (expected.sectors, expected.positions, expected.children),
                "budget {budget}"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

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
                .filter(|s| rules.only_places(s.mover_hand))
                .collect();
            assert!(
                placing.len() > 5,
                "{name}: {} placement sectors",
                placing.len()
            );
            let both = |db: &Database| {
                let mut fast = prove(db, &placing, usize::MAX, false, false, 0, &Silent);
                let mut slow = prove(db, &placing, usize::MAX, false, true, 0, &Silent);
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
                let payload = db.rows(s).unwrap().header().payload_offset() as usize;
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
}
