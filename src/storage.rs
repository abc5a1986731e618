//! Sector files: one per sector, a bincode header and a flat payload of cells, memory-mapped.
//!
//! # Format (version 1)
//!
//! All integers little-endian.
//!
//! | offset | size | content |
//! |---|---|---|
//! | 0 | 8 | magic `MORRISDB` |
//! | 8 | 4 | format version (`u32`, 1) |
//! | 12 | 4 | header length `L` (`u32`) |
//! | 16 | L | [`Header`], bincode 2 standard configuration |
//! | 16 + L | .. | zeros up to [`PAYLOAD_OFFSET`] (4096) |
//! | 4096 | slots × width | cells, one per index slot |
//!
//! The header records the variant, its board lines, every rule value, the sector, the cell
//! width, the slot count, the sector's statistics and the xxh3-64 checksum of the payload.
//! A cell of width 1 holds the depth 0..=253 (odd: win for the mover, even: loss), 254 for an
//! unused slot and 255 for a draw; width 2 (`u16`) holds 0..=65533, 65534 unused, 65535 draw.
//! Files are written to `NAME.tmp`, synced and renamed, so a file with the final name is
//! complete. Readers check the length, magic, version, header and checksum before use.
//!
//! Version history: 1 — first format.

use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use bincode::{Decode, Encode};
use memmap2::Mmap;
use xxhash_rust::xxh3::Xxh3;

use crate::error::Error;
use crate::sector::Sector;
use crate::value::Value;
use crate::variant::Variant;

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"MORRISDB";
/// The format version this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// Where the payload starts.
pub const PAYLOAD_OFFSET: u64 = 4096;

/// Per-sector statistics, canonical and raw (every symmetric image counted).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Encode, Decode, serde::Serialize)]
pub struct SectorStats {
    /// Canonical positions (used slots).
    pub positions: u64,
    /// Canonical wins for the mover.
    pub win: u64,
    /// Canonical losses.
    pub loss: u64,
    /// Canonical draws.
    pub draw: u64,
    /// Every board of the sector, symmetric copies counted.
    pub raw_positions: u64,
    /// Raw wins.
    pub raw_win: u64,
    /// Raw losses.
    pub raw_loss: u64,
    /// Raw draws.
    pub raw_draw: u64,
    /// The largest depth of a win or loss.
    pub max_depth: u32,
}

impl SectorStats {
    /// The statistics of two disjoint sets of positions together.
    pub fn merge(self, other: SectorStats) -> SectorStats {
        SectorStats {
            positions: self.positions + other.positions,
            win: self.win + other.win,
            loss: self.loss + other.loss,
            draw: self.draw + other.draw,
            raw_positions: self.raw_positions + other.raw_positions,
            raw_win: self.raw_win + other.raw_win,
            raw_loss: self.raw_loss + other.raw_loss,
            raw_draw: self.raw_draw + other.raw_draw,
            max_depth: self.max_depth.max(other.max_depth),
        }
    }
}

/// The header of a sector file.
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode)]
pub struct Header {
    /// The variant's name.
    pub variant: String,
    /// The board's lines, so that a changed board is never read as the old one.
    pub lines: Vec<String>,
    /// Pieces per side.
    pub pieces: u8,
    /// The flying rule, as named on the command line.
    pub flying: String,
    /// The removal rule, as named on the command line.
    pub removal: String,
    /// The sector's counts `W-B-WF-BF`.
    pub sector: [u8; 4],
    /// Bytes per cell: 1 or 2.
    pub cell_width: u8,
    /// Index slots, used or not.
    pub slots: u64,
    /// The sector's statistics.
    pub stats: SectorStats,
    /// xxh3-64 of the payload.
    pub checksum: u64,
}

