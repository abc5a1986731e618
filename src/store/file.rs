//! Reading sector files: mapped read-only, the header and block table checked on open, each
//! payload block checked the first time a cell of it is read.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

use memmap2::Mmap;
use rayon::prelude::*;
use xxhash_rust::xxh3::xxh3_64;

use std::sync::Arc;

use super::cache::BlockCache;
use super::codec::{decode_code, Cell};
use super::format::{
    check_header, decode_header, Header, FORMAT_VERSION, HEADER_CHECKSUM_AT, HEADER_SIZE, MAGIC,
};
use super::regular::{open_regular, read_exact_at};
use super::sector_tables::SectorTables;
use crate::error::{Damage, Error, Missing};
use crate::kernel::{huge_page_copy, prefetch};
use crate::rules::{Outcome, Position, Value, Variant};
use crate::space::{Sector, SectorIndex};

const BLOCK_UNCHECKED: u8 = 0;
const BLOCK_GOOD: u8 = 1;
const BLOCK_BAD: u8 = 2;

/// A sector file, read-only: its header and block table checked on open, each payload block
/// checked the first time a cell of it is read.
#[derive(Debug)]
pub struct SectorFile {
    path: PathBuf,
    header: Header,
    /// Held for the shared lock (and so that the map's or the reads' file stays open).
    file: File,
    source: Payload,
    payload: usize,
    block_shift: u32,
    /// Which blocks of a mapped file were checked, and how they fared.
    blocks: Vec<AtomicU8>,
    /// Whether every block of a mapped file was checked and found good
    /// ([`SectorFile::check_whole`]): then [`SectorFile::cell_in_whole`] reads in place.
    whole: bool,
}

/// Where a file's payload is read from.
#[derive(Debug)]
enum Payload {
    /// Mapped: the solver and the proof read rows of cells in place.
    Mapped(Mmap),
    /// Read with `pread` a block at a time into a cache, each block checked as it arrives:
    /// no read can fault when the file shrinks or changes under a long-running reader (a
    /// shorter file answers with an error naming it, until it is whole again).
    Read {
        /// The block table: each block's checksum.
        table: Vec<u64>,
        cache: Arc<BlockCache>,
        /// The file's number in the cache.
        id: u64,
    },
    /// Read from a sector's compact tables position by position (`--tables` for answers).
    Tables(Box<SectorTables>),
    /// Held in memory: a sector's compact tables decoded whole (`verify --tables`), or cells
    /// handed over ([`SectorFile::in_memory`]).
    Memory(Vec<u8>),
}

