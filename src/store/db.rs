//! A database folder: one sector file per solved sector of one variant and rule set, or the
//! compact tables built from one (two table files per sector).

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use arc_swap::ArcSwap;

use super::cache::BlockCache;
use super::file::SectorFile;
use super::planned;
use crate::error::{Damage, Error, Missing};
use crate::rules::too_few_pieces;
use crate::rules::Position;
use crate::rules::{Outcome, Value};
use crate::rules::{RuleOverrides, Variant};
use crate::space::Sector;
use crate::space::{plan, slot_of, Orbits, SectorIndex};

/// How a reader reads sector files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Mapped read-only, each block checked on first read, then read in place: the fastest,
    /// for a process whose files nothing changes while it runs (a file truncated under a map
    /// ends the process).
    Mapped,
    /// Read with positioned reads into a cache of checked blocks of the bytes given (`None`:
    /// [`SECTOR_READER_CACHE_BYTES`] for sector files, [`READER_CACHE_BYTES`] for tables): a
    /// file changed under a long-running reader is an error until it is whole again, never a
    /// fault.
    Cached(Option<u64>),
}

/// The solved sectors of one variant and rule set, under `DIR/<rule set>/`, opened lazily.
#[derive(Debug)]
pub struct Database {
    root: PathBuf,
    dir: PathBuf,
    variant: Variant,
    orbits: Arc<Orbits>,
    /// The files opened so far: read without a lock or a shared count (readers probe from
    /// many threads at once), replaced whole when a file is opened or all are forgotten.
    files: ArcSwap<HashMap<Sector, Arc<SectorFile>>>,
    /// Held while a file is opened and added to `files`, so that no opening is lost.
    opening: Mutex<()>,
    /// Where reads go: `None` maps the files (the solver, the proof); a cache reads them
    /// block by block ([`Database::reader`], and tables).
    cache: Option<Arc<BlockCache>>,
    /// What the folder holds.
    holds: Holds,
}

/// What a database folder holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Holds {
    /// Sector files.
    Sectors,
    /// Compact tables, read position by position.
    Tables,
    /// Compact tables, each sector decoded into memory whole when first opened.
    WholeTables,
}

/// The blocks a reader of compact tables keeps by default: 64 MiB, thousands of their small
/// blocks.
pub const READER_CACHE_BYTES: u64 = 64 << 20;

/// The blocks a reader of sector files keeps by default ([`Database::open`], `serve`): 1 GiB,
/// 1,024 blocks of the format's 1 MiB. A block dropped must be read and checked whole again
/// for the next position in it: with 64 MiB, random probes of nine's endgames to six pieces a
/// side (454 MB) took 210 µs each. The memory is taken only as blocks are read.
pub const SECTOR_READER_CACHE_BYTES: u64 = 1 << 30;

impl Database {
    /// The database of `variant` under `root` (the folder need not exist yet).
    ///
    /// # Errors
    /// `Error::BadFolder` when `root` is itself a rule-set folder (it holds sector files).
    pub fn new(root: &Path, variant: &Variant) -> Result<Database, Error> {
        Database::holding(root, variant, Holds::Sectors)
    }

    /// The compact tables of `variant` under `root` (built by `morris tables`), read
    /// position by position, their blocks kept in a cache of `cache_bytes`: they answer as
    /// the database they were built from (every position's value and depth), but hold no
    /// rows for the solver or the proof.
    ///
    /// # Errors
    /// `Error::BadFolder` when `root` is itself a rule-set folder (it holds table files).
    pub fn tables(root: &Path, variant: &Variant, cache_bytes: u64) -> Result<Database, Error> {
        let mut db = Database::holding(root, variant, Holds::Tables)?;
        db.cache = Some(Arc::new(BlockCache::new(cache_bytes)));
        Ok(db)
    }

    /// The compact tables of `variant` under `root`, each sector decoded into memory whole
    /// (every block checked) when first opened: for the proof, which reads rows of cells.
    ///
    /// # Errors
    /// As [`Database::tables`].
    pub fn whole_tables(root: &Path, variant: &Variant) -> Result<Database, Error> {
        let mut db = Database::holding(root, variant, Holds::WholeTables)?;
        // Whole sectors are decoded without the cache; it holds nothing.
        db.cache = Some(Arc::new(BlockCache::new(0)));
        Ok(db)
    }