impl Header {
    /// A header for `sector` of `variant` (statistics, width and checksum to fill in).
    pub fn new(variant: &Variant, sector: Sector, slots: u64) -> Header {
        let b = variant.board();
        Header {
            variant: variant.name().to_string(),
            lines: b
                .lines()
                .iter()
                .map(|l| {
                    l.iter()
                        .map(|&p| b.point_name(p))
                        .collect::<Vec<_>>()
                        .join("-")
                })
                .collect(),
            pieces: variant.pieces(),
            flying: variant.rules().flying.to_string(),
            removal: variant.rules().removal.to_string(),
            sector: [
                sector.mover,
                sector.opponent,
                sector.mover_hand,
                sector.opponent_hand,
            ],
            cell_width: 1,
            slots,
            stats: SectorStats::default(),
            checksum: 0,
        }
    }

    /// The sector the header describes.
    pub fn sector(&self) -> Sector {
        let [mover, opponent, mover_hand, opponent_hand] = self.sector;
        Sector {
            mover,
            opponent,
            mover_hand,
            opponent_hand,
        }
    }
}

const UNUSED_1: u8 = 254;
const DRAW_1: u8 = 255;
const UNUSED_2: u16 = 65534;
const DRAW_2: u16 = 65535;

/// The largest depth a cell of each width holds.
pub fn max_depth_for_width(width: u8) -> u32 {
    if width == 1 {
        253
    } else {
        65533
    }
}

/// A cell's content: `None` for an unused slot.
pub type Cell = Option<Value>;

/// Encodes a cell into `out`, whose length is the cell width (1 or 2 bytes).
#[inline]
pub fn encode_cell(cell: Cell, out: &mut [u8]) {
    if out.len() == 1 {
        out[0] = match cell {
            None => UNUSED_1,
            Some(Value::Draw) => DRAW_1,
            Some(v) => v.depth().unwrap() as u8,
        };
    } else {
        let x = match cell {
            None => UNUSED_2,
            Some(Value::Draw) => DRAW_2,
            Some(v) => v.depth().unwrap() as u16,
        };
        out.copy_from_slice(&x.to_le_bytes());
    }
}

fn io_error(path: &Path, e: std::io::Error) -> Error {
    Error::Io {
        path: path.to_path_buf(),
        source: e,
    }
}

