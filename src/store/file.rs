//! Reading sector files: mapped read-only, the header and block table checked on open, each
//! payload block checked the first time a cell of it is read.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use std::sync::Arc;

use memmap2::Mmap;
use rayon::prelude::*;
use xxhash_rust::xxh3::xxh3_64;

use super::codec::{decode_code, Cell, Key, Keys};
use super::format::{
    check_header, decode_header, Header, SectorStats, FORMAT_VERSION, HEADER_CHECKSUM_AT,
    HEADER_SIZE, MAGIC,
};
use super::source::{Disk, Files, Source};
use super::values::SectorValues;
use crate::error::{Damage, Error, Missing};
use crate::kernel::{huge_page_copy, prefetch};
use crate::rules::{Position, Variant};
use crate::space::Sector;

const BLOCK_UNCHECKED: u8 = 0;
const BLOCK_GOOD: u8 = 1;
const BLOCK_BAD: u8 = 2;

/// A sector's cells in place, mapped or in memory, for the solver and the proof, which read
/// rows of them: its header and block table checked on open, each payload block checked the
/// first time a cell of it is read.
#[derive(Debug)]
pub struct SectorFile {
    path: PathBuf,
    header: Header,
    /// What keeps the bytes valid and the file's shared lock held (`None` for cells in memory).
    keep: Option<Arc<dyn Source>>,
    bytes: InPlace,
    payload: usize,
    block_shift: u32,
    /// Which blocks were checked, and how they fared.
    blocks: Vec<AtomicU8>,
    /// Whether every block was checked and found good ([`SectorFile::check_whole`]): then
    /// [`SectorFile::cell_in_whole`] reads in place.
    whole: bool,
}

/// Where a sector's cells lie.
#[derive(Debug)]
enum InPlace {
    /// A file mapped read-only (or its copy in huge pages).
    Mapped(Mmap),
    /// In memory: a file read whole, or a sector's compact tables decoded whole.
    Memory(Vec<u8>),
}

impl std::ops::Deref for InPlace {
    type Target = [u8];

    #[inline(always)]
    fn deref(&self) -> &[u8] {
        match self {
            InPlace::Mapped(map) => map,
            InPlace::Memory(bytes) => bytes,
        }
    }
}

impl SectorFile {
    /// Opens a sector file on disk, mapped, and checks its header and block table against
    /// the variant, sector and slot count it must hold; payload blocks are checked as they are
    /// read.
    ///
    /// # Errors
    /// `Error::Io` when it cannot be read or is not a regular file, `Error::OldFormat` for a
    /// file of another format version, `Error::Foreign` when it holds another variant, rule
    /// set or sector, `Error::Damaged` when it is truncated, extended or fails a checksum.
    pub fn open(
        path: &Path,
        variant: &Variant,
        sector: Sector,
        slots: u64,
    ) -> Result<SectorFile, Error> {
        SectorFile::open_in(&Disk, path, variant, sector, slots)
    }

    /// Opens the sector file at `path` of `files` as [`SectorFile::open`] does: mapped where
    /// `files` can map it, else read whole into memory.
    ///
    /// # Errors
    /// As [`SectorFile::open`].
    pub(crate) fn open_in(
        files: &dyn Files,
        path: &Path,
        variant: &Variant,
        sector: Sector,
        slots: u64,
    ) -> Result<SectorFile, Error> {
        let (keep, bytes) = match files.map(path) {
            Some(mapped) => {
                let (source, map) = mapped?;
                (source, InPlace::Mapped(map))
            }
            None => {
                let source = files.open(path)?;
                let len = source.size().map_err(|e| Error::io(path, e))?;
                let mut bytes = vec![0u8; len as usize];
                source
                    .read_at(&mut bytes, 0)
                    .map_err(|e| Error::io(path, e))?;
                (source, InPlace::Memory(bytes))
            }
        };
        // The length is checked here, against the source, before any cell is read.
        let header = open_checked(&*keep, path, variant, sector, slots)?;
        let payload = header.payload_offset() as usize;
        if bytes.len() < payload
            || xxh3_64(&bytes[HEADER_SIZE as usize..payload]) != header.table_checksum
        {
            return Err(Error::damaged(path, Damage::TableChecksum));
        }
        Ok(SectorFile::new(
            path,
            header,
            Some(keep),
            bytes,
            payload,
            BLOCK_UNCHECKED,
        ))
    }

