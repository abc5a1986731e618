//! Sector files: a fixed-width header, a table of block checksums and a flat payload of cells, memory-mapped.
//!
//! # Format (version 2)
//!
//! All integers little-endian. The header is a fixed 4096-byte region, written with bincode's
//! fixed-int little-endian configuration, so the bytes are exactly this table and a reader
//! needs no bincode (`docs/format.md` specifies the format and the index for other programs):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `MORRISDB` |
//! | 8 | 4 | format version (`u32`, 2) |
//! | 12 | 4 | index layout version (`u32`, 1: the index of `index.rs`) |
//! | 16 | 4 | header size (`u32`, 4096) |
//! | 20 | 4 | block size in bytes (`u32`, a power of two from 4096; written as 1 MiB) |
//! | 24 | 32 | variant name, ASCII, NUL-padded |
//! | 56 | 128 | rule-set id ([`crate::Rules::id`]), ASCII, NUL-padded |
//! | 184 | 1 | pieces per side |
//! | 185 | 1 | flying: 0 never, 1 three, 2 always |
//! | 186 | 1 | removal: 0 standard, 1 strict, 2 lenient |
//! | 187 | 1 | phases: 0 separate, 1 lasker |
//! | 188 | 1 | full board: 0 loss, 1 draw |
//! | 189 | 1 | no legal move: 0 loss |
//! | 190 | 2 | reserved, zero |
//! | 192 | 4 | sector: mover on board, opponent on board, mover's hand, opponent's hand |
//! | 196 | 4 | cell width in bytes (`u32`, 1 or 2) |
//! | 200 | 8 | index slots, used or not (`u64`) |
//! | 208 | 64 | statistics, 8 × `u64`: positions, win, loss, draw, raw positions, raw win, raw loss, raw draw |
//! | 272 | 4 | maximum depth (`u32`) |
//! | 276 | 4 | reserved, zero |
//! | 280 | 8 | block count (`u64`): ⌈slots × width / block size⌉ |
//! | 288 | 8 | payload offset (`u64`): 4096 + 8 × blocks, rounded up to a multiple of 4096 |
//! | 296 | 8 | table checksum: xxh3-64 of bytes `[4096, payload offset)` |
//! | 304 | 4 | length of the board-lines text (`u32`) |
//! | 308 | 1024 | the board's lines, ASCII: lines separated by a space, points by `-`, NUL-padded |
//! | 1332 | 2756 | zeros |
//! | 4088 | 8 | header checksum: xxh3-64 of bytes `[0, 4088)` |
//!
//! At 4096 the block table: one xxh3-64 per payload block, then zeros up to the payload
//! offset. The payload is one cell per index slot, block `i` being its bytes
//! `[i × block size, (i + 1) × block size)`; the file ends with the last cell. A cell of width
//! 1 holds the depth 0..=253 (odd: win for the mover, even: loss), 254 for an unused slot and
//! 255 for a draw; width 2 (`u16`) holds 0..=65533, 65534 unused, 65535 draw.
//!
//! The checksums chain: the header checksum covers the header, which holds the table's
//! checksum, which covers each block's. So the header checksum is a checksum of every byte of
//! the file (the file's checksum, as `stats --json` reports it), and opening a file reads only
//! the header and the table; each block is checked the first time a cell of it is read.
//!
//! Files are written under a unique temporary name (`SECTOR.sec.PID-N.tmp`), synced and
//! renamed, so a file with the final name is complete; a temporary file left by a killed run
//! is removed by the next run that takes the unit's lock ([`UnitLock`]).
//!
//! Version history: 1 — bincode varint header, one checksum over the payload (refused, with
//! the command that rebuilds it); 2 — this layout.

use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};
use std::sync::Mutex;

use bincode::{Decode, Encode};
use memmap2::Mmap;
use rayon::prelude::*;
use xxhash_rust::xxh3::xxh3_64;

use crate::error::Error;
use crate::sector::Sector;
use crate::value::Value;
use crate::variant::{Flying, FullBoard, NoMove, Phases, Removal, RuleSwitch, Rules, Variant};

/// The file's first eight bytes.
pub const MAGIC: &[u8; 8] = b"MORRISDB";
/// The format version this build reads and writes.
pub const FORMAT_VERSION: u32 = 2;
/// The version of the index layout (`index.rs`) this build reads and writes.
pub const INDEX_LAYOUT: u32 = 1;
/// The size of the header region; the block table follows it.
pub const HEADER_SIZE: u64 = 4096;
/// The payload block size this build writes.
pub const BLOCK_SIZE: u32 = 1 << 20;
/// Where the header checksum lies.
const HEADER_CHECKSUM_AT: usize = 4088;
/// The board-lines field's size.
const LINES_SIZE: usize = 1024;