    fn holding(root: &Path, variant: &Variant, holds: Holds) -> Result<Database, Error> {
        let ext = if holds == Holds::Sectors {
            "sec"
        } else {
            "wdl"
        };
        if let Ok(entries) = fs::read_dir(root) {
            let holds_files = entries
                .flatten()
                .any(|e| e.path().extension().is_some_and(|x| x == ext));
            if holds_files {
                let (what, option) = match holds {
                    Holds::Sectors => ("sector files", "--db"),
                    _ => ("table files", "--tables"),
                };
                return Err(Error::BadFolder {
                    path: root.to_path_buf(),
                    why: format!(
                        "is a rule-set folder (it holds {what}); pass the folder above it to {option}"
                    ),
                });
            }
        }
        Ok(Database {
            root: root.to_path_buf(),
            dir: root.join(rule_set_folder(variant)),
            variant: variant.clone(),
            orbits: Arc::new(Orbits::new(variant)),
            files: ArcSwap::from_pointee(HashMap::new()),
            opening: Mutex::new(()),
            cache: None,
            holds,
        })
    }

    /// Whether the folder holds compact tables rather than sector files.
    pub fn is_tables(&self) -> bool {
        self.holds != Holds::Sectors
    }

    /// The extension of the files that stand for a sector.
    fn extension(&self) -> &'static str {
        match self.holds {
            Holds::Sectors => "sec",
            Holds::Tables | Holds::WholeTables => "wdl",
        }
    }

    /// The database of `variant` under `root` for a long-running reader (a server, a
    /// binding): its files are read block by block into a cache of `cache_bytes`
    /// ([`SectorFile::open_read`]) instead of being mapped, so that a file truncated or
    /// replaced under it is an error naming the file, never a crash.
    ///
    /// # Errors
    /// As [`Database::new`].
    pub fn reader(root: &Path, variant: &Variant, cache_bytes: u64) -> Result<Database, Error> {
        let mut db = Database::new(root, variant)?;
        db.cache = Some(Arc::new(BlockCache::new(cache_bytes)));
        Ok(db)
    }

    /// The variant and rule set.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// The folder holding this rule set's sector files.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The folder given as `--db`.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The shared orbit tables.
    pub fn orbits(&self) -> &Arc<Orbits> {
        &self.orbits
    }

    /// The index of a sector.
    pub fn index(&self, sector: Sector) -> SectorIndex {
        SectorIndex::new(self.orbits.clone(), sector)
    }

    /// Where a sector's file lives (for tables, its win/draw/loss table).
    pub fn path(&self, sector: Sector) -> PathBuf {
        self.dir.join(format!("{sector}.{}", self.extension()))
    }

    /// The sectors whose files are present (not checked), in increasing order.
    pub fn present(&self) -> Vec<Sector> {
        let mut out: Vec<Sector> = fs::read_dir(&self.dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                name.strip_suffix(self.extension())?
                    .strip_suffix('.')?
                    .parse()
                    .ok()
            })
            .collect();
        out.sort();
        out
    }

    /// The sectors that some `solve` planned in this folder (recorded in its file `planned`),
    /// in increasing order; none when no solve recorded a plan.
    ///
    /// A record that cannot be trusted gives the sectors it names that some game reaches;
    /// [`Database::planned_fault`] says what is wrong with it.
    pub fn planned(&self) -> Vec<Sector> {
        planned::read(&self.dir, &self.variant).sectors
    }

    /// What keeps the record of planned sectors from showing that the folder is complete: the
    /// record is missing while sectors are present, unreadable, garbled (its checksum fails,
    /// a line is not a sector) or names a sector no game reaches. `None` when it is sound, or
    /// when the folder holds nothing.
    pub fn planned_fault(&self) -> Option<Error> {
        let record = planned::read(&self.dir, &self.variant);
        let path = self.dir.join(planned::FILE);
        let why = match record.fault {
            Some(why) => why,
            None if !record.exists && !self.present().is_empty() => {
                "is missing, so a sector gone missing cannot be told from one never planned"
                    .to_string()
            }
            None => return None,
        };
        Some(Error::damaged(&path, Damage::Planned(why)))
    }

    /// Adds `sectors` to the record of planned sectors (written whole under a temporary name,
    /// then renamed), so that `check` and `verify` can tell a sector that went missing.
    ///
    /// # Errors
    /// `Error::Io` when the record cannot be written.
    pub(crate) fn record_planned(
        &self,
        sectors: impl Iterator<Item = Sector>,
    ) -> Result<(), Error> {
        let before = planned::read(&self.dir, &self.variant);
        let mut all = before.sectors.clone();
        all.extend(sectors);
        all.sort();
        all.dedup();
        // A sound record that already names every sector stays as it is; a faulty one is
        // written anew with what it still names and this plan.
        if all == before.sectors && before.fault.is_none() && before.exists {
            return Ok(());
        }
        let text = planned::text(&all);
        let path = self.dir.join(planned::FILE);
        let part = self
            .dir
            .join(format!("{}.{}.part", planned::FILE, std::process::id()));
        fs::write(&part, text)
            .and_then(|()| fs::rename(&part, &path))
            .map_err(|e| {
                let _ = fs::remove_file(&part);
                Error::io(&path, e)
            })
    }

    /// The sectors this folder should hold: every sector of the plans recorded by `solve`, and
    /// every sector that a sector present depends on, in increasing order.
    pub fn expected(&self) -> Vec<Sector> {
        let mut roots = self.planned();
        roots.extend(self.present());
        let mut out: Vec<Sector> = plan(&self.variant, &roots)
            .into_iter()
            .flat_map(|u| u.sectors)
            .collect();
        out.sort();
        out
    }

    /// The opened, checked file of a solved sector.
    ///
    /// # Errors
    /// `Error::Missing` when the sector has no file; the errors of [`SectorFile::open`].
    pub fn sector(&self, sector: Sector) -> Result<Arc<SectorFile>, Error> {
        if let Some(f) = self.files.load().get(&sector) {
            return Ok(f.clone());
        }
        let _opening = self.opening.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(f) = self.files.load().get(&sector) {
            return Ok(f.clone());
        }
        let path = self.path(sector);
        // A dangling or looping link is not "missing": opening it says what is wrong.
        if !super::regular::entry_exists(&path) {
            return Err(self.missing(sector));
        }
        // Tables are two files: a depth table gone missing beside its win/draw/loss table is a
        // missing sector (with the `tables` run that rebuilds it), not an I/O error.
        let depth = super::table_path(&self.dir, sector, super::TableKind::Depth);
        if self.is_tables() && !super::regular::entry_exists(&depth) {
            return Err(self.missing(sector));
        }
        let slots = self.index(sector).size();
        let (variant, index) = (&self.variant, self.index(sector));
        let file = Arc::new(match (&self.cache, self.holds) {
            (None, _) => SectorFile::open(&path, variant, sector, slots)?,
            (Some(cache), Holds::Sectors) => {
                SectorFile::open_read(&path, variant, sector, slots, cache.clone())?
            }
            (Some(cache), holds) => {
                let whole = holds == Holds::WholeTables;
                SectorFile::open_tables(&self.dir, variant, index, cache.clone(), whole)?
            }
        });
        let mut files = HashMap::clone(&self.files.load());
        files.insert(sector, file.clone());
        self.files.store(Arc::new(files));
        Ok(file)
    }

    /// `f` of the opened file of `sector`, without counting a reference to it when it is
    /// open already (the probes' path).
    ///
    /// # Errors
    /// As [`Database::sector`], and `f`'s.
    #[inline]
    fn with_file<T>(
        &self,
        sector: Sector,
        f: impl FnOnce(&SectorFile) -> Result<T, Error>,
    ) -> Result<T, Error> {
        if let Some(file) = self.files.load().get(&sector) {
            return f(file);
        }
        f(&*self.sector(sector)?)
    }

    /// The error of a sector this database lacks, with what solving it takes.
    pub fn missing(&self, sector: Sector) -> Error {
        Error::Missing(Box::new(Missing {
            sector,
            db: self.root.clone(),
            dir: self.dir.clone(),
            variant: self.variant.name().to_string(),
            rules: self.variant.rules(),
            tables: self.is_tables(),
        }))
    }

    /// Forgets opened files (after they were rewritten).
    pub fn forget(&self) {
        let _opening = self.opening.lock().unwrap_or_else(|e| e.into_inner());
        self.files.store(Arc::new(HashMap::new()));
    }

    /// The value of any valid position: finished positions are losses at depth 0 without a
    /// file; others are read from their sector.
    ///
    /// # Errors
    /// As [`Database::sector`].
    pub fn probe(&self, pos: &Position) -> Result<Value, Error> {
        if too_few_pieces(pos) {
            return Ok(Value::Loss(0));
        }
        let slot = slot_of(&self.orbits, pos);
        self.with_file(Sector::of(pos), |file| {
            file.cell_of(slot, Some(pos))?
                .ok_or_else(|| Error::damaged(file.path(), Damage::UnusedSlot { slot }))
        })
    }

    /// Opens `root` for reading whatever it holds of `variant`: its compact tables when the
    /// rule-set folder holds table files, else its database (as [`Database::reader`]), each
    /// with its default cache ([`READER_CACHE_BYTES`], [`SECTOR_READER_CACHE_BYTES`]).
    ///
    /// # Errors
    /// As [`Database::reader`] and [`Database::tables`].
    pub fn open(root: &Path, variant: &Variant) -> Result<Database, Error> {
        Database::open_reading(root, variant, Reading::Cached(None))
    }

    /// [`Database::open`], reading sector files as `reading` says (tables are always read
    /// through a cache: a mapped table would be decompressed block by block all the same).
    ///
    /// # Errors
    /// As [`Database::open`].
    pub fn open_reading(
        root: &Path,
        variant: &Variant,
        reading: Reading,
    ) -> Result<Database, Error> {
        let cache = match reading {
            Reading::Cached(Some(bytes)) => bytes,
            _ => READER_CACHE_BYTES,
        };
        let tables = Database::tables(root, variant, cache)?;
        if !tables.present().is_empty() {
            return Ok(tables);
        }
        match reading {
            Reading::Mapped => Database::new(root, variant),
            Reading::Cached(bytes) => {
                Database::reader(root, variant, bytes.unwrap_or(SECTOR_READER_CACHE_BYTES))
            }
        }
    }

    /// Win, draw or loss of a position, without its depth: from tables, only the
    /// win/draw/loss file is read.
    ///
    /// # Errors
    /// As [`Database::probe`].
    pub fn probe_outcome(&self, pos: &Position) -> Result<Outcome, Error> {
        if too_few_pieces(pos) {
            return Ok(Outcome::Loss);
        }
        let slot = slot_of(&self.orbits, pos);
        self.with_file(Sector::of(pos), |file| file.outcome_of(slot, pos))
    }
}

