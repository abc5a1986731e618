//! The rule sets a server can answer for: every known variant and supported rule value, each
//! opened at most once for the server's life.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::cost::SolveCosts;
use crate::error::Error;
use crate::invalid::InvalidInput;
use crate::rules::{RuleOverrides, Variant};
use crate::space::Reachable;
use crate::store::Database;
use crate::store::{rule_set_folder, READER_CACHE_BYTES, SECTOR_READER_CACHE_BYTES};

/// A known variant with one supported rule set.
#[derive(Debug)]
pub(super) struct RuleSet {
    /// The variant and its rules.
    pub variant: Variant,
    /// Its folder's name, `VARIANT.RULESETID`.
    pub folder: String,
    /// Whether these are the variant's default rules.
    pub default: bool,
}

/// A rule set's database, opened once, and the sectors a game from the start can reach.
#[derive(Debug)]
pub(super) struct Opened {
    /// The database (it keeps the sector files it opened).
    pub db: Database,
    /// The sectors a game from the start reaches: a position elsewhere cannot occur.
    pub reachable: Reachable,
    /// What solving its missing sectors costs, as worked out so far.
    pub costs: SolveCosts,
    /// The N-move rule's analysis the requests asked so far.
    pub rules: crate::nmove::RuleCache,
}

/// Every known rule set and the databases opened so far.
///
/// Names from requests are only compared with the known ones, and folder names only built from
/// those: nothing a client sends becomes part of a path.
#[derive(Debug)]
pub(super) struct Catalog {
    root: PathBuf,
    /// Whether the root holds compact tables rather than sector files.
    tables: bool,
    /// Variants in the order of `morris variants`, each with default rules.
    variants: Vec<Variant>,
    /// Every supported rule set, by folder name.
    sets: HashMap<String, RuleSet>,
    opened: Mutex<HashMap<String, Arc<Opened>>>,
}

impl Catalog {
    /// The rule sets of every variant under `root`, opened lazily.
    ///
    /// # Errors
    /// `Error::BadFolder` when `root` is itself a rule-set folder (it holds sector files).
    pub(super) fn new(root: &Path, tables: bool) -> Result<Catalog, Error> {
        let mut variants = Vec::new();
        let mut sets = HashMap::new();
        for name in Variant::names() {
            let base = Variant::by_name(name)?;
            // The same check the command line makes, once.
            if variants.is_empty() {
                match tables {
                    true => Database::tables(root, &base, 0)?,
                    false => Database::new(root, &base)?,
                };
            }
            for variant in base.rule_sets() {
                let folder = rule_set_folder(&variant);
                let default = variant.rules() == base.rules();
                sets.insert(
                    folder.clone(),
                    RuleSet {
                        variant,
                        folder,
                        default,
                    },
                );
            }
            variants.push(base);
        }
        Ok(Catalog {
            root: root.to_path_buf(),
            tables,
            variants,
            sets,
            opened: Mutex::new(HashMap::new()),
        })
    }

    /// The variant `name` with rule overrides, as the command line builds it.
    ///
    /// # Errors
    /// `Error::Input` holding `InvalidInput::UnknownVariant`.
    pub(super) fn variant(&self, name: &str, overrides: RuleOverrides) -> Result<Variant, Error> {
        let base = self
            .variants
            .iter()
            .find(|v| v.name() == name)
            .ok_or_else(|| InvalidInput::UnknownVariant {
                name: crate::rules::clip(name),
                known: Variant::names().collect::<Vec<_>>().join(", "),
            })?;
        Ok(base.clone().with_overrides(overrides))
    }

    /// The database of a variant built by [`Catalog::variant`], opened on first use.
    ///
    /// # Errors
    /// `Error::BadFolder` as [`Database::new`] (the folder changed since the start).
    pub(super) fn open(&self, variant: &Variant) -> Result<Arc<Opened>, Error> {
        let folder = rule_set_folder(variant);
        let set = self
            .sets
            .get(&folder)
            .ok_or_else(|| InvalidInput::UnsupportedRule {
                rule: "rules",
                value: variant.rules().id(),
            })?;
        let mut opened = self.opened.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(o) = opened.get(&folder) {
            return Ok(o.clone());
        }
        let reachable = Reachable::new(&set.variant);
        let o = Arc::new(Opened {
            db: match self.tables {
                true => Database::tables(&self.root, &set.variant, READER_CACHE_BYTES)?,
                false => Database::reader(&self.root, &set.variant, SECTOR_READER_CACHE_BYTES)?,
            },
            reachable,
            costs: SolveCosts::default(),
            rules: crate::nmove::RuleCache::default(),
        });
        opened.insert(folder, o.clone());
        Ok(o)
    }

    /// The rule sets whose folders are present under the root, in variant order, default
    /// rules first, then by folder name.
    pub(super) fn present(&self) -> Vec<&RuleSet> {
        let names: HashSet<String> = fs::read_dir(&self.root)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| e.file_name().into_string().ok())
            .collect();
        let mut out: Vec<&RuleSet> = names.iter().filter_map(|n| self.sets.get(n)).collect();
        let order = |s: &RuleSet| {
            self.variants
                .iter()
                .position(|v| v.name() == s.variant.name())
        };
        out.sort_by(|a, b| {
            (order(a), !a.default, &a.folder).cmp(&(order(b), !b.default, &b.folder))
        });
        out
    }
}