/// Per-sector statistics, canonical and raw (every symmetric image counted). Serialized with
/// its fields in this order, the order `stats --json` documents.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
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
    #[must_use]
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

    fn to_array(self) -> [u64; 8] {
        [
            self.positions,
            self.win,
            self.loss,
            self.draw,
            self.raw_positions,
            self.raw_win,
            self.raw_loss,
            self.raw_draw,
        ]
    }

    fn from_array(a: [u64; 8], max_depth: u32) -> SectorStats {
        let [positions, win, loss, draw, raw_positions, raw_win, raw_loss, raw_draw] = a;
        SectorStats {
            positions,
            win,
            loss,
            draw,
            raw_positions,
            raw_win,
            raw_loss,
            raw_draw,
            max_depth,
        }
    }
}

/// The header's bytes 0..1332 exactly as the table above lays them out (bincode fixed-int,
/// little-endian: integers at their width, arrays without a length).
#[derive(Encode, Decode)]
struct RawHeader {
    magic: [u8; 8],
    format_version: u32,
    index_layout: u32,
    header_size: u32,
    block_size: u32,
    variant: [u8; 32],
    rule_set: [u8; 128],
    pieces: u8,
    flying: u8,
    removal: u8,
    phases: u8,
    full_board: u8,
    no_move: u8,
    reserved0: [u8; 2],
    sector: [u8; 4],
    cell_width: u32,
    slots: u64,
    stats: [u64; 8],
    max_depth: u32,
    reserved1: u32,
    block_count: u64,
    payload_offset: u64,
    table_checksum: u64,
    lines_len: u32,
    lines: [u8; LINES_SIZE],
}

/// The encoded size of [`RawHeader`].
const RAW_HEADER_SIZE: usize = 1332;

fn bincode_config() -> impl bincode::config::Config {
    bincode::config::standard()
        .with_fixed_int_encoding()
        .with_little_endian()
}

/// The header of a sector file, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The variant's name.
    pub variant: String,
    /// The rule set's stable id.
    pub rule_set: String,
    /// Every rule value.
    pub rules: Rules,
    /// The board's lines as text (`a7-d7-g7 b6-d6-f6 ...`), so that a changed board is never
    /// read as the old one.
    pub lines: String,
    /// The sector.
    pub sector: Sector,
    /// Bytes per cell: 1 or 2.
    pub cell_width: u8,
    /// Index slots, used or not.
    pub slots: u64,
    /// The sector's statistics.
    pub stats: SectorStats,
    /// The payload block size in bytes.
    pub block_size: u32,
    /// xxh3-64 of the block table region.
    pub table_checksum: u64,
    /// xxh3-64 of the header: the file's checksum.
    pub checksum: u64,
}

impl Header {
    /// A header for `sector` of `variant` (statistics, width and checksums to fill in).
    pub fn new(variant: &Variant, sector: Sector, slots: u64) -> Header {
        Header {
            variant: variant.name().to_string(),
            rule_set: variant.rules().id(),
            rules: variant.rules(),
            lines: board_lines(variant),
            sector,
            cell_width: 1,
            slots,
            stats: SectorStats::default(),
            block_size: BLOCK_SIZE,
            table_checksum: 0,
            checksum: 0,
        }
    }

    /// The sector the header describes.
    pub fn sector(&self) -> Sector {
        self.sector
    }

    /// The payload's length in bytes.
    pub fn payload_len(&self) -> u64 {
        self.slots * self.cell_width as u64
    }

    /// The number of payload blocks.
    pub fn block_count(&self) -> u64 {
        self.payload_len().div_ceil(self.block_size as u64)
    }

    /// Where the payload starts: after the header and the block table, page-aligned.
    pub fn payload_offset(&self) -> u64 {
        (HEADER_SIZE + 8 * self.block_count()).next_multiple_of(HEADER_SIZE)
    }

    /// The file checksum as 16 hex digits.
    pub fn checksum_hex(&self) -> String {
        format!("{:016x}", self.checksum)
    }

    /// The header region's bytes, its checksum filled in (and stored in `self.checksum`).
    fn encode(&mut self) -> Vec<u8> {
        let s = self.sector;
        let raw = RawHeader {
            magic: *MAGIC,
            format_version: FORMAT_VERSION,
            index_layout: INDEX_LAYOUT,
            header_size: HEADER_SIZE as u32,
            block_size: self.block_size,
            variant: padded(&self.variant),
            rule_set: padded(&self.rule_set),
            pieces: self.rules.pieces,
            flying: self.rules.flying.code(),
            removal: self.rules.removal.code(),
            phases: self.rules.phases.code(),
            full_board: self.rules.full_board.code(),
            no_move: self.rules.no_move.code(),
            reserved0: [0; 2],
            sector: [s.mover, s.opponent, s.mover_hand, s.opponent_hand],
            cell_width: self.cell_width as u32,
            slots: self.slots,
            stats: self.stats.to_array(),
            max_depth: self.stats.max_depth,
            reserved1: 0,
            block_count: self.block_count(),
            payload_offset: self.payload_offset(),
            table_checksum: self.table_checksum,
            lines_len: self.lines.len() as u32,
            lines: padded(&self.lines),
        };
        let mut head = bincode::encode_to_vec(&raw, bincode_config()).expect("plain data encodes");
        debug_assert_eq!(head.len(), RAW_HEADER_SIZE);
        head.resize(HEADER_SIZE as usize, 0);
        self.checksum = xxh3_64(&head[..HEADER_CHECKSUM_AT]);
        head[HEADER_CHECKSUM_AT..].copy_from_slice(&self.checksum.to_le_bytes());
        head
    }
}