/// The folder name of a variant's rule set in a database folder: `VARIANT.RULESETID`, e.g.
/// `six.pieces-6.flying-never.removal-standard.phases-separate.full-board-loss.no-move-loss`.
pub fn rule_set_folder(variant: &Variant) -> String {
    format!("{}.{}", variant.name(), variant.rules().id())
}

/// The rule sets of which the folder `root` holds sector files or compact tables, among those
/// that agree with `given` (the switches it sets; `RuleOverrides::default()` for all), in the
/// order of `morris variants`, each variant's default rules first: what a reader that is not
/// told the variant can open there.
///
/// # Errors
/// `Error::Io` when `root` cannot be listed; `Error::BadFolder` when it is itself a rule set's
/// folder (as [`Database::new`]).
pub fn solved_rule_sets(root: &Path, given: RuleOverrides) -> Result<Vec<Variant>, Error> {
    let names: std::collections::HashSet<String> = fs::read_dir(root)
        .map_err(|cause| Error::Io {
            path: root.to_path_buf(),
            cause,
        })?
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .collect();
    let mut found = Vec::new();
    for name in Variant::names() {
        for variant in Variant::by_name(name)?.rule_sets() {
            let agrees = variant.rules() == variant.clone().with_overrides(given).rules();
            if agrees
                && names.contains(&rule_set_folder(&variant))
                && !Database::open(root, &variant)?.present().is_empty()
            {
                found.push(variant);
            }
        }
    }
    Ok(found)
}

/// An empty database of `name` under `removal` in a fresh folder of the temporary directory
/// named after `tag`, for the unit tests; the caller removes the folder.
#[cfg(test)]
pub(crate) fn scratch(
    tag: &str,
    name: &str,
    removal: crate::rules::Removal,
) -> (Variant, PathBuf, Database) {
    let variant = Variant::by_name(name)
        .unwrap()
        .with_rules(None, Some(removal));
    let dir = std::env::temp_dir().join(format!(
        "morris-{tag}-{}-{name}-{removal}",
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&dir);
    let db = Database::new(&dir, &variant).unwrap();
    (variant, dir, db)
}
