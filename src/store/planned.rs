//! The record of planned sectors in a rule set's folder: what the solves there set out to
//! solve, so that `check` and `verify` can tell a sector that went missing. The record is
//! checked itself (its checksum, every line a sector some game reaches), because a folder
//! whose record is lost or garbled cannot prove that it is complete.

use xxhash_rust::xxh3::xxh3_64;

use crate::rules::Variant;
use crate::space::{Reachable, Sector};

/// The record's file name in a rule set's folder.
pub(super) const FILE: &str = "planned";
/// The first line of a record without a checksum (still read).
const MAGIC_1: &str = "morris planned sectors 1";
/// The first line of a record with a checksum line at its end.
const MAGIC_2: &str = "morris planned sectors 2";
/// How the checksum line begins: then 16 lowercase hex digits of the XXH3-64 of every byte
/// before the line.
const CHECKSUM: &str = "checksum ";

/// A record as read: the sectors it names that some game reaches, and what is wrong with it.
#[derive(Clone, Debug, Default)]
pub(super) struct Record {
    /// The sectors named (valid ones only), in increasing order, without repeats.
    pub(super) sectors: Vec<Sector>,
    /// Why the record cannot be trusted; `None` when it is sound or absent.
    pub(super) fault: Option<String>,
    /// Whether the file exists.
    pub(super) exists: bool,
}

/// Reads the record from its file's `bytes` (as read). Never fails: what cannot be read or parsed
/// is the record's fault, and the sectors that can be read are kept.
pub(super) fn read(bytes: std::io::Result<Vec<u8>>, variant: &Variant) -> Record {
    let bytes = match bytes {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Record::default(),
        Err(e) => {
            return Record {
                fault: Some(format!("cannot be read: {e}")),
                exists: true,
                ..Record::default()
            }
        }
    };
    let mut record = Record {
        exists: true,
        ..Record::default()
    };
    let mut faults = Vec::new();
    let Ok(text) = std::str::from_utf8(&bytes) else {
        record.fault = Some("is not text".to_string());
        return record;
    };
    let mut lines: Vec<&str> = text.lines().collect();
    match lines.first() {
        Some(&MAGIC_2) => match lines.last().and_then(|l| l.strip_prefix(CHECKSUM)) {
            Some(hex) => {
                let body = &text[..text.rfind(CHECKSUM).unwrap_or(0)];
                if format!("{:016x}", xxh3_64(body.as_bytes())) != hex {
                    faults.push("its checksum fails".to_string());
                }
                lines.pop();
            }
            None => faults.push("its checksum line is missing".to_string()),
        },
        Some(&MAGIC_1) => {}
        _ => {
            record.fault = Some(format!("does not begin with the line `{MAGIC_2}`"));
            return record;
        }
    }
    let reachable = Reachable::new(variant);
    for (n, line) in lines.iter().enumerate().skip(1) {
        match line.parse::<Sector>() {
            Ok(s) if reachable.check_sector(s).is_ok() => record.sectors.push(s),
            Ok(s) => faults.push(format!(
                "line {} names sector {s}, which no game of {} reaches",
                n + 1,
                variant.name()
            )),
            Err(_) => faults.push(format!(
                "line {} ({:?}) is not a sector",
                n + 1,
                crate::rules::clip(line)
            )),
        }
    }
    record.sectors.sort();
    record.sectors.dedup();
    if !faults.is_empty() {
        record.fault = Some(faults.join("; "));
    }
    record
}

/// The text of a record naming `sectors`, with its checksum line.
pub(super) fn text(sectors: &[Sector]) -> String {
    let mut text = format!("{MAGIC_2}\n");
    for s in sectors {
        text.push_str(&format!("{s}\n"));
    }
    let sum = xxh3_64(text.as_bytes());
    text.push_str(&format!("{CHECKSUM}{sum:016x}\n"));
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn six() -> Variant {
        Variant::by_name("six").expect("six")
    }

    fn read_text(text: &[u8]) -> Record {
        read(Ok(text.to_vec()), &six())
    }

    #[test]
    fn a_written_record_reads_back_sound() {
        let sectors: Vec<Sector> = ["0-0-6-6", "3-3-0-0", "4-3-0-0"]
            .iter()
            .map(|s| s.parse().expect("sector"))
            .collect();
        let r = read_text(text(&sectors).as_bytes());
        assert_eq!((r.sectors, r.fault, r.exists), (sectors, None, true));
    }

    #[test]
    fn a_garbled_or_impossible_record_is_a_fault() {
        let sectors: Vec<Sector> = vec!["0-0-6-6".parse().expect("sector")];
        let good = text(&sectors);
        // One digit changed: still a sector, but the checksum fails.
        let changed = good.replacen("0-0-6-6", "0-0-5-5", 1);
        assert!(read_text(changed.as_bytes())
            .fault
            .is_some_and(|f| f.contains("checksum fails")));
        let cut = &good[..good.rfind(CHECKSUM).expect("checksum line")];
        assert!(read_text(cut.as_bytes())
            .fault
            .is_some_and(|f| f.contains("checksum line is missing")));
        assert!(read_text(b"garbage\n3-3-0-0\n").fault.is_some());
        assert!(read_text(&[0xff, 0xfe, 0x00]).fault.is_some());
        let impossible = read_text(format!("{MAGIC_1}\n6-6-1-1\n3-3-0-0\nthree\n").as_bytes());
        let fault = impossible.fault.expect("a fault");
        assert!(
            fault.contains("names sector 6-6-1-1, which no game of six reaches"),
            "{fault}"
        );
        assert!(
            fault.contains("line 4 (\"three\") is not a sector"),
            "{fault}"
        );
        assert_eq!(
            impossible.sectors,
            vec!["3-3-0-0".parse::<Sector>().expect("sector")]
        );
        let absent = read(fs::read("/nonexistent/morris/planned"), &six());
        assert_eq!((absent.exists, absent.fault), (false, None));
    }
}
