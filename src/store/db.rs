//! A database folder: one sector file per solved sector of one variant and rule set, or the
//! compact tables built from one (two table files per sector).

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use arc_swap::ArcSwap;

use super::blocks::SectorBlocks;
use super::cache::BlockCache;
use super::file::SectorFile;
use super::planned;
use super::sector_tables::{table_path, SectorTables};
use super::source::{Disk, Files};
use super::table::TableKind;
use super::values::SectorValues;
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

/// A map keyed by sector, with a hash of a few multiplications: every probe looks its sector up
/// in one, and the standard library's SipHash took a few percent of a probe.
type SectorMap<V> = rustc_hash::FxHashMap<Sector, V>;

/// The solved sectors of one variant and rule set, under `DIR/<rule set>/`, opened lazily.
///
/// Each sector is resolved by what the folder holds of it: its sector file (`SECTOR.sec`),
/// else its compact tables (`SECTOR.wdl` and `SECTOR.dtm`); so one folder may hold some
/// sectors raw and others as tables. Probes read a sector through [`SectorValues`]
/// ([`Database::sector`]); the solver and the proof read rows of cells in place
/// ([`Database::rows`]: a sector file mapped, or tables decoded whole into memory).
#[derive(Debug)]
pub struct Database {
    root: PathBuf,
    dir: PathBuf,
    variant: Variant,
    orbits: Arc<Orbits>,
    /// Where the folder's files are listed and opened.
    files: Arc<dyn Files>,
    /// The sectors opened for probes so far: read without a lock or a shared count (readers
    /// probe from many threads at once), replaced whole when one is opened or all forgotten.
    values: ArcSwap<SectorMap<Arc<dyn SectorValues>>>,
    /// The sectors opened in place so far, for rows.
    rows: ArcSwap<SectorMap<Arc<SectorFile>>>,
    /// Held while a sector is opened and added, so that no opening is lost.
    opening: Mutex<()>,
    /// Whether probes read sector files mapped (else block by block through `cache`).
    mapped: bool,
    /// The blocks read of sector files not mapped, and of tables.
    cache: Arc<BlockCache>,
    /// What the folder was opened as, for what messages call it and advise.
    kind: Kind,
}

/// What a database folder was opened as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A database of sector files (`--db`).
    Sectors,
    /// Compact tables (`--tables`).
    Tables,
}

impl Kind {
    /// The extension of the files that stand for a sector in this kind of folder.
    fn extension(self) -> &'static str {
        match self {
            Kind::Sectors => "sec",
            Kind::Tables => "wdl",
        }
    }
}

/// Whether `names` (a folder's entries) hold a file with extension `ext` (`sec`, `wdl`).
fn holds_files(names: &[String], ext: &str) -> bool {
    names.iter().any(|n| {
        n.strip_suffix(ext)
            .is_some_and(|stem| stem.len() > 1 && stem.ends_with('.'))
    })
}

/// How a folder holds a sector.
enum Stored {
    /// Its sector file, at this path.
    Raw(PathBuf),
    /// Its two table files.
    Tables,
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
    /// The database of `variant` under `root` (the folder need not exist yet), its sector
    /// files mapped.
    ///
    /// # Errors
    /// `Error::BadFolder` when `root` is itself a rule-set folder (it holds sector files).
    pub fn new(root: &Path, variant: &Variant) -> Result<Database, Error> {
        Database::in_files(Arc::new(Disk), root, variant, Kind::Sectors, None)
    }

    /// The compact tables of `variant` under `root` (built by `morris tables`), read
    /// position by position, their blocks kept in a cache of `cache_bytes`: they answer as
    /// the database they were built from (every position's value and depth); the solver and
    /// the proof read them decoded whole ([`Database::rows`]).
    ///
    /// # Errors
    /// `Error::BadFolder` when `root` is itself a rule-set folder (it holds table files).
    pub fn tables(root: &Path, variant: &Variant, cache_bytes: u64) -> Result<Database, Error> {
        Database::in_files(
            Arc::new(Disk),
            root,
            variant,
            Kind::Tables,
            Some(cache_bytes),
        )
    }

    /// The database of `variant` under `root` for a long-running reader (a server, a
    /// binding): its files are read block by block into a cache of `cache_bytes` instead of
    /// being mapped, so that a file truncated or replaced under it is an error naming the
    /// file, never a crash.
    ///
    /// # Errors
    /// As [`Database::new`].
    pub fn reader(root: &Path, variant: &Variant, cache_bytes: u64) -> Result<Database, Error> {
        Database::in_files(
            Arc::new(Disk),
            root,
            variant,
            Kind::Sectors,
            Some(cache_bytes),
        )
    }