impl SectorFile {
    /// Opens a sector file and checks its header and block table against the variant, sector
    /// and slot count it must hold; payload blocks are checked as they are read.
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
        let (file, header) = open_checked(path, variant, sector, slots)?;
        // SAFETY: the map is read-only and private to this process; the files are written once
        // under a temporary name and renamed, never modified in place by this program. Another
        // process truncating the file could fault a read, which no API can rule out for mapped
        // files; the length was checked above before any cell is read.
        #[allow(unsafe_code)]
        let map = unsafe { Mmap::map(&file) }.map_err(|e| Error::io(path, e))?;
        let payload = header.payload_offset() as usize;
        if xxh3_64(&map[HEADER_SIZE as usize..payload]) != header.table_checksum {
            return Err(Error::damaged(path, Damage::TableChecksum));
        }
        Ok(SectorFile::new(path, header, file, Payload::Mapped(map)))
    }

    /// This mapped file copied into anonymous memory backed by huge pages where the kernel
    /// has them, for a solver that reads its cells at random (see [`huge_page_copy`]); any
    /// other file as it is. The copy's blocks are all checked now ([`SectorFile::check_whole`]):
    /// the copy has just read every byte, and when all are good its cells are then read
    /// without a check each; a damaged block fails as it is read, as the file's would.
    ///
    /// # Errors
    /// `Error::Memory` when the copy's memory cannot be mapped, `Error::Io` when the file's
    /// handle cannot be duplicated.
    pub(crate) fn in_huge_pages(self: &Arc<Self>) -> Result<Arc<SectorFile>, Error> {
        let Payload::Mapped(map) = &self.source else {
            return Ok(self.clone());
        };
        let copy = huge_page_copy(map)?;
        // The handle is duplicated, not reopened: the shared lock held on the file's open
        // description holds for the copy too.
        let file = self
            .file
            .try_clone()
            .map_err(|e| Error::io(&self.path, e))?;
        let header = self.header.clone();
        let mut copy = SectorFile::new(&self.path, header, file, Payload::Mapped(copy));
        copy.check_whole();
        Ok(Arc::new(copy))
    }

    /// Opens a sector file as [`SectorFile::open`] does, to be read block by block into
    /// `cache` (with `pread`, never mapped): for long-running readers, which a file truncated
    /// or replaced in place under them must not bring down.
    ///
    /// # Errors
    /// As [`SectorFile::open`].
    pub fn open_read(
        path: &Path,
        variant: &Variant,
        sector: Sector,
        slots: u64,
        cache: Arc<BlockCache>,
    ) -> Result<SectorFile, Error> {
        let (file, header) = open_checked(path, variant, sector, slots)?;
        let mut region = vec![0u8; (header.payload_offset() - HEADER_SIZE) as usize];
        read_exact_at(&file, &mut region, HEADER_SIZE).map_err(|e| Error::io(path, e))?;
        if xxh3_64(&region) != header.table_checksum {
            return Err(Error::damaged(path, Damage::TableChecksum));
        }
        let table = region
            .chunks_exact(8)
            .take(header.block_count() as usize)
            .map(|c| u64::from_le_bytes(c.try_into().expect("eight bytes")))
            .collect();
        let id = cache.file_id();
        let source = Payload::Read { table, cache, id };
        Ok(SectorFile::new(path, header, file, source))
    }

    /// Opens a sector's compact tables (`SECTOR.wdl` and `SECTOR.dtm` in the rule-set folder
    /// `dir`), to be read position by position through `cache`; with `whole`, decodes them
    /// into memory at once instead, every block checked, for the proof's rows.
    ///
    /// # Errors
    /// As a table file's opening: `Error::Io`, `Error::Foreign` for another variant, rule set,
    /// board or sector, `Error::Damaged` for a failed checksum, a bad field or a wrong length;
    /// with `whole`, the first damaged block.
    pub fn open_tables(
        dir: &Path,
        variant: &Variant,
        index: SectorIndex,
        cache: Arc<BlockCache>,
        whole: bool,
    ) -> Result<SectorFile, Error> {
        let tables = SectorTables::open(dir, variant, index, cache)?;
        let header = tables.header();
        let path = tables.path().to_path_buf();
        let file = open_regular(&path)?;
        if !whole {
            return Ok(SectorFile::new(
                &path,
                header,
                file,
                Payload::Tables(Box::new(tables)),
            ));
        }
        let cells = tables.materialize()?;
        Ok(SectorFile::new(&path, header, file, Payload::Memory(cells)))
    }

    fn new(path: &Path, header: Header, file: File, source: Payload) -> SectorFile {
        let in_memory = matches!(source, Payload::Memory(_));
        let state = if in_memory {
            BLOCK_GOOD
        } else {
            BLOCK_UNCHECKED
        };
        SectorFile {
            path: path.to_path_buf(),
            block_shift: header.block_size.trailing_zeros(),
            payload: if in_memory {
                0
            } else {
                header.payload_offset() as usize
            },
            blocks: (0..header.block_count())
                .map(|_| AtomicU8::new(state))
                .collect(),
            whole: false,
            header,
            file,
            source,
        }
    }

    /// The bytes of a mapped file, or of cells in memory: the solver and the proof read rows
    /// of cells in place.
    ///
    /// # Panics
    /// When the file was opened to be read block by block ([`SectorFile::open_read`]) or from
    /// tables position by position: such files answer probes, never the solver's or the
    /// proof's rows.
    #[inline]
    fn map(&self) -> &[u8] {
        match &self.source {
            Payload::Mapped(map) => map,
            Payload::Memory(cells) => cells,
            Payload::Read { .. } | Payload::Tables(_) => {
                panic!("rows of cells are read from mapped sector files only")
            }
        }
    }

    /// The bytes of payload block `b`, read with `pread`; a file shorter than its header
    /// promises is damage, named with its length now.
    fn read_block(&self, b: u64) -> Result<Vec<u8>, Error> {
        let size = self.header.block_size as u64;
        let start = b * size;
        let end = (start + size).min(self.header.payload_len());
        let mut bytes = vec![0u8; (end - start) as usize];
        match read_exact_at(&self.file, &mut bytes, self.payload as u64 + start) {
            Ok(()) => Ok(bytes),
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                let len = self
                    .file
                    .metadata()
                    .map_err(|e| Error::io(&self.path, e))?
                    .len();
                let expected = self.header.payload_offset() + self.header.payload_len();
                Err(Error::damaged(&self.path, Damage::Length { len, expected }))
            }
            Err(e) => Err(Error::io(&self.path, e)),
        }
    }

    /// Block `b` of a file read block by block: from the cache, or read and checked.
    fn cached_block(&self, b: u64) -> Result<Arc<[u8]>, Error> {
        let Payload::Read { table, cache, id } = &self.source else {
            unreachable!("only files read block by block cache their blocks");
        };
        if let Some(block) = cache.get((*id, b)) {
            return Ok(block);
        }
        let bytes = self.read_block(b)?;
        if xxh3_64(&bytes) != table[b as usize] {
            return Err(self.block_error(b));
        }
        let block: Arc<[u8]> = bytes.into();
        cache.insert((*id, b), block.clone());
        Ok(block)
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
        match &self.source {
            Payload::Mapped(map) => {
                let size = self.header.block_size as u64;
                let start = b * size;
                let end = (start + size).min(self.header.payload_len());
                let bytes = &map[self.payload + start as usize..self.payload + end as usize];
                let at = HEADER_SIZE as usize + 8 * b as usize;
                xxh3_64(bytes) == u64::from_le_bytes(map[at..at + 8].try_into().unwrap())
            }
            Payload::Read { table, .. } => self
                .read_block(b)
                .is_ok_and(|bytes| xxh3_64(&bytes) == table[b as usize]),
            // Decoded whole, every table block checked; tables check their blocks as read.
            Payload::Memory(_) | Payload::Tables(_) => true,
        }
    }

    /// Checks block `b` unless it was checked already.
    ///
    /// # Errors
    /// `Error::Damaged` naming the file and the block when its checksum fails.
    #[inline]
    pub(crate) fn check_block(&self, b: u64) -> Result<(), Error> {
        if let Payload::Read { .. } = self.source {
            // Nothing is remembered of a file read block by block: it may be whole again.
            return self.cached_block(b).map(|_| ());
        }
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
    /// reads a mapped file's cells in place, without a check each; a damaged block stays
    /// marked, and reading it fails as [`SectorFile::cell`] does.
    fn check_whole(&mut self) {
        let good = self.check_all_blocks().is_empty();
        self.whole = good && matches!(self.source, Payload::Mapped(_) | Payload::Memory(_));
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

    /// Every damaged block, as errors naming the file and the block (both files of tables).
    pub fn faults(&self) -> Vec<Error> {
        match &self.source {
            Payload::Tables(t) => t.faults(),
            _ => self
                .check_all_blocks()
                .into_iter()
                .map(|b| self.block_error(b))
                .collect(),
        }
    }

    /// The blocks and the bytes of values on disk (both files of tables, compressed).
    pub fn sizes(&self) -> (u64, u64) {
        match &self.source {
            Payload::Tables(t) => t.sizes(),
            _ => (self.header.block_count(), self.header.payload_len()),
        }
    }

    /// The error of a damaged block, naming file, block and slots.
    pub fn block_error(&self, b: u64) -> Error {
        let per = self.header.block_size as u64 / self.header.cell_width as u64;
        Error::damaged(
            &self.path,
            Damage::Block {
                block: b,
                start: b * per,
                end: ((b + 1) * per).min(self.header.slots),
            },
        )
    }

    /// The cell of `slot` (`None` for an unused slot), its block checked on first read.
    ///
    /// # Errors
    /// `Error::Damaged` when the block holding it fails its checksum.
    #[inline]
    pub fn cell(&self, slot: u64) -> Result<Cell, Error> {
        self.cell_of(slot, None)
    }

    /// The cell of `slot`, which holds `pos` when the caller knows it (tables read a
    /// position's context from it instead of unranking the slot).
    ///
    /// # Errors
    /// As [`SectorFile::cell`].
    #[inline]
    pub fn cell_of(&self, slot: u64, pos: Option<&Position>) -> Result<Cell, Error> {
        if let Payload::Tables(t) = &self.source {
            return t.cell(slot, pos);
        }
        let b = self.block_of(slot);
        if let Payload::Read { cache, id, .. } = &self.source {
            let w = self.header.cell_width as usize;
            let at = slot as usize * w - ((b as usize) << self.block_shift);
            let code = |block: &[u8]| {
                if w == 1 {
                    block[at] as u16
                } else {
                    u16::from_le_bytes([block[at], block[at + 1]])
                }
            };
            let code = match cache.read((*id, b), code) {
                Some(c) => c,
                None => code(&self.cached_block(b)?),
            };
            return Ok(decode_code(code, self.header.cell_width));
        }
        self.check_block(b)?;
        Ok(self.cell_unchecked(slot))
    }

    /// Win, draw or loss of `slot`, which holds `pos`: from tables, only the win/draw/loss
    /// file is read.
    ///
    /// # Errors
    /// As [`SectorFile::cell`]; `Error::Damaged` when the slot is marked unused.
    #[inline]
    pub fn outcome_of(&self, slot: u64, pos: &Position) -> Result<Outcome, Error> {
        if let Payload::Tables(t) = &self.source {
            return Ok(match t.wdl_of(slot, pos)? {
                0 => Outcome::Draw,
                1 => Outcome::Win,
                _ => Outcome::Loss,
            });
        }
        self.cell_of(slot, Some(pos))?
            .map(Value::outcome)
            .ok_or_else(|| Error::damaged(&self.path, Damage::UnusedSlot { slot }))
    }

    /// The cells of `start..start + len` without checking their blocks: for `verify`, which
    /// checks every block itself (see [`SectorFile::cell_unchecked`]).
    pub(crate) fn row_unchecked(&self, start: u64, len: u64) -> Row<'_> {
        debug_assert!(start + len <= self.header.slots);
        let w = self.header.cell_width as usize;
        let at = self.payload + start as usize * w;
        Row {
            bytes: &self.map()[at..at + len as usize * w],
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
        if let Payload::Mapped(map) = &self.source {
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
        let (map, at) = (self.map(), self.payload);
        if self.header.cell_width == 1 {
            map[at + slot as usize] as u16
        } else {
            let i = at + 2 * slot as usize;
            u16::from_le_bytes([map[i], map[i + 1]])
        }
    }
}

/// Opens a sector file and checks everything but its block table: the header against what
/// the file must hold, and the file's length against the header.
fn open_checked(
    path: &Path,
    variant: &Variant,
    sector: Sector,
    slots: u64,
) -> Result<(File, Header), Error> {
    let (file, len, head) = read_head(path)?;
    let header = check_head(path, &head, len, variant, sector)?;
    check_header(path, &header, variant, sector, slots)?;
    let expected = header.payload_offset() + header.payload_len();
    if len != expected {
        return Err(Error::damaged(path, Damage::Length { len, expected }));
    }
    Ok((file, header))
}

/// Opens a regular file under a shared lock ([`open_regular`](super::regular::open_regular)), and reads its length and its
/// header region (less when shorter).
fn read_head(path: &Path) -> Result<(File, u64, Vec<u8>), Error> {
    let mut file = open_regular(path)?;
    let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
    let mut head = vec![0u8; HEADER_SIZE.min(len) as usize];
    file.read_exact(&mut head).map_err(|e| Error::io(path, e))?;
    Ok((file, len, head))
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
