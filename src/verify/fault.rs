//! What a verification finds wrong, and the files it could not use.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::space::Sector;
use crate::store::SectorFile;

/// One thing found wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// The sector where it was found.
    pub sector: Sector,
    /// The position in notation, when the fault is about one position.
    pub position: Option<String>,
    /// What is wrong.
    pub message: String,
    /// The sector whose missing file the fault is, for advice on solving it.
    pub missing: Option<Sector>,
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

/// Why a sector file cannot be used at all, and the sector when it is missing.
#[derive(Clone, Debug)]
pub(super) struct Unusable {
    pub(super) why: String,
    pub(super) missing: Option<Sector>,
}

/// Opened sector files, damaged or not, keyed by sector.
pub(super) type Files = BTreeMap<Sector, Result<Arc<SectorFile>, Unusable>>;

/// The faults kept for the report, and the count of all.
pub(super) struct Faults {
    pub(super) list: Vec<Fault>,
    pub(super) count: u64,
    pub(super) max: usize,
    /// Every fault counted by the sector it was found in.
    pub(super) by_sector: BTreeMap<Sector, u64>,
}

impl Faults {
    pub(super) fn note(&mut self, f: Fault) {
        self.count += 1;
        *self.by_sector.entry(f.sector).or_default() += 1;
        if self.list.len() < self.max {
            self.list.push(f);
        }
    }
}