    /// Opens what `files` hold of `variant` under `root` (as [`Database::open_reading`] does
    /// on disk): files a caller holds in memory ([`InMemory`](super::InMemory)) or reads by
    /// a callback, read block by block through a cache of `cache_bytes`.
    ///
    /// # Errors
    /// `Error::BadFolder` when `root` is itself a rule-set folder.
    pub fn from_files(
        files: Arc<dyn Files>,
        root: &Path,
        variant: &Variant,
        cache_bytes: u64,
    ) -> Result<Database, Error> {
        // A rule-set folder given as the root is refused, whichever files it holds.
        refuse_rule_set_folder(&*files, root, Kind::Tables)?;
        let db = Database::in_files(files, root, variant, Kind::Sectors, Some(cache_bytes))?;
        match db.kind_held() {
            Some(Kind::Tables) => Ok(Database {
                kind: Kind::Tables,
                ..db
            }),
            _ => Ok(db),
        }
    }

    /// Opens several folders as one ([`Layers`](super::Layers)): each sector is read from the
    /// first folder that holds it, sector files mapped or read through a cache as `reading`
    /// says (as [`Database::open_reading`] opens one folder). Messages name the first folder.
    ///
    /// # Errors
    /// `Error::BadFolder` when no folder is given, or one is itself a rule-set folder; as
    /// [`Database::open_reading`].
    pub fn open_folders(
        roots: &[PathBuf],
        variant: &Variant,
        reading: Reading,
    ) -> Result<Database, Error> {
        let [first, rest @ ..] = roots else {
            return Err(Error::BadFolder {
                path: PathBuf::new(),
                why: String::from("no folder was given"),
            });
        };
        if rest.is_empty() {
            return Database::open_reading(first, variant, reading);
        }
        for root in roots {
            refuse_rule_set_folder(&Disk, root, Kind::Sectors)?;
            refuse_rule_set_folder(&Disk, root, Kind::Tables)?;
        }
        let files: Arc<dyn Files> = Arc::new(super::Layers::on_disk(roots.to_vec()));
        Database::open_reading_in(files, first, variant, reading)
    }

    /// What the rule-set folder holds: sector files (some, with tables or not), tables only,
    /// or nothing (`None`).
    fn kind_held(&self) -> Option<Kind> {
        let names = self.files.list(&self.dir).unwrap_or_default();
        match (holds_files(&names, "sec"), holds_files(&names, "wdl")) {
            (true, _) => Some(Kind::Sectors),
            (false, true) => Some(Kind::Tables),
            (false, false) => None,
        }
    }

    /// Whether the rule-set folder holds compact tables and no sector files: a folder that
    /// `morris tables` built.
    pub fn holds_tables_only(&self) -> bool {
        self.kind_held() == Some(Kind::Tables)
    }

    /// The database of `variant` under `root` in `files`, opened as `kind`; sector files are
    /// read through a cache of `cached` bytes, or mapped when `None`.
    fn in_files(
        files: Arc<dyn Files>,
        root: &Path,
        variant: &Variant,
        kind: Kind,
        cached: Option<u64>,
    ) -> Result<Database, Error> {
        refuse_rule_set_folder(&*files, root, kind)?;
        Ok(Database {
            root: root.to_path_buf(),
            dir: root.join(rule_set_folder(variant)),
            variant: variant.clone(),
            orbits: Arc::new(Orbits::new(variant)),
            files,
            values: ArcSwap::from_pointee(SectorMap::default()),
            rows: ArcSwap::from_pointee(SectorMap::default()),
            opening: Mutex::new(()),
            mapped: cached.is_none(),
            cache: Arc::new(BlockCache::new(cached.unwrap_or(READER_CACHE_BYTES))),
            kind,
        })
    }

    /// Whether the folder was opened as compact tables rather than sector files.
    pub fn is_tables(&self) -> bool {
        self.kind == Kind::Tables
    }

    /// The extension of the files that stand for a sector in this kind of folder.
    fn extension(&self) -> &'static str {
        self.kind.extension()
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