/// Writes a sector file: the payload comes from `fill`, called with chunks of slots in order
/// and a buffer of their exact size to fill; the file appears under its final name only once complete and synced.
///
/// # Errors
/// `Error::Io` naming the file when it cannot be written (the temporary file is removed).
pub fn write_sector(
    path: &Path,
    header: &mut Header,
    mut fill: impl FnMut(u64, u64, &mut [u8]),
) -> Result<(), Error> {
    let tmp = path.with_extension("sec.tmp");
    let result = (|| {
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&tmp)
            .map_err(|e| io_error(&tmp, e))?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        out.seek(SeekFrom::Start(PAYLOAD_OFFSET))
            .map_err(|e| io_error(&tmp, e))?;
        let mut hasher = Xxh3::new();
        let mut buf = Vec::with_capacity(1 << 20);
        const CHUNK: u64 = 1 << 20;
        let mut start = 0;
        while start < header.slots {
            let end = (start + CHUNK).min(header.slots);
            buf.clear();
            buf.resize(((end - start) * header.cell_width as u64) as usize, 0);
            fill(start, end, &mut buf);
            hasher.update(&buf);
            out.write_all(&buf).map_err(|e| io_error(&tmp, e))?;
            start = end;
        }
        header.checksum = hasher.digest();
        let head = encode_header(header);
        out.seek(SeekFrom::Start(0))
            .map_err(|e| io_error(&tmp, e))?;
        out.write_all(&head).map_err(|e| io_error(&tmp, e))?;
        let file = out
            .into_inner()
            .map_err(|e| io_error(&tmp, e.into_error()))?;
        file.sync_all().map_err(|e| io_error(&tmp, e))?;
        drop(file);
        fs::rename(&tmp, path).map_err(|e| io_error(path, e))?;
        if let Some(dir) = path.parent() {
            // Make the rename itself durable; not every platform can open a directory.
            if let Ok(d) = File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

fn encode_header(header: &Header) -> Vec<u8> {
    let body =
        bincode::encode_to_vec(header, bincode::config::standard()).expect("plain data encodes");
    assert!(16 + body.len() as u64 <= PAYLOAD_OFFSET, "header too large");
    let mut head = Vec::with_capacity(PAYLOAD_OFFSET as usize);
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    head.extend_from_slice(&(body.len() as u32).to_le_bytes());
    head.extend_from_slice(&body);
    head.resize(PAYLOAD_OFFSET as usize, 0);
    head
}

/// A sector file mapped read-only, its header and checksum checked.
pub struct SectorFile {
    path: PathBuf,
    header: Header,
    map: Mmap,
}

impl SectorFile {
    /// Opens and checks a sector file against the variant, sector and slot count it must hold.
    ///
    /// # Errors
    /// `Error::Io` when it cannot be read, `Error::Mismatch` when it holds another variant,
    /// rule set or sector, `Error::Corrupt` when it is truncated or its checksum fails.
    pub fn open(
        path: &Path,
        variant: &Variant,
        sector: Sector,
        slots: u64,
    ) -> Result<SectorFile, Error> {
        let file = SectorFile::open_unverified(path, variant, sector, slots)?;
        if !file.checksum_ok() {
            return Err(Error::Corrupt {
                path: path.to_path_buf(),
                why: "payload checksum mismatch".into(),
            });
        }
        Ok(file)
    }

    /// Whether the payload's checksum matches the header's.
    pub fn checksum_ok(&self) -> bool {
        xxhash_rust::xxh3::xxh3_64(&self.map[PAYLOAD_OFFSET as usize..]) == self.header.checksum
    }

    /// Opens a sector file checking everything but the payload's checksum, so that `verify`
    /// can name the positions a damaged payload gets wrong.
    ///
    /// # Errors
    /// As [`SectorFile::open`], less the checksum.
    pub fn open_unverified(
        path: &Path,
        variant: &Variant,
        sector: Sector,
        slots: u64,
    ) -> Result<SectorFile, Error> {
        let file = File::open(path).map_err(|e| io_error(path, e))?;
        let corrupt = |why: String| Error::Corrupt {
            path: path.to_path_buf(),
            why,
        };
        let len = file.metadata().map_err(|e| io_error(path, e))?.len();
        if len < PAYLOAD_OFFSET {
            return Err(corrupt(format!(
                "{len} bytes, shorter than the {PAYLOAD_OFFSET}-byte header"
            )));
        }
        // SAFETY: the map is read-only and private to this process; the files are written once
        // under a temporary name and renamed, never modified in place by this program. Another
        // process truncating the file could fault a read, which no API can rule out for mapped
        // files; the length is checked below before any cell is read.
        #[allow(unsafe_code)]
        let map = unsafe { Mmap::map(&file) }.map_err(|e| io_error(path, e))?;
        if &map[..8] != MAGIC {
            return Err(corrupt("not a morris sector file (bad magic)".into()));
        }
        let version = u32::from_le_bytes(map[8..12].try_into().unwrap());
        if version != FORMAT_VERSION {
            return Err(corrupt(format!(
                "format version {version}, this build reads {FORMAT_VERSION}"
            )));
        }
        let head_len = u32::from_le_bytes(map[12..16].try_into().unwrap()) as u64;
        if 16 + head_len > PAYLOAD_OFFSET {
            return Err(corrupt(format!("header length {head_len} too large")));
        }
        let (header, _): (Header, usize) = bincode::decode_from_slice(
            &map[16..16 + head_len as usize],
            bincode::config::standard(),
        )
        .map_err(|e| corrupt(format!("unreadable header: {e}")))?;
        let expected = Header::new(variant, sector, header.slots);
        if header.variant != expected.variant
            || header.lines != expected.lines
            || header.pieces != expected.pieces
            || header.flying != expected.flying
            || header.removal != expected.removal
        {
            return Err(Error::Mismatch {
                path: path.to_path_buf(),
                why: format!(
                    "holds {} (pieces {}, flying {}, removal {}), not {} (pieces {}, flying {}, removal {})",
                    header.variant,
                    header.pieces,
                    header.flying,
                    header.removal,
                    expected.variant,
                    expected.pieces,
                    expected.flying,
                    expected.removal
                ),
            });
        }
        if header.sector != expected.sector {
            return Err(Error::Mismatch {
                path: path.to_path_buf(),
                why: format!("holds sector {}, not {sector}", header.sector()),
            });
        }
        if header.slots != slots {
            return Err(corrupt(format!(
                "{} slots, the index of {sector} has {slots}",
                header.slots
            )));
        }
        if header.cell_width != 1 && header.cell_width != 2 {
            return Err(corrupt(format!("cell width {}", header.cell_width)));
        }
        let want = PAYLOAD_OFFSET + header.slots * header.cell_width as u64;
        if len != want {
            return Err(corrupt(format!("{len} bytes, the header promises {want}")));
        }
        Ok(SectorFile {
            path: path.to_path_buf(),
            header,
            map,
        })
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The cell of `slot`: `None` for an unused slot.
    #[inline]
    pub fn cell(&self, slot: u64) -> Cell {
        let at = PAYLOAD_OFFSET as usize;
        if self.header.cell_width == 1 {
            match self.map[at + slot as usize] {
                UNUSED_1 => None,
                DRAW_1 => Some(Value::Draw),
                d => Some(Value::from_depth(d as u32)),
            }
        } else {
            let i = at + 2 * slot as usize;
            match u16::from_le_bytes([self.map[i], self.map[i + 1]]) {
                UNUSED_2 => None,
                DRAW_2 => Some(Value::Draw),
                d => Some(Value::from_depth(d as u32)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cells of both widths survive a write and a checked read, deep values included.
    #[test]
    fn cells_round_trip_in_both_widths() {
        let variant = Variant::by_name("three").unwrap();
        let sector = Sector {
            mover: 3,
            opponent: 3,
            mover_hand: 0,
            opponent_hand: 0,
        };
        let cells: Vec<Cell> = vec![
            None,
            Some(Value::Draw),
            Some(Value::Loss(0)),
            Some(Value::Win(1)),
            Some(Value::Win(253)),
            Some(Value::Loss(252)),
            Some(Value::Win(9001)),
            Some(Value::Loss(65532)),
        ];
        let dir = std::env::temp_dir().join(format!("morris-storage-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        for width in [1u8, 2] {
            let keep: Vec<Cell> = cells
                .iter()
                .copied()
                .filter(|c| {
                    c.and_then(|v| v.depth())
                        .is_none_or(|d| d <= max_depth_for_width(width))
                })
                .collect();
            let path = dir.join(format!("width-{width}.sec"));
            let mut header = Header::new(&variant, sector, keep.len() as u64);
            header.cell_width = width;
            write_sector(&path, &mut header, |a, b, out| {
                for (i, slot) in (a..b).enumerate() {
                    let w = width as usize;
                    encode_cell(keep[slot as usize], &mut out[i * w..(i + 1) * w]);
                }
            })
            .unwrap();
            let file = SectorFile::open(&path, &variant, sector, keep.len() as u64).unwrap();
            assert_eq!(file.header().cell_width, width);
            let read: Vec<Cell> = (0..keep.len() as u64).map(|s| file.cell(s)).collect();
            assert_eq!(read, keep, "width {width}");
            // The wrong slot count is refused, not read past the end.
            assert!(SectorFile::open(&path, &variant, sector, keep.len() as u64 + 1).is_err());
        }
        fs::remove_dir_all(&dir).unwrap();
    }
}
