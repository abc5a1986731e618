//! Proof records: which files a sector's proof relied on, so that `verify --resume` goes on
//! where it stopped.

use std::path::PathBuf;

use crate::space::Sector;
use crate::store::Database;

/// What the proof of one sector relied on: its file's and its dependencies' checksums.
pub(super) type Relied = Vec<(Sector, u64)>;

/// Where the proof record of `sector` lies: next to its file, as `W-B-WF-BF.proved`.
pub fn proof_path(db: &Database, sector: Sector) -> PathBuf {
    db.path(sector).with_extension("proved")
}

const PROOF_MAGIC: &str = "morris proof 1";

/// The proof record of a sector, if it has a readable one.
pub(super) fn read_proof(db: &Database, sector: Sector) -> Option<Relied> {
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
pub(super) fn write_proof(db: &Database, sector: Sector, relied: &Relied) -> std::io::Result<()> {
    let mut text = format!("{PROOF_MAGIC}\n");
    for (s, sum) in relied {
        text.push_str(&format!("{s} {sum:016x}\n"));
    }
    let path = proof_path(db, sector);
    let part = path.with_extension("proved.part");
    std::fs::write(&part, text)?;
    std::fs::rename(&part, &path)
}