    /// The sectors whose files are present (not checked), in increasing order: a sector file
    /// or a win/draw/loss table each.
    pub fn present(&self) -> Vec<Sector> {
        let mut out: Vec<Sector> = self
            .files
            .list(&self.dir)
            .into_iter()
            .flatten()
            .filter_map(|name| {
                let stem = name
                    .strip_suffix(".sec")
                    .or_else(|| name.strip_suffix(".wdl"))?;
                stem.parse().ok()
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// The sectors that some `solve` planned in this folder (recorded in its file `planned`),
    /// in increasing order; none when no solve recorded a plan.
    ///
    /// A record that cannot be trusted gives the sectors it names that some game reaches;
    /// [`Database::planned_fault`] says what is wrong with it.
    pub fn planned(&self) -> Vec<Sector> {
        self.planned_record().sectors
    }

    /// The record of planned sectors, read.
    fn planned_record(&self) -> planned::Record {
        let path = self.dir.join(planned::FILE);
        planned::read(self.files.read(&path), &self.variant)
    }

    /// What keeps the record of planned sectors from showing that the folder is complete: the
    /// record is missing while sectors are present, unreadable, garbled (its checksum fails,
    /// a line is not a sector) or names a sector no game reaches. `None` when it is sound, or
    /// when the folder holds nothing.
    pub fn planned_fault(&self) -> Option<Error> {
        let record = self.planned_record();
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
        let before = self.planned_record();
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

    /// How the folder holds `sector`: its sector file, else its tables (its win/draw/loss
    /// table, with or without its depth table).
    ///
    /// # Errors
    /// `Error::Missing` when it holds neither (a depth table alone included: the `tables` run
    /// that rebuilds it is the advice).
    fn stored(&self, sector: Sector) -> Result<Stored, Error> {
        // A dangling or looping link is not "missing": opening it says what is wrong.
        let raw = self.dir.join(format!("{sector}.sec"));
        if self.files.exists(&raw) {
            return Ok(Stored::Raw(raw));
        }
        if self
            .files
            .exists(&table_path(&self.dir, sector, TableKind::Wdl))
        {
            return Ok(Stored::Tables);
        }
        Err(self.missing(sector))
    }

    /// The tables of `sector`, opened and checked, not kept (for a check of tables about to be
    /// rebuilt).
    ///
    /// # Errors
    /// As opening tables: `Error::Io`, `Error::Foreign`, `Error::Damaged`.
    pub(crate) fn open_tables(&self, sector: Sector) -> Result<SectorTables, Error> {
        let (files, index) = (&*self.files, self.index(sector));
        SectorTables::open(files, &self.dir, &self.variant, index, self.cache.clone())
    }

    /// A solved sector's values, opened and checked, for probes: a sector file mapped or read
    /// block by block (as the database was opened), or its tables.
    ///
    /// # Errors
    /// `Error::Missing` when the sector has no files; the errors of [`SectorFile::open`] and
    /// of opening tables.
    pub fn sector(&self, sector: Sector) -> Result<Arc<dyn SectorValues>, Error> {
        if let Some(v) = self.values.load().get(&sector) {
            return Ok(v.clone());
        }
        let _opening = self.opening.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(v) = self.values.load().get(&sector) {
            return Ok(v.clone());
        }
        let values: Arc<dyn SectorValues> = match self.stored(sector)? {
            Stored::Raw(_) if self.mapped => self.rows_locked(sector)?,
            Stored::Raw(path) => {
                let source = self.files.open(&path)?;
                let slots = self.index(sector).size();
                let (variant, cache) = (&self.variant, self.cache.clone());
                Arc::new(SectorBlocks::open(
                    &path, source, variant, sector, slots, cache,
                )?)
            }
            Stored::Tables => Arc::new(self.open_tables(sector)?),
        };
        let mut all = SectorMap::clone(&self.values.load());
        all.insert(sector, values.clone());
        self.values.store(Arc::new(all));
        Ok(values)
    }

    /// A solved sector's cells in place, for the solver and the proof, which read them in
    /// rows: its sector file mapped (or read whole where the files cannot be mapped), or its
    /// tables decoded whole into memory, every block checked.
    ///
    /// # Errors
    /// As [`Database::sector`]; the first damaged block of tables.
    pub fn rows(&self, sector: Sector) -> Result<Arc<SectorFile>, Error> {
        if let Some(f) = self.rows.load().get(&sector) {
            return Ok(f.clone());
        }
        let _opening = self.opening.lock().unwrap_or_else(|e| e.into_inner());
        self.rows_locked(sector)
    }

    /// [`Database::rows`], the opening lock held.
    fn rows_locked(&self, sector: Sector) -> Result<Arc<SectorFile>, Error> {
        if let Some(f) = self.rows.load().get(&sector) {
            return Ok(f.clone());
        }
        let file = Arc::new(match self.stored(sector)? {
            Stored::Raw(path) => {
                let slots = self.index(sector).size();
                SectorFile::open_in(&*self.files, &path, &self.variant, sector, slots)?
            }
            Stored::Tables => self.open_tables(sector)?.decoded()?,
        });
        let mut all = SectorMap::clone(&self.rows.load());
        all.insert(sector, file.clone());
        self.rows.store(Arc::new(all));
        Ok(file)
    }

    /// `f` of the opened values of `sector`, without counting a reference to them when they
    /// are open already (the probes' path).
    ///
    /// # Errors
    /// As [`Database::sector`], and `f`'s.
    #[inline]
    fn with_values<T>(
        &self,
        sector: Sector,
        f: impl FnOnce(&dyn SectorValues) -> Result<T, Error>,
    ) -> Result<T, Error> {
        if let Some(values) = self.values.load().get(&sector) {
            return f(&**values);
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
        self.values.store(Arc::new(SectorMap::default()));
        self.rows.store(Arc::new(SectorMap::default()));
    }

    /// Drops what is open of `sector` (its values and its cells in place; tables decoded whole
    /// are freed once no caller holds them), so that a reader going through a game sector by
    /// sector holds only what it still reads.
    pub(crate) fn release(&self, sector: Sector) {
        let _opening = self.opening.lock().unwrap_or_else(|e| e.into_inner());
        if self.values.load().contains_key(&sector) {
            let mut all = SectorMap::clone(&self.values.load());
            all.remove(&sector);
            self.values.store(Arc::new(all));
        }
        if self.rows.load().contains_key(&sector) {
            let mut all = SectorMap::clone(&self.rows.load());
            all.remove(&sector);
            self.rows.store(Arc::new(all));
        }
    }

    /// Whether the folder holds `sector` as tables (and no sector file).
    pub(crate) fn held_as_tables(&self, sector: Sector) -> bool {
        matches!(self.stored(sector), Ok(Stored::Tables))
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
        self.with_values(Sector::of(pos), |values| {
            values
                .cell_of(slot, Some(pos))?
                .ok_or_else(|| Error::damaged(values.path(), Damage::UnusedSlot { slot }))
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
        Database::open_reading_in(Arc::new(Disk), root, variant, reading)
    }

    /// [`Database::open_reading`] of what `files` hold under `root`: the tables when the
    /// rule-set folder holds tables only, else its sector files.
    fn open_reading_in(
        files: Arc<dyn Files>,
        root: &Path,
        variant: &Variant,
        reading: Reading,
    ) -> Result<Database, Error> {
        let cache = match reading {
            Reading::Cached(Some(bytes)) => bytes,
            _ => READER_CACHE_BYTES,
        };
        let tables = Database::in_files(files.clone(), root, variant, Kind::Tables, Some(cache))?;
        if tables.kind_held() == Some(Kind::Tables) {
            return Ok(tables);
        }
        let cached = match reading {
            Reading::Mapped => None,
            Reading::Cached(bytes) => Some(bytes.unwrap_or(SECTOR_READER_CACHE_BYTES)),
        };
        Database::in_files(files, root, variant, Kind::Sectors, cached)
    }

    /// Whether the folder holds what a probe of `pos` reads: its sector's files (a finished
    /// position needs none). Files are looked for, not opened or checked.
    pub fn covers(&self, pos: &Position) -> bool {
        too_few_pieces(pos) || self.stored(Sector::of(pos)).is_ok()
    }

    /// Whether a probe of `pos` gives its depth: false where its sector is held as
    /// win/draw/loss tables without their depth file (a finished position needs no file).
    ///
    /// # Errors
    /// As [`Database::sector`].
    pub fn has_distances(&self, pos: &Position) -> Result<bool, Error> {
        if too_few_pieces(pos) {
            return Ok(true);
        }
        self.with_values(Sector::of(pos), |values| Ok(values.has_distances()))
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
        self.with_values(Sector::of(pos), |values| values.outcome_of(slot, pos))
    }
}

/// `Error::BadFolder` when `root` of `files` is itself a rule-set folder: it holds the files
/// of a folder opened as `kind`.
fn refuse_rule_set_folder(files: &dyn Files, root: &Path, kind: Kind) -> Result<(), Error> {
    if let Ok(names) = files.list(root) {
        if holds_files(&names, kind.extension()) {
            let what = match kind {
                Kind::Sectors => "sector files",
                Kind::Tables => "table files",
            };
            return Err(Error::BadFolder {
                    path: root.to_path_buf(),
                    why: format!(
                        "is a rule-set folder (it holds {what}); pass the folder above it, which holds a folder per rule set"
                    ),
                });
        }
    }
    Ok(())
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
    solved_rule_sets_in(Arc::new(Disk), root, given)
}

/// [`solved_rule_sets`] of the folder `root` of `files` (a caller's files: see
/// [`Database::from_files`]).
///
/// # Errors
/// As [`solved_rule_sets`].
pub fn solved_rule_sets_in(
    files: Arc<dyn Files>,
    root: &Path,
    given: RuleOverrides,
) -> Result<Vec<Variant>, Error> {
    let names: std::collections::HashSet<String> = files
        .list(root)
        .map_err(|cause| Error::Io {
            path: root.to_path_buf(),
            cause,
        })?
        .into_iter()
        .collect();
    let mut found = Vec::new();
    for name in Variant::names() {
        for variant in Variant::by_name(name)?.rule_sets() {
            let agrees = variant.rules() == variant.clone().with_overrides(given).rules();
            if agrees
                && names.contains(&rule_set_folder(&variant))
                && !Database::from_files(files.clone(), root, &variant, 0)?
                    .present()
                    .is_empty()
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