    /// A sector's cells decoded whole into memory (from its compact tables, every block
    /// checked as it was decoded), under the header that describes them.
    pub(crate) fn from_cells(path: &Path, header: Header, cells: Vec<u8>) -> SectorFile {
        SectorFile::new(path, header, None, InPlace::Memory(cells), 0, BLOCK_GOOD)
    }

    /// This mapped file copied into anonymous memory backed by huge pages where the kernel
    /// has them, for a solver that reads its cells at random (see [`huge_page_copy`]); cells
    /// in memory as they are. The copy's blocks are all checked now
    /// ([`SectorFile::check_whole`]): the copy has just read every byte, and when all are good
    /// its cells are then read without a check each; a damaged block fails as it is read, as
    /// the file's would.
    ///
    /// # Errors
    /// `Error::Memory` when the copy's memory cannot be mapped.
    pub(crate) fn in_huge_pages(self: &Arc<Self>) -> Result<Arc<SectorFile>, Error> {
        let InPlace::Mapped(map) = &self.bytes else {
            return Ok(self.clone());
        };
        let copy = huge_page_copy(map)?;
        // The file stays open (and its shared lock held) as long as the copy lives.
        let (path, header) = (&self.path, self.header.clone());
        let keep = self.keep.clone();
        let mut copy = SectorFile::new(
            path,
            header,
            keep,
            InPlace::Mapped(copy),
            self.payload,
            BLOCK_UNCHECKED,
        );
        copy.check_whole();
        Ok(Arc::new(copy))
    }

