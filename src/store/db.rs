//! A database folder: one sector file per solved sector of one variant and rule set.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use super::file::SectorFile;
use crate::error::{Damage, Error, Missing};
use crate::rules::too_few_pieces;
use crate::rules::Position;
use crate::rules::Value;
use crate::rules::Variant;
use crate::space::Sector;
use crate::space::{Orbits, SectorIndex};

/// The solved sectors of one variant and rule set, under `DIR/<rule set>/`, opened lazily.
#[derive(Debug)]
pub struct Database {
    root: PathBuf,
    dir: PathBuf,
    variant: Variant,
    orbits: Arc<Orbits>,
    files: RwLock<HashMap<Sector, Arc<SectorFile>>>,
}

impl Database {
    /// The database of `variant` under `root` (the folder need not exist yet).
    ///
    /// # Errors
    /// `Error::BadFolder` when `root` is itself a rule-set folder (it holds sector files).
    pub fn new(root: &Path, variant: &Variant) -> Result<Database, Error> {
        if let Ok(entries) = fs::read_dir(root) {
            let holds_sectors = entries
                .flatten()
                .any(|e| e.path().extension().is_some_and(|x| x == "sec"));
            if holds_sectors {
                return Err(Error::BadFolder {
                    path: root.to_path_buf(),
                    why: "is a rule-set folder (it holds sector files); pass the folder above it to --db".into(),
                });
            }
        }
        Ok(Database {
            root: root.to_path_buf(),
            dir: root.join(rule_set_folder(variant)),
            variant: variant.clone(),
            orbits: Arc::new(Orbits::new(variant)),
            files: RwLock::new(HashMap::new()),
        })
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

    /// Where a sector's file lives.
    pub fn path(&self, sector: Sector) -> PathBuf {
        self.dir.join(format!("{sector}.sec"))
    }

    /// The sectors whose files are present (not checked), in increasing order.
    pub fn present(&self) -> Vec<Sector> {
        let mut out: Vec<Sector> = fs::read_dir(&self.dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                name.strip_suffix(".sec")?.parse().ok()
            })
            .collect();
        out.sort();
        out
    }

    /// The opened, checked file of a solved sector.
    ///
    /// # Errors
    /// `Error::Missing` when the sector has no file; the errors of [`SectorFile::open`].
    pub fn sector(&self, sector: Sector) -> Result<Arc<SectorFile>, Error> {
        if let Some(f) = self.files.read().unwrap().get(&sector) {
            return Ok(f.clone());
        }
        let path = self.path(sector);
        // A dangling or looping link is not "missing": opening it says what is wrong.
        if !super::file::entry_exists(&path) {
            return Err(self.missing(sector));
        }
        let slots = self.index(sector).size();
        let file = Arc::new(SectorFile::open(&path, &self.variant, sector, slots)?);
        self.files.write().unwrap().insert(sector, file.clone());
        Ok(file)
    }

    /// The error of a sector this database lacks, with what solving it takes.
    pub fn missing(&self, sector: Sector) -> Error {
        Error::Missing(Box::new(Missing {
            sector,
            db: self.root.clone(),
            dir: self.dir.clone(),
            variant: self.variant.name().to_string(),
            rules: self.variant.rules(),
        }))
    }

    /// Forgets opened files (after they were rewritten).
    pub fn forget(&self) {
        self.files.write().unwrap().clear();
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
        let sector = Sector::of(pos);
        let file = self.sector(sector)?;
        let slot = self.index(sector).index(pos);
        file.cell(slot)?
            .ok_or_else(|| Error::damaged(file.path(), Damage::UnusedSlot { slot }))
    }
}

/// The folder name of a variant's rule set in a database folder: `VARIANT.RULESETID`, e.g.
/// `six.pieces-6.flying-never.removal-standard.phases-separate.full-board-loss.no-move-loss`.
pub fn rule_set_folder(variant: &Variant) -> String {
    format!("{}.{}", variant.name(), variant.rules().id())
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