/// A text field, NUL-padded to its width (the texts are ours and checked to fit).
fn padded<const N: usize>(text: &str) -> [u8; N] {
    let mut out = [0u8; N];
    assert!(text.len() <= N, "{text:?} does not fit a {N}-byte field");
    out[..text.len()].copy_from_slice(text.as_bytes());
    out
}

/// A NUL-padded text field, or `None` when it is not ASCII followed by NULs.
fn unpadded(field: &[u8]) -> Option<String> {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    if !field[end..].iter().all(|&b| b == 0) || !field[..end].is_ascii() {
        return None;
    }
    Some(String::from_utf8_lossy(&field[..end]).into_owned())
}

/// The board's lines as the header records them.
pub fn board_lines(variant: &Variant) -> String {
    let b = variant.board();
    b.lines()
        .iter()
        .map(|l| {
            l.iter()
                .map(|&p| b.point_name(p))
                .collect::<Vec<_>>()
                .join("-")
        })
        .collect::<Vec<_>>()
        .join(" ")
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
        cause: e,
    }
}

/// Temporary files being written by this process, removed by [`remove_temporary_files`] when
/// the process is interrupted.
static TEMPORARY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static TEMPORARY_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Removes the temporary files this process is writing (for a signal handler: the process
/// is about to exit, so they will never be completed).
pub fn remove_temporary_files() {
    let list = match TEMPORARY.lock() {
        Ok(l) => l,
        Err(poisoned) => poisoned.into_inner(),
    };
    for path in list.iter() {
        let _ = fs::remove_file(path);
    }
}

/// A temporary file registered for removal on interruption, and removed when dropped
/// unless renamed into place.
struct Temporary {
    path: PathBuf,
    keep: bool,
}

impl Temporary {
    /// Creates a file with a name no other process or thread uses, next to `path`.
    fn create(path: &Path) -> Result<(Temporary, File), Error> {
        let n = TEMPORARY_COUNTER.fetch_add(1, Relaxed);
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(format!(".{}-{n}.tmp", std::process::id()));
        let tmp = path.with_file_name(name);
        TEMPORARY.lock().unwrap().push(tmp.clone());
        let temporary = Temporary {
            path: tmp.clone(),
            keep: false,
        };
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .map_err(|e| io_error(&tmp, e))?;
        Ok((temporary, file))
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.keep {
            let _ = fs::remove_file(&self.path);
        }
        TEMPORARY.lock().unwrap().retain(|p| p != &self.path);
    }
}

/// Whether `name` is a temporary file of sector file `sector_file` (`SECTOR.sec`).
fn is_temporary_of(name: &str, sector_file: &str) -> bool {
    name.strip_prefix(sector_file)
        .and_then(|rest| rest.strip_prefix('.'))
        .is_some_and(|rest| rest.ends_with(".tmp"))
}

/// Writes a sector file: the payload comes from `fill`, called with ranges of slots in order
/// and a buffer of their exact size to fill; the file appears under its final name only once
/// complete and synced. Fills in the header's checksums.
///
/// # Errors
/// `Error::Io` naming the file when it cannot be written (the temporary file is removed).
pub fn write_sector(
    path: &Path,
    header: &mut Header,
    mut fill: impl FnMut(u64, u64, &mut [u8]),
) -> Result<(), Error> {
    let (mut tmp, file) = Temporary::create(path)?;
    let t = tmp.path.clone();
    let io = |e| io_error(&t, e);
    let width = header.cell_width as u64;
    let block_slots = header.block_size as u64 / width;
    let mut table = Vec::with_capacity(header.block_count() as usize * 8);
    let mut out = BufWriter::with_capacity(1 << 20, file);
    out.seek(SeekFrom::Start(header.payload_offset()))
        .map_err(io)?;
    let mut buf = Vec::with_capacity(header.block_size as usize);
    let mut start = 0;
    while start < header.slots {
        let end = (start + block_slots).min(header.slots);
        buf.clear();
        buf.resize(((end - start) * width) as usize, 0);
        fill(start, end, &mut buf);
        table.extend_from_slice(&xxh3_64(&buf).to_le_bytes());
        out.write_all(&buf).map_err(io)?;
        start = end;
    }
    table.resize((header.payload_offset() - HEADER_SIZE) as usize, 0);
    header.table_checksum = xxh3_64(&table);
    let head = header.encode();
    out.seek(SeekFrom::Start(0)).map_err(io)?;
    out.write_all(&head).map_err(io)?;
    out.write_all(&table).map_err(io)?;
    let file = out.into_inner().map_err(|e| io(e.into_error()))?;
    file.sync_all().map_err(io)?;
    drop(file);
    fs::rename(&tmp.path, path).map_err(|e| io_error(path, e))?;
    tmp.keep = true;
    if let Some(dir) = path.parent() {
        // Make the rename itself durable; not every platform can open a directory.
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// What kind of thing a path is, for messages about things that are not regular files.
fn kind_of(meta: &fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_char_device() {
        "a character device"
    } else {
        "not a regular file"
    }
}

/// Whether anything is at `path` (a dangling or looping link included).
pub fn entry_exists(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok()
}

const BLOCK_UNCHECKED: u8 = 0;
const BLOCK_GOOD: u8 = 1;
const BLOCK_BAD: u8 = 2;

/// A sector file mapped read-only: its header and block table checked on open, each payload
/// block checked the first time a cell of it is read.
pub struct SectorFile {
    path: PathBuf,
    header: Header,
    /// Held for the shared lock (and so the map's file stays open).
    _file: File,
    map: Mmap,
    payload: usize,
    block_shift: u32,
    blocks: Vec<AtomicU8>,
}

impl SectorFile {
    /// Opens a sector file and checks its header and block table against the variant, sector
    /// and slot count it must hold; payload blocks are checked as they are read.
    ///
    /// # Errors
    /// `Error::Io` when it cannot be read or is not a regular file, `Error::OldFormat` for a
    /// file of another format version, `Error::Mismatch` when it holds another variant, rule
    /// set or sector, `Error::Corrupt` when it is truncated, extended or fails a checksum.
    pub fn open(
        path: &Path,
        variant: &Variant,
        sector: Sector,
        slots: u64,
    ) -> Result<SectorFile, Error> {
        let corrupt = |why: String| Error::Corrupt {
            path: path.to_path_buf(),
            why,
        };
        // Checked before opening: opening a FIFO would block.
        let meta = fs::metadata(path).map_err(|e| io_error(path, e))?;
        if !meta.is_file() {
            return Err(io_error(
                path,
                std::io::Error::other(format!("is {}, not a sector file", kind_of(&meta))),
            ));
        }
        let mut file = File::open(path).map_err(|e| io_error(path, e))?;
        // Readers share; a process replacing a file in place would need it exclusively.
        let _ = file.try_lock_shared();
        let len = file.metadata().map_err(|e| io_error(path, e))?.len();
        let mut head = vec![0u8; HEADER_SIZE.min(len) as usize];
        file.read_exact(&mut head).map_err(|e| io_error(path, e))?;
        if head.len() < 12 || &head[..8] != MAGIC {
            return Err(corrupt("not a morris sector file (bad magic)".into()));
        }
        let version = u32::from_le_bytes(head[8..12].try_into().unwrap());
        let old_format = |found: u32| {
            let folder = path.parent().unwrap_or(Path::new(".")).to_path_buf();
            let db = folder.parent().unwrap_or(Path::new("."));
            Error::OldFormat {
                path: path.to_path_buf(),
                found,
                expected: FORMAT_VERSION,
                command: format!(
                    "morris solve {} --db {}",
                    variant.cli_options(),
                    db.display()
                ),
                folder,
            }
        };
        // Format 1 had another header; any other version is only trusted once the header
        // checksum holds (a flipped byte there is damage, not a newer format).
        if version == 1 {
            return Err(old_format(version));
        }
        if len < HEADER_SIZE {
            return Err(corrupt(format!(
                "{len} bytes, shorter than the {HEADER_SIZE}-byte header"
            )));
        }
        let stored = u64::from_le_bytes(head[HEADER_CHECKSUM_AT..].try_into().unwrap());
        if xxh3_64(&head[..HEADER_CHECKSUM_AT]) != stored {
            return Err(corrupt("header checksum mismatch".into()));
        }
        if version != FORMAT_VERSION {
            return Err(old_format(version));
        }
        let header = decode_header(&head, stored).map_err(corrupt)?;
        check_header(path, &header, variant, sector, slots)?;
        let want = header.payload_offset() + header.payload_len();
        if len != want {
            return Err(corrupt(format!(
                "{len} bytes, the header promises {want} (truncated or extended)"
            )));
        }
        // SAFETY: the map is read-only and private to this process; the files are written once
        // under a temporary name and renamed, never modified in place by this program. Another
        // process truncating the file could fault a read, which no API can rule out for mapped
        // files; the length was checked above before any cell is read.
        #[allow(unsafe_code)]
        let map = unsafe { Mmap::map(&file) }.map_err(|e| io_error(path, e))?;
        let payload = header.payload_offset() as usize;
        if xxh3_64(&map[HEADER_SIZE as usize..payload]) != header.table_checksum {
            return Err(corrupt("block table checksum mismatch".into()));
        }
        let blocks = (0..header.block_count())
            .map(|_| AtomicU8::new(BLOCK_UNCHECKED))
            .collect();
        Ok(SectorFile {
            path: path.to_path_buf(),
            block_shift: header.block_size.trailing_zeros(),
            header,
            _file: file,
            map,
            payload,
            blocks,
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

    /// The payload block that holds `slot`.
    #[inline]
    pub fn block_of(&self, slot: u64) -> u64 {
        (slot * self.header.cell_width as u64) >> self.block_shift
    }

    /// Whether block `b`'s bytes match its checksum in the table.
    fn block_ok(&self, b: u64) -> bool {
        let size = self.header.block_size as u64;
        let start = b * size;
        let end = (start + size).min(self.header.payload_len());
        let bytes = &self.map[self.payload + start as usize..self.payload + end as usize];
        let at = HEADER_SIZE as usize + 8 * b as usize;
        xxh3_64(bytes) == u64::from_le_bytes(self.map[at..at + 8].try_into().unwrap())
    }

    /// Checks block `b` unless it was checked already.
    ///
    /// # Errors
    /// `Error::Corrupt` naming the file and the block when its checksum fails.
    #[inline]
    pub fn check_block(&self, b: u64) -> Result<(), Error> {
        let state = &self.blocks[b as usize];
        let mut s = state.load(Relaxed);
        if s == BLOCK_UNCHECKED {
            // Two threads may both check a block; the outcome is the same.
            s = if self.block_ok(b) {
                BLOCK_GOOD
            } else {
                BLOCK_BAD
            };
            state.store(s, Relaxed);
        }
        if s == BLOCK_GOOD {
            Ok(())
        } else {
            Err(self.block_error(b))
        }
    }

    /// Checks every block (in parallel), returning the damaged ones.
    pub fn check_all_blocks(&self) -> Vec<u64> {
        (0..self.header.block_count())
            .into_par_iter()
            .filter(|&b| self.check_block(b).is_err())
            .collect()
    }

    /// The error of a damaged block, naming file, block and slots.
    pub fn block_error(&self, b: u64) -> Error {
        let per = self.header.block_size as u64 / self.header.cell_width as u64;
        Error::Corrupt {
            path: self.path.clone(),
            why: format!(
                "block {b} (slots {}..{}) fails its checksum",
                b * per,
                ((b + 1) * per).min(self.header.slots)
            ),
        }
    }

    /// The cell of `slot` (`None` for an unused slot), its block checked on first read.
    ///
    /// # Errors
    /// `Error::Corrupt` when the block holding it fails its checksum.
    #[inline]
    pub fn cell(&self, slot: u64) -> Result<Cell, Error> {
        self.check_block(self.block_of(slot))?;
        Ok(self.cell_unchecked(slot))
    }

    /// The cells of `start..start + len` without checking their blocks: for `verify`, which
    /// checks every block itself (see [`SectorFile::cell_unchecked`]).
    pub fn row_unchecked(&self, start: u64, len: u64) -> Row<'_> {
        debug_assert!(start + len <= self.header.slots);
        let w = self.header.cell_width as usize;
        let at = self.payload + start as usize * w;
        Row {
            bytes: &self.map[at..at + len as usize * w],
            wide: w == 2,
        }
    }

    /// The cells of `start..start + len`, their blocks checked now, for reading many cells
    /// of one region without a check per read.
    ///
    /// # Errors
    /// `Error::Corrupt` when a block of the region fails its checksum.
    pub fn row(&self, start: u64, len: u64) -> Result<Row<'_>, Error> {
        debug_assert!(start + len <= self.header.slots);
        if len > 0 {
            for b in self.block_of(start)..=self.block_of(start + len - 1) {
                self.check_block(b)?;
            }
        }
        Ok(self.row_unchecked(start, len))
    }

    /// Asks for the line holding `slot`'s cell ahead of a read (a hint only).
    #[inline]
    pub fn prefetch(&self, slot: u64) {
        let at = self.payload + (slot * self.header.cell_width as u64) as usize;
        if let Some(byte) = self.map.get(at) {
            prefetch(byte);
        }
    }

    /// The cell of `slot` without checking its block: for `verify`, which checks every block
    /// itself and then names the positions a damaged block gets wrong.
    #[inline]
    pub fn cell_unchecked(&self, slot: u64) -> Cell {
        decode_code(self.code_unchecked(slot), self.header.cell_width)
    }

    /// The code of `slot`'s cell (see [`decode_code`]) without checking its block, as
    /// [`SectorFile::cell_unchecked`] reads it.
    #[inline]
    pub fn code_unchecked(&self, slot: u64) -> u16 {
        let at = self.payload;
        if self.header.cell_width == 1 {
            self.map[at + slot as usize] as u16
        } else {
            let i = at + 2 * slot as usize;
            u16::from_le_bytes([self.map[i], self.map[i + 1]])
        }
    }
}

/// Checked cells of one region of a sector file (see [`SectorFile::row`]).
#[derive(Clone, Copy)]
pub struct Row<'a> {
    bytes: &'a [u8],
    wide: bool,
}

impl Row<'_> {
    /// The cell width in bytes.
    #[inline]
    pub fn width(&self) -> u8 {
        if self.wide {
            2
        } else {
            1
        }
    }

    /// The stored code of cell `i` (see [`decode_code`]).
    #[inline]
    pub fn code(&self, i: usize) -> u16 {
        if self.wide {
            u16::from_le_bytes([self.bytes[2 * i], self.bytes[2 * i + 1]])
        } else {
            self.bytes[i] as u16
        }
    }

    /// The cell `i` places after the region's start (`None` for an unused slot).
    #[inline]
    pub fn cell(&self, i: usize) -> Cell {
        decode_code(self.code(i), self.width())
    }
}

/// Asks the processor to bring `x`'s cache line in, ahead of a write to it: the solver's
/// scattered writes to its working state then do not stall on a miss. A hint only.
#[inline(always)]
pub fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing into the program and cannot fault, whatever the
    // address (here a valid reference); SSE, which the intrinsic requires, is part of the
    // x86_64 baseline, so every processor this build runs on has it.
    #[allow(unsafe_code)]
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            x as *const T as *const i8,
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// The code of a cell (as [`Row::code`] reads it) decoded, for a cell of `width` bytes.
#[inline]
pub fn decode_code(code: u16, width: u8) -> Cell {
    let (unused, draw) = if width == 1 {
        (UNUSED_1 as u16, DRAW_1 as u16)
    } else {
        (UNUSED_2, DRAW_2)
    };
    match code {
        c if c == unused => None,
        c if c == draw => Some(Value::Draw),
        d => Some(Value::from_depth(d as u32)),
    }
}

/// Decodes a header region whose checksum holds.
fn decode_header(head: &[u8], checksum: u64) -> Result<Header, String> {
    let (raw, used): (RawHeader, usize) = bincode::decode_from_slice(head, bincode_config())
        .map_err(|e| format!("unreadable header: {e}"))?;
    debug_assert_eq!(used, RAW_HEADER_SIZE);
    if raw.index_layout != INDEX_LAYOUT {
        return Err(format!(
            "index layout {}, this build reads layout {INDEX_LAYOUT}",
            raw.index_layout
        ));
    }
    if raw.header_size as u64 != HEADER_SIZE {
        return Err(format!("header size {}", raw.header_size));
    }
    if !raw.block_size.is_power_of_two() || raw.block_size < 4096 {
        return Err(format!("block size {}", raw.block_size));
    }
    if raw.cell_width != 1 && raw.cell_width != 2 {
        return Err(format!("cell width {}", raw.cell_width));
    }
    let text = |name: &str, field: &[u8]| {
        unpadded(field).ok_or_else(|| format!("the {name} field is not NUL-padded ASCII"))
    };
    let lines = text("board lines", &raw.lines)?;
    if lines.len() != raw.lines_len as usize {
        return Err("the board lines' length disagrees with the text".into());
    }
    fn rule<T: RuleSwitch>(code: u8) -> Result<T, String> {
        T::from_code(code).ok_or_else(|| format!("unknown {} code {code}", T::NAME))
    }
    let rules = Rules {
        pieces: raw.pieces,
        flying: rule::<Flying>(raw.flying)?,
        removal: rule::<Removal>(raw.removal)?,
        phases: rule::<Phases>(raw.phases)?,
        full_board: rule::<FullBoard>(raw.full_board)?,
        no_move: rule::<NoMove>(raw.no_move)?,
    };
    let [mover, opponent, mover_hand, opponent_hand] = raw.sector;
    let header = Header {
        variant: text("variant", &raw.variant)?,
        rule_set: text("rule-set id", &raw.rule_set)?,
        rules,
        lines,
        sector: Sector {
            mover,
            opponent,
            mover_hand,
            opponent_hand,
        },
        cell_width: raw.cell_width as u8,
        slots: raw.slots,
        stats: SectorStats::from_array(raw.stats, raw.max_depth),
        block_size: raw.block_size,
        table_checksum: raw.table_checksum,
        checksum,
    };
    if raw.block_count != header.block_count() || raw.payload_offset != header.payload_offset() {
        return Err(format!(
            "block count {} and payload offset {} disagree with {} slots of {} bytes",
            raw.block_count, raw.payload_offset, raw.slots, raw.cell_width
        ));
    }
    Ok(header)
}

/// Checks a decoded header against what the file must hold, naming the first field that
/// differs.
fn check_header(
    path: &Path,
    header: &Header,
    variant: &Variant,
    sector: Sector,
    slots: u64,
) -> Result<(), Error> {
    let expected = Header::new(variant, sector, slots);
    let mismatch = |why: String| {
        Err(Error::Mismatch {
            path: path.to_path_buf(),
            why,
        })
    };
    if header.variant != expected.variant {
        return mismatch(format!(
            "holds variant {}, not {}",
            header.variant, expected.variant
        ));
    }
    if header.rules != expected.rules || header.rule_set != expected.rule_set {
        return mismatch(format!(
            "holds rule set {}, not {} (pass the rule options the database was built with)",
            header.rule_set, expected.rule_set
        ));
    }
    if header.lines != expected.lines {
        return mismatch(format!(
            "holds a board with lines {:?}, not {:?}",
            header.lines, expected.lines
        ));
    }
    if header.sector != sector {
        return mismatch(format!("holds sector {}, not {sector}", header.sector));
    }
    if header.slots != slots {
        return Err(Error::Corrupt {
            path: path.to_path_buf(),
            why: format!("{} slots, the index of {sector} has {slots}", header.slots),
        });
    }
    Ok(())
}

/// An exclusive lock on one work unit of a database folder, held while the unit is solved:
/// a second process that reaches the unit waits for it, then finds it solved.
pub struct UnitLock {
    _file: File,
}

impl UnitLock {
    /// Takes the lock of the unit whose first sector is `first` in `dir`, waiting while
    /// another process holds it (`waiting` is called once first if it does), then removes
    /// the temporary files that killed runs left for `sectors`.
    ///
    /// # Errors
    /// `Error::Io` when the lock file cannot be created or locked.
    pub fn acquire(
        dir: &Path,
        first: Sector,
        sectors: &[Sector],
        waiting: impl FnOnce(),
    ) -> Result<UnitLock, Error> {
        let path = dir.join(format!("{first}.lock"));
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| io_error(&path, e))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                waiting();
                file.lock().map_err(|e| io_error(&path, e))?;
            }
            Err(fs::TryLockError::Error(e)) => return Err(io_error(&path, e)),
        }
        // Holding the lock, nobody else writes these sectors: their temporary files are stale.
        let names: Vec<String> = sectors.iter().map(|s| format!("{s}.sec")).collect();
        if let Ok(entries) = fs::read_dir(dir) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if names.iter().any(|n| is_temporary_of(&name, n)) {
                    let _ = fs::remove_file(e.path());
                }
            }
        }
        Ok(UnitLock { _file: file })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sector33() -> Sector {
        Sector {
            mover: 3,
            opponent: 3,
            mover_hand: 0,
            opponent_hand: 0,
        }
    }

    /// The header's fields lie at the offsets the module documentation gives.
    #[test]
    fn header_fields_lie_at_their_documented_offsets() {
        let variant = Variant::by_name("nine").unwrap();
        let mut header = Header::new(&variant, sector33(), 123_456);
        header.cell_width = 2;
        header.stats = SectorStats {
            positions: 1,
            win: 2,
            loss: 3,
            draw: 4,
            raw_positions: 5,
            raw_win: 6,
            raw_loss: 7,
            raw_draw: 8,
            max_depth: 26,
        };
        header.table_checksum = 0xDEAD_BEEF;
        let head = header.encode();
        assert_eq!(head.len(), HEADER_SIZE as usize);
        let u32_at = |o: usize| u32::from_le_bytes(head[o..o + 4].try_into().unwrap());
        let u64_at = |o: usize| u64::from_le_bytes(head[o..o + 8].try_into().unwrap());
        assert_eq!(&head[0..8], MAGIC);
        assert_eq!(u32_at(8), 2);
        assert_eq!(u32_at(12), 1);
        assert_eq!(u32_at(16), 4096);
        assert_eq!(u32_at(20), 1 << 20);
        assert_eq!(&head[24..28], b"nine");
        assert_eq!(head[28], 0);
        assert_eq!(
            unpadded(&head[56..184]).unwrap(),
            "pieces-9.flying-three.removal-standard.phases-separate.full-board-loss.no-move-loss"
        );
        assert_eq!(&head[184..190], &[9, 1, 0, 0, 0, 0]);
        assert_eq!(&head[192..196], &[3, 3, 0, 0]);
        assert_eq!(u32_at(196), 2);
        assert_eq!(u64_at(200), 123_456);
        for i in 0..8 {
            assert_eq!(u64_at(208 + 8 * i), i as u64 + 1);
        }
        assert_eq!(u32_at(272), 26);
        assert_eq!(u64_at(280), 1);
        assert_eq!(u64_at(288), 8192);
        assert_eq!(u64_at(296), 0xDEAD_BEEF);
        let lines = board_lines(&variant);
        assert_eq!(u32_at(304) as usize, lines.len());
        assert_eq!(&head[308..308 + lines.len()], lines.as_bytes());
        assert!(lines.starts_with("a7-d7-g7 b6-d6-f6"));
        assert!(head[308 + lines.len()..HEADER_CHECKSUM_AT]
            .iter()
            .all(|&b| b == 0));
        assert_eq!(u64_at(4088), xxh3_64(&head[..4088]));
        assert_eq!(decode_header(&head, u64_at(4088)).unwrap(), header);
    }

    /// Cells of both widths survive a write and a checked read, deep values included.
    #[test]
    fn cells_round_trip_in_both_widths() {
        let variant = Variant::by_name("three").unwrap();
        let sector = sector33();
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
            assert_eq!(file.header(), &header);
            let read: Vec<Cell> = (0..keep.len() as u64)
                .map(|s| file.cell(s).unwrap())
                .collect();
            assert_eq!(read, keep, "width {width}");
            // The wrong slot count is refused, not read past the end.
            assert!(SectorFile::open(&path, &variant, sector, keep.len() as u64 + 1).is_err());
        }
        // Nothing temporary is left behind.
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert!(names.iter().all(|n| n.ends_with(".sec")), "{names:?}");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A payload of several blocks: a flipped byte in any block is caught when that block is
    /// first read, and only then; other blocks still read.
    #[test]
    fn a_flipped_payload_byte_fails_its_block_only() {
        let variant = Variant::by_name("nine").unwrap();
        let sector = sector33();
        let slots = 3 * BLOCK_SIZE as u64 + 17;
        let dir = std::env::temp_dir().join(format!("morris-blocks-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("3-3-0-0.sec");
        let mut header = Header::new(&variant, sector, slots);
        write_sector(&path, &mut header, |a, _, out| {
            for (i, c) in out.iter_mut().enumerate() {
                *c = ((a as usize + i) % 200) as u8;
            }
        })
        .unwrap();
        assert_eq!(header.block_count(), 4);
        let at = header.payload_offset() + 2 * BLOCK_SIZE as u64 + 5;
        let mut bytes = fs::read(&path).unwrap();
        bytes[at as usize] ^= 1;
        fs::write(&path, &bytes).unwrap();
        let file = SectorFile::open(&path, &variant, sector, slots).unwrap();
        assert_eq!(file.cell(0).unwrap(), Some(Value::Loss(0)));
        assert_eq!(
            file.cell(slots - 1).unwrap(),
            Some(Value::from_depth(((slots - 1) % 200) as u32))
        );
        let err = file.cell(2 * BLOCK_SIZE as u64).unwrap_err().to_string();
        assert!(err.contains("block 2"), "{err}");
        assert_eq!(file.check_all_blocks(), vec![2]);
        fs::remove_dir_all(&dir).unwrap();
    }
}

/// Atomic integers that hold any bit pattern, all zeros included, and need no drop: the
/// element types an [`AtomicArray`] may hold.
pub trait ZeroableAtomic: Sync + Send + sealed::Sealed {}
impl ZeroableAtomic for AtomicU8 {}
impl ZeroableAtomic for std::sync::atomic::AtomicU16 {}
mod sealed {
    pub trait Sealed {}
    impl Sealed for std::sync::atomic::AtomicU8 {}
    impl Sealed for std::sync::atomic::AtomicU16 {}
}

/// A working array of atomics (the solver's state and counters), zero-filled, in anonymous
/// memory that the kernel is asked to back with huge pages: the solver touches its slots at
/// random, and with 4 KiB pages nearly every such touch of a gigabyte array is also a miss in
/// the address translation cache. Where transparent huge pages are off, it is plain memory.
pub struct AtomicArray<T: ZeroableAtomic> {
    map: memmap2::MmapMut,
    len: usize,
    _element: std::marker::PhantomData<T>,
}

impl<T: ZeroableAtomic> AtomicArray<T> {
    /// `len` zeros.
    ///
    /// # Errors
    /// `Error::Io` when the memory cannot be mapped.
    pub fn zeroed(len: usize) -> Result<AtomicArray<T>, Error> {
        let bytes = (len * std::mem::size_of::<T>()).max(1);
        let map = memmap2::MmapMut::map_anon(bytes).map_err(|e| Error::Io {
            path: PathBuf::from(format!("(working memory of {bytes} bytes)")),
            cause: e,
        })?;
        // A hint: refused where the kernel has no transparent huge pages, which is harmless.
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        Ok(AtomicArray {
            map,
            len,
            _element: std::marker::PhantomData,
        })
    }
}

impl<T: ZeroableAtomic> std::ops::Deref for AtomicArray<T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: the map is page-aligned (so aligned for T), at least `len * size_of::<T>()`
        // bytes long, zero-filled by the kernel, and lives as long as `self`; T is an atomic
        // integer (sealed), valid for every bit pattern, and is only ever accessed through
        // shared references with atomic operations, so no `&mut` to these bytes exists while
        // the slice does.
        #[allow(unsafe_code)]
        unsafe {
            std::slice::from_raw_parts(self.map.as_ptr() as *const T, self.len)
        }
    }
}