    fn new(
        path: &Path,
        header: Header,
        keep: Option<Arc<dyn Source>>,
        bytes: InPlace,
        payload: usize,
        state: u8,
    ) -> SectorFile {
        SectorFile {
            path: path.to_path_buf(),
            block_shift: header.block_size.trailing_zeros(),
            payload,
            blocks: (0..header.block_count())
                .map(|_| AtomicU8::new(state))
                .collect(),
            whole: false,
            header,
            keep,
            bytes,
        }
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
    pub(crate) fn block_of(&self, slot: u64) -> u64 {
        (slot * self.header.cell_width as u64) >> self.block_shift
    }

    /// Whether block `b`'s bytes match its checksum in the table.
    fn block_ok(&self, b: u64) -> bool {
        let size = self.header.block_size as u64;
        let start = b * size;
        let end = (start + size).min(self.header.payload_len());
        let bytes = &self.bytes[self.payload + start as usize..self.payload + end as usize];
        let at = HEADER_SIZE as usize + 8 * b as usize;
        xxh3_64(bytes) == u64::from_le_bytes(self.bytes[at..at + 8].try_into().unwrap())
    }

    /// Checks block `b` unless it was checked already.
    ///
    /// # Errors
    /// `Error::Damaged` naming the file and the block when its checksum fails.
    #[inline]
    pub(crate) fn check_block(&self, b: u64) -> Result<(), Error> {
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

    /// Checks every block now (in parallel): when all are good, [`SectorFile::cell_in_whole`]
    /// reads the cells in place, without a check each; a damaged block stays marked, and
    /// reading it fails as [`SectorFile::cell`] does.
    fn check_whole(&mut self) {
        self.whole = self.check_all_blocks().is_empty();
    }

    /// The cell of `slot` as [`SectorFile::cell`] reads it, but in place, without a look at
    /// its block's check, once [`SectorFile::check_whole`] has checked them all: the
    /// solver's children pass reads one cell per position at random, and the call and the
    /// branches of the general path cost it more than the check saves.
    ///
    /// # Errors
    /// As [`SectorFile::cell`], unless the file was checked whole and found good.
    #[inline(always)]
    pub(crate) fn cell_in_whole(&self, slot: u64) -> Result<Cell, Error> {
        if self.whole {
            Ok(self.cell_unchecked(slot))
        } else {
            self.cell(slot)
        }
    }

    /// The key ([`Key`]) of `slot`'s cell under `keys` (those of this file's cell width), as
    /// [`SectorFile::cell_in_whole`] reads it: [`Key::BAD`] for an unused slot.
    ///
    /// # Errors
    /// As [`SectorFile::cell`], unless the file was checked whole and found good.
    #[inline(always)]
    pub(crate) fn key_in_whole(&self, slot: u64, keys: &Keys) -> Result<u32, Error> {
        if self.whole {
            Ok(keys.key(self.code_unchecked(slot)))
        } else {
            self.cell(slot).map(Key::of)
        }
    }

    /// The error of a damaged block, naming file, block and slots.
    pub fn block_error(&self, b: u64) -> Error {
        block_error(&self.path, &self.header, b)
    }

    /// The cell of `slot` (`None` for an unused slot), its block checked on first read.
    ///
    /// # Errors
    /// `Error::Damaged` when the block holding it fails its checksum.
    #[inline]
    pub fn cell(&self, slot: u64) -> Result<Cell, Error> {
        self.check_block(self.block_of(slot))?;
        Ok(self.cell_unchecked(slot))
    }

    /// The cells of `start..start + len` without checking their blocks: for `verify`, which
    /// checks every block itself (see [`SectorFile::cell_unchecked`]).
    pub(crate) fn row_unchecked(&self, start: u64, len: u64) -> Row<'_> {
        debug_assert!(start + len <= self.header.slots);
        let w = self.header.cell_width as usize;
        let at = self.payload + start as usize * w;
        Row {
            bytes: &self.bytes[at..at + len as usize * w],
            wide: w == 2,
        }
    }

    /// The cells of `start..start + len`, their blocks checked now, for reading many cells
    /// of one region without a check per read.
    ///
    /// # Errors
    /// `Error::Damaged` when a block of the region fails its checksum.
    pub(crate) fn row(&self, start: u64, len: u64) -> Result<Row<'_>, Error> {
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
    pub(crate) fn prefetch(&self, slot: u64) {
        if let InPlace::Mapped(map) = &self.bytes {
            let at = self.payload + (slot * self.header.cell_width as u64) as usize;
            if let Some(byte) = map.get(at) {
                prefetch(byte);
            }
        }
    }

    /// The cell of `slot` without checking its block: for `verify`, which checks every block
    /// itself and then names the positions a damaged block gets wrong.
    #[inline]
    pub(crate) fn cell_unchecked(&self, slot: u64) -> Cell {
        decode_code(self.code_unchecked(slot), self.header.cell_width)
    }

    /// The code of `slot`'s cell (see [`decode_code`]) without checking its block, as
    /// [`SectorFile::cell_unchecked`] reads it.
    #[inline]
    pub(crate) fn code_unchecked(&self, slot: u64) -> u16 {
        let (map, at) = (&*self.bytes, self.payload);
        if self.header.cell_width == 1 {
            map[at + slot as usize] as u16
        } else {
            let i = at + 2 * slot as usize;
            u16::from_le_bytes([map[i], map[i + 1]])
        }
    }
}

impl SectorValues for SectorFile {
    fn path(&self) -> &Path {
        &self.path
    }

    fn stats(&self) -> SectorStats {
        self.header.stats
    }

    fn database_checksum(&self) -> u64 {
        self.header.checksum
    }

    #[inline]
    fn cell_of(&self, slot: u64, _pos: Option<&Position>) -> Result<Cell, Error> {
        self.cell(slot)
    }

    fn faults(&self) -> Vec<Error> {
        self.check_all_blocks()
            .into_iter()
            .map(|b| self.block_error(b))
            .collect()
    }

    fn sizes(&self) -> (u64, u64) {
        (self.header.block_count(), self.header.payload_len())
    }
}

/// The error of damaged block `b` of the sector file at `path`, naming the file, the block
/// and its slots.
pub(super) fn block_error(path: &Path, header: &Header, b: u64) -> Error {
    let per = header.block_size as u64 / header.cell_width as u64;
    Error::damaged(
        path,
        Damage::Block {
            block: b,
            start: b * per,
            end: ((b + 1) * per).min(header.slots),
        },
    )
}

/// Checks everything of the sector file `source` (named `path` in messages) but its block
/// table: the header against what the file must hold, and the file's length against the
/// header.
pub(super) fn open_checked(
    source: &dyn Source,
    path: &Path,
    variant: &Variant,
    sector: Sector,
    slots: u64,
) -> Result<Header, Error> {
    let len = source.size().map_err(|e| Error::io(path, e))?;
    let mut head = vec![0u8; HEADER_SIZE.min(len) as usize];
    source
        .read_at(&mut head, 0)
        .map_err(|e| Error::io(path, e))?;
    let header = check_head(path, &head, len, variant, sector)?;
    check_header(path, &header, variant, sector, slots)?;
    let expected = header.payload_offset() + header.payload_len();
    if len != expected {
        return Err(Error::damaged(path, Damage::Length { len, expected }));
    }
    Ok(header)
}

/// The header of a file of `len` bytes whose header region is `head`: magic, version and
/// checksum checked, then decoded.
fn check_head(
    path: &Path,
    head: &[u8],
    len: u64,
    variant: &Variant,
    sector: Sector,
) -> Result<Header, Error> {
    if head.len() < 12 || &head[..8] != MAGIC {
        return Err(Error::damaged(path, Damage::NotASectorFile));
    }
    let version = u32::from_le_bytes(head[8..12].try_into().unwrap());
    let old_format = |found: u32| {
        let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        Error::OldFormat {
            path: path.to_path_buf(),
            found,
            expected: FORMAT_VERSION,
            missing: Box::new(Missing {
                sector,
                db: dir.parent().unwrap_or(Path::new(".")).to_path_buf(),
                dir,
                variant: variant.name().to_string(),
                rules: variant.rules(),
                tables: false,
            }),
        }
    };
    // Format 1 had another header; any other version is only trusted once the header
    // checksum holds (a flipped byte there is damage, not a newer format).
    if version == 1 {
        return Err(old_format(version));
    }
    if len < HEADER_SIZE {
        return Err(Error::damaged(path, Damage::ShortHeader { len }));
    }
    let stored = u64::from_le_bytes(head[HEADER_CHECKSUM_AT..].try_into().unwrap());
    if xxh3_64(&head[..HEADER_CHECKSUM_AT]) != stored {
        return Err(Error::damaged(path, Damage::HeaderChecksum));
    }
    if version != FORMAT_VERSION {
        return Err(old_format(version));
    }
    decode_header(head, stored).map_err(|why| Error::damaged(path, Damage::Header(why)))
}

/// Checked cells of one region of a sector file (see [`SectorFile::row`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Row<'a> {
    bytes: &'a [u8],
    wide: bool,
}

impl Row<'_> {
    /// The cell width in bytes.
    #[inline]
    pub(crate) fn width(&self) -> u8 {
        if self.wide {
            2
        } else {
            1
        }
    }

    /// Cell `i`.
    #[inline]
    pub(crate) fn cell(&self, i: usize) -> Cell {
        decode_code(self.code(i), self.width())
    }

    /// The stored code of cell `i` (see [`decode_code`]).
    #[inline]
    pub(crate) fn code(&self, i: usize) -> u16 {
        if self.wide {
            u16::from_le_bytes([self.bytes[2 * i], self.bytes[2 * i + 1]])
        } else {
            self.bytes[i] as u16
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::codec::{encode_cell, max_depth_for_width};
    use super::super::format::BLOCK_SIZE;
    use super::super::write::write_sector;
    use super::*;
    use crate::rules::Value;
    use std::fs;

    fn sector33() -> Sector {
        "3-3-0-0".parse().unwrap()
    }

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
        // A copy in huge pages, as cyclic units read their children, reads the same cells
        // and fails the same block, named by the file's path.
        let file = Arc::new(SectorFile::open(&path, &variant, sector, slots).unwrap());
        let copy = file.in_huge_pages().unwrap();
        assert!(!Arc::ptr_eq(&file, &copy));
        for slot in (0..slots).step_by(977).chain([slots - 1]) {
            if file.block_of(slot) != 2 {
                assert_eq!(copy.cell(slot).unwrap(), file.cell(slot).unwrap(), "{slot}");
            }
        }
        let err = copy
            .cell(2 * BLOCK_SIZE as u64 + 5)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("block 2") && err.contains("3-3-0-0.sec"),
            "{err}"
        );
        assert_eq!(copy.check_all_blocks(), vec![2]);
        fs::remove_dir_all(&dir).unwrap();
    }
}
