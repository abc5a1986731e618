//! Compact tables: one sector's values in two files, win/draw/loss and depth, each a run of
//! blocks compressed alone (zstd with a dictionary trained on the file's own blocks), every
//! block checksummed. `docs/tables.md` specifies the format byte by byte.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `MORRISTB` |
//! | 8 | 4 | table format version (1) |
//! | 12 | 4 | kind: 1 win/draw/loss, 2 depth |
//! | 16 | 4 | index layout version (1, as the database's) |
//! | 20 | 4 | bits per symbol: 2 (win/draw/loss), 8 or 16 (depth) |
//! | 24 | 4 | positions per block (a power of two) |
//! | 28 | 4 | codec: 1 zstd frames with the file's dictionary |
//! | 32 | 32 | variant name, ASCII, NUL-padded |
//! | 64 | 128 | rule-set id, ASCII, NUL-padded |
//! | 192 | 8 | rule-set checksum: xxh3-64 of the id's bytes |
//! | 200 | 6 | rule codes: pieces, flying, removal, phases, full board, no move |
//! | 206 | 2 | zero |
//! | 208 | 4 | sector: mover, opponent, mover's hand, opponent's hand |
//! | 212 | 4 | zero |
//! | 216 | 8 | index slots |
//! | 224 | 64 | statistics, 8 × u64, as the database header's |
//! | 288 | 4 | maximum depth |
//! | 292 | 4 | model: 0 none, 1 contexts (win/draw/loss only) |
//! | 296 | 8 | block count |
//! | 304 | 8 | dictionary offset (4096) |
//! | 312 | 8 | dictionary length (0: none) |
//! | 320 | 8 | block index offset |
//! | 328 | 8 | data offset |
//! | 336 | 8 | file length |
//! | 344 | 8 | source checksum: the database file's checksum the table was built from |
//! | 352 | 8 | index checksum: xxh3-64 of bytes `[dictionary offset, data offset)` |
//! | 360 | 4 | length of the board-lines text |
//! | 364 | 1024 | the board's lines, as in the database header |
//! | 1388 | 27 | model 1: the order byte of each context (zero otherwise) |
//! | 4088 | 8 | header checksum: xxh3-64 of bytes `[0, 4088)` |
//!
//! The block index holds, per block, its offset from the data offset and the xxh3-64 of its
//! compressed bytes (two u64); a block ends where the next one begins (the last at the file's
//! end). A block decompresses to the symbols of `positions per block` index slots (the last
//! block to those left), packed: 2-bit symbols four to a byte, the first in the low bits;
//! 16-bit symbols little-endian.
//!
//! - win/draw/loss: 0 a draw, 1 a win, 2 a loss for the mover. Under model 1 the file stores
//!   the symbol's rank in the order byte of the position's context (docs/tables.md §5):
//!   0 for the symbol in bits 0-1, 1 for bits 2-3, 2 for bits 4-5.
//! - depth: a win in `2k + 1` plies or a loss in `2k` plies is `k` (the parity is the
//!   win/draw/loss file's).
//!
//! Symbols that no answer reads (unused slots in both files, draws in the depth file) hold
//! whatever compresses best: the builder repeats the symbol before them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use xxhash_rust::xxh3::xxh3_64;

use super::cache::BlockCache;
use super::format::{board_lines, SectorStats};
use super::frames::{self, Dictionary};
use super::model::{order_is_valid, CONTEXTS, IDENTITY};
use super::source::{Disk, Files, Source};
use crate::error::{Damage, Error, Foreign};
use crate::rules::{Flying, FullBoard, NoMove, Phases, Removal, RuleSwitch, Rules, Variant};
use crate::space::Sector;

/// The first eight bytes of a table file.
pub(crate) const TABLE_MAGIC: &[u8; 8] = b"MORRISTB";
/// The table format version this build reads and writes.
pub(crate) const TABLE_VERSION: u32 = 1;
/// The header region's size.
pub(crate) const HEAD: usize = 4096;
const HEAD_CHECKSUM_AT: usize = 4088;
/// The codec of zstd frames with the file's dictionary.
const CODEC_ZSTD: u32 = 1;
const LINES_AT: usize = 364;
const LINES_SIZE: usize = 1024;
const ORDERS_AT: usize = LINES_AT + LINES_SIZE;

/// What a table file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum TableKind {
    /// Win, draw or loss of every position (`.wdl`).
    Wdl = 1,
    /// The depth of every won or lost position (`.dtm`).
    Depth = 2,
}

impl TableKind {
    /// The file name extension.
    pub(crate) fn extension(self) -> &'static str {
        match self {
            TableKind::Wdl => "wdl",
            TableKind::Depth => "dtm",
        }
    }
}

/// How a win/draw/loss table stores its symbols.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Model {
    /// The symbols themselves.
    None,
    /// Each symbol's rank in the order of its position's context (docs/tables.md §5).
    Contexts([u8; CONTEXTS]),
}

impl Model {
    fn code(&self) -> u32 {
        match self {
            Model::None => 0,
            Model::Contexts(_) => 1,
        }
    }

    /// The order byte of context `c`.
    #[inline]
    pub(crate) fn order(&self, c: usize) -> u8 {
        match self {
            Model::None => IDENTITY,
            Model::Contexts(o) => o[c],
        }
    }
}

/// The header of a table file, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TableHeader {
    /// What the file holds.
    pub kind: TableKind,
    /// The variant's name.
    pub variant: String,
    /// The rule set's stable id.
    pub rule_set: String,
    /// Every rule value.
    pub rules: Rules,
    /// The board's lines as text.
    pub lines: String,
    /// The sector.
    pub sector: Sector,
    /// Index slots, used or not.
    pub slots: u64,
    /// The sector's statistics, as the database's header had them.
    pub stats: SectorStats,
    /// Bits per symbol: 2, 8 or 16.
    pub bits: u8,
    /// How win/draw/loss symbols are stored.
    pub model: Model,
    /// Positions per block.
    pub block_positions: u32,
    /// Blocks.
    pub blocks: u64,
    /// The dictionary's length in bytes (0: none).
    pub dict_len: u64,
    /// Where the block index starts.
    pub index_at: u64,
    /// Where the blocks start.
    pub data_at: u64,
    /// The file's length.
    pub file_len: u64,
    /// The checksum of the database file the table was built from.
    pub source_checksum: u64,
    /// xxh3-64 of the dictionary and the block index.
    pub index_checksum: u64,
    /// xxh3-64 of the header: the file's checksum.
    pub checksum: u64,
}

/// A text field, NUL-padded to `width` bytes.
fn put_text(head: &mut [u8], at: usize, width: usize, text: &str) {
    assert!(text.len() <= width, "{text:?} does not fit {width} bytes");
    head[at..at + text.len()].copy_from_slice(text.as_bytes());
}

/// A NUL-padded ASCII field, or `None`.
fn get_text(field: &[u8]) -> Option<String> {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    (field[end..].iter().all(|&b| b == 0) && field[..end].is_ascii())
        .then(|| String::from_utf8_lossy(&field[..end]).into_owned())
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("four bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("eight bytes"))
}

fn put32(h: &mut [u8], at: usize, x: u32) {
    h[at..at + 4].copy_from_slice(&x.to_le_bytes());
}

fn put64(h: &mut [u8], at: usize, x: u64) {
    h[at..at + 8].copy_from_slice(&x.to_le_bytes());
}

impl TableHeader {
    /// A header for `kind` of `sector` of `variant` (sizes and checksums to fill in).
    pub(crate) fn new(variant: &Variant, sector: Sector, kind: TableKind, slots: u64) -> Self {
        TableHeader {
            kind,
            variant: variant.name().to_string(),
            rule_set: variant.rules().id(),
            rules: variant.rules(),
            lines: board_lines(variant),
            sector,
            slots,
            stats: SectorStats::default(),
            bits: 2,
            model: Model::None,
            block_positions: 1,
            blocks: 0,
            dict_len: 0,
            index_at: 0,
            data_at: 0,
            file_len: 0,
            source_checksum: 0,
            index_checksum: 0,
            checksum: 0,
        }
    }

    /// The bytes of `positions` symbols, packed.
    pub(crate) fn packed_len(&self, positions: u64) -> usize {
        (positions * self.bits as u64).div_ceil(8) as usize
    }

    /// The header region's bytes, its checksum filled in (and kept in `self.checksum`).
    pub(crate) fn encode(&mut self) -> Vec<u8> {
        let mut h = vec![0u8; HEAD];
        h[0..8].copy_from_slice(TABLE_MAGIC);
        put32(&mut h, 8, TABLE_VERSION);
        put32(&mut h, 12, self.kind as u32);
        put32(&mut h, 16, super::format::INDEX_LAYOUT);
        put32(&mut h, 20, self.bits as u32);
        put32(&mut h, 24, self.block_positions);
        put32(&mut h, 28, CODEC_ZSTD);
        put_text(&mut h, 32, 32, &self.variant);
        put_text(&mut h, 64, 128, &self.rule_set);
        put64(&mut h, 192, xxh3_64(self.rule_set.as_bytes()));
        let r = &self.rules;
        h[200..206].copy_from_slice(&[
            r.pieces,
            r.flying.code(),
            r.removal.code(),
            r.phases.code(),
            r.full_board.code(),
            r.no_move.code(),
        ]);
        let s = self.sector;
        h[208..212].copy_from_slice(&[s.mover, s.opponent, s.mover_hand, s.opponent_hand]);
        put64(&mut h, 216, self.slots);
        for (i, x) in self.stats.counts().into_iter().enumerate() {
            put64(&mut h, 224 + 8 * i, x);
        }
        put32(&mut h, 288, self.stats.max_depth);
        put32(&mut h, 292, self.model.code());
        put64(&mut h, 296, self.blocks);
        put64(&mut h, 304, HEAD as u64);
        put64(&mut h, 312, self.dict_len);
        put64(&mut h, 320, self.index_at);
        put64(&mut h, 328, self.data_at);
        put64(&mut h, 336, self.file_len);
        put64(&mut h, 344, self.source_checksum);
        put64(&mut h, 352, self.index_checksum);
        put32(&mut h, 360, self.lines.len() as u32);
        put_text(&mut h, LINES_AT, LINES_SIZE, &self.lines);
        if let Model::Contexts(orders) = &self.model {
            h[ORDERS_AT..ORDERS_AT + CONTEXTS].copy_from_slice(orders);
        }
        self.checksum = xxh3_64(&h[..HEAD_CHECKSUM_AT]);
        put64(&mut h, HEAD_CHECKSUM_AT, self.checksum);
        h
    }

    /// Decodes a header region whose checksum was checked; the reason when a field is
    /// impossible.
    fn decode(h: &[u8]) -> Result<TableHeader, String> {
        let version = u32_at(h, 8);
        if version != TABLE_VERSION {
            return Err(format!(
                "table format {version}, this build reads format {TABLE_VERSION}"
            ));
        }
        let kind = match u32_at(h, 12) {
            1 => TableKind::Wdl,
            2 => TableKind::Depth,
            k => return Err(format!("table kind {k}")),
        };
        if u32_at(h, 16) != super::format::INDEX_LAYOUT {
            return Err(format!("index layout {}", u32_at(h, 16)));
        }
        let bits = u32_at(h, 20);
        let block_positions = u32_at(h, 24);
        let bits_fit = match kind {
            TableKind::Wdl => bits == 2,
            TableKind::Depth => bits == 8 || bits == 16,
        };
        if !bits_fit
            || !(4..=1 << 24).contains(&block_positions)
            || !block_positions.is_power_of_two()
            || u32_at(h, 28) != CODEC_ZSTD
        {
            return Err(format!(
                "{bits}-bit symbols, blocks of {block_positions}, codec {}",
                u32_at(h, 28)
            ));
        }
        let text = |name: &str, field: &[u8]| {
            get_text(field).ok_or_else(|| format!("the {name} field is not NUL-padded ASCII"))
        };
        let rule_set = text("rule-set id", &h[64..192])?;
        if u64_at(h, 192) != xxh3_64(rule_set.as_bytes()) {
            return Err("the rule-set checksum does not match its id".into());
        }
        let rules = Self::decode_rules(h)?;
        let lines = text("board lines", &h[LINES_AT..LINES_AT + LINES_SIZE])?;
        if lines.len() != u32_at(h, 360) as usize {
            return Err("the board lines' length disagrees with the text".into());
        }
        let model = Self::decode_model(h, kind)?;
        let mut counts = [0u64; 8];
        for (i, c) in counts.iter_mut().enumerate() {
            *c = u64_at(h, 224 + 8 * i);
        }
        let header = TableHeader {
            kind,
            variant: text("variant", &h[32..64])?,
            rule_set,
            rules,
            lines,
            sector: Sector {
                mover: h[208],
                opponent: h[209],
                mover_hand: h[210],
                opponent_hand: h[211],
            },
            slots: u64_at(h, 216),
            stats: SectorStats::from_counts(counts, u32_at(h, 288)),
            bits: bits as u8,
            model,
            block_positions,
            blocks: u64_at(h, 296),
            dict_len: u64_at(h, 312),
            index_at: u64_at(h, 320),
            data_at: u64_at(h, 328),
            file_len: u64_at(h, 336),
            source_checksum: u64_at(h, 344),
            index_checksum: u64_at(h, 352),
            checksum: u64_at(h, HEAD_CHECKSUM_AT),
        };
        header.check_layout()?;
        Ok(header)
    }

    /// The rule codes.
    fn decode_rules(h: &[u8]) -> Result<Rules, String> {
        fn rule<T: RuleSwitch>(code: u8) -> Result<T, String> {
            T::from_code(code).ok_or_else(|| format!("unknown {} code {code}", T::NAME))
        }
        Ok(Rules {
            pieces: h[200],
            flying: rule::<Flying>(h[201])?,
            removal: rule::<Removal>(h[202])?,
            phases: rule::<Phases>(h[203])?,
            full_board: rule::<FullBoard>(h[204])?,
            no_move: rule::<NoMove>(h[205])?,
        })
    }

    /// The model field and its order bytes.
    fn decode_model(h: &[u8], kind: TableKind) -> Result<Model, String> {
        let orders = &h[ORDERS_AT..ORDERS_AT + CONTEXTS];
        match (u32_at(h, 292), kind) {
            (0, _) if orders.iter().all(|&o| o == 0) => Ok(Model::None),
            (1, TableKind::Wdl) if orders.iter().all(|&o| order_is_valid(o)) => {
                Ok(Model::Contexts(orders.try_into().expect("CONTEXTS bytes")))
            }
            (m, _) => Err(format!("model {m} with order bytes {orders:02x?}")),
        }
    }

    /// Checks that the regions follow each other as the format lays them out.
    fn check_layout(&self) -> Result<(), String> {
        let blocks = self.slots.div_ceil(self.block_positions as u64);
        let index_at = HEAD as u64 + self.dict_len;
        let data_at = index_at + 16 * self.blocks;
        if self.blocks != blocks
            || self.index_at != index_at
            || self.data_at != data_at
            || self.file_len < data_at
        {
            return Err(format!(
                "{} blocks at {} and {} in a file of {} bytes disagree with {} slots",
                self.blocks, self.index_at, self.data_at, self.file_len, self.slots
            ));
        }
        Ok(())
    }

    /// The file checksum as 16 hex digits.
    pub(crate) fn checksum_hex(&self) -> String {
        format!("{:016x}", self.checksum)
    }
}

/// One table file, opened: its header, dictionary and block index checked, its blocks read
/// from its [`Source`] and checked as they are needed (never mapped).
pub(crate) struct TableFile {
    path: PathBuf,
    source: Arc<dyn Source>,
    header: TableHeader,
    /// Per block: its offset from the data offset and its checksum.
    index: Vec<(u64, u64)>,
    dict: Option<Dictionary>,
    cache: Arc<BlockCache>,
    /// The file's number in the cache.
    id: u64,
}

impl std::fmt::Debug for TableFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableFile")
            .field("path", &self.path)
            .field("header", &self.header)
            .finish_non_exhaustive()
    }
}

impl TableFile {
    /// Opens the table of `kind` of `sector` at `path` of `files` and checks it holds what is
    /// asked for: the variant, rule set (by its id and checksum), board, sector and slot count.
    ///
    /// # Errors
    /// `Error::Io`, `Error::Foreign` for another variant, rule set, board or sector,
    /// `Error::Damaged` for a failed checksum, a bad field or a wrong length.
    pub(crate) fn open(
        files: &dyn Files,
        path: &Path,
        variant: &Variant,
        sector: Sector,
        kind: TableKind,
        slots: u64,
        cache: Arc<BlockCache>,
    ) -> Result<TableFile, Error> {
        let (source, head) = read_head(files, path)?;
        let header =
            TableHeader::decode(&head).map_err(|why| Error::damaged(path, Damage::Header(why)))?;
        check_holds(path, &header, variant, sector, kind, slots)?;
        let len = source.size().map_err(|e| Error::io(path, e))?;
        if header.file_len != len {
            let expected = header.file_len;
            return Err(Error::damaged(path, Damage::Length { len, expected }));
        }
        let mut region = vec![0u8; (header.data_at - HEAD as u64) as usize];
        source
            .read_at(&mut region, HEAD as u64)
            .map_err(|e| Error::io(path, e))?;
        if xxh3_64(&region) != header.index_checksum {
            return Err(Error::damaged(path, Damage::TableChecksum));
        }
        let (dict, index) = region.split_at(header.dict_len as usize);
        let index: Vec<(u64, u64)> = index
            .chunks_exact(16)
            .map(|e| (u64_at(e, 0), u64_at(e, 8)))
            .collect();
        let data_len = header.file_len - header.data_at;
        let ordered = index.first().is_none_or(|e| e.0 == 0)
            && index.windows(2).all(|w| w[0].0 <= w[1].0)
            && index.last().is_none_or(|e| e.0 <= data_len);
        if !ordered {
            let why = "the block index is out of order".to_string();
            return Err(Error::damaged(path, Damage::Header(why)));
        }
        let dict = match dict.is_empty() {
            true => None,
            false => Some(Dictionary::new(dict).ok_or_else(|| {
                Error::damaged(path, Damage::Header("the dictionary is not zstd's".into()))
            })?),
        };
        Ok(TableFile {
            path: path.to_path_buf(),
            source,
            header,
            index,
            dict,
            id: cache.file_id(),
            cache,
        })
    }

    /// The header.
    pub(crate) fn header(&self) -> &TableHeader {
        &self.header
    }

    /// The file's path.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The compressed bytes of block `b`, read and checked against the index.
    fn compressed(&self, b: u64) -> Result<Vec<u8>, Error> {
        let (start, sum) = self.index[b as usize];
        let end = self
            .index
            .get(b as usize + 1)
            .map_or(self.header.file_len - self.header.data_at, |e| e.0);
        let mut bytes = vec![0u8; (end - start) as usize];
        match self.source.read_at(&mut bytes, self.header.data_at + start) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                let len = self.source.size().map_err(|e| Error::io(&self.path, e))?;
                let expected = self.header.file_len;
                return Err(Error::damaged(&self.path, Damage::Length { len, expected }));
            }
            Err(e) => return Err(Error::io(&self.path, e)),
        }
        if xxh3_64(&bytes) != sum {
            return Err(self.block_error(b));
        }
        Ok(bytes)
    }

    /// The error of a damaged block, naming the file, the block and its slots.
    pub(crate) fn block_error(&self, b: u64) -> Error {
        let per = self.header.block_positions as u64;
        Error::damaged(
            &self.path,
            Damage::Block {
                block: b,
                start: b * per,
                end: ((b + 1) * per).min(self.header.slots),
            },
        )
    }

    /// The packed symbols of block `b`: from the cache, or read, checked, decompressed and
    /// cached.
    ///
    /// # Errors
    /// `Error::Damaged` naming the block when its bytes fail their checksum or do not
    /// decompress to the block's length; `Error::Io`.
    pub(crate) fn block(&self, b: u64) -> Result<Arc<[u8]>, Error> {
        if let Some(block) = self.cache.get((self.id, b)) {
            return Ok(block);
        }
        let block: Arc<[u8]> = self.decode_block(b)?.into();
        self.cache.insert((self.id, b), block.clone());
        Ok(block)
    }

    /// Block `b` read, checked and decompressed (not cached).
    ///
    /// # Errors
    /// As [`TableFile::block`].
    pub(crate) fn decode_block(&self, b: u64) -> Result<Vec<u8>, Error> {
        let bytes = self.compressed(b)?;
        let per = self.header.block_positions as u64;
        let expected = self
            .header
            .packed_len((self.header.slots - b * per).min(per));
        frames::decode(self.dict.as_ref(), &bytes, expected).ok_or_else(|| self.block_error(b))
    }

    /// The symbol of `slot`.
    ///
    /// # Errors
    /// As [`TableFile::block`].
    #[inline]
    pub(crate) fn symbol(&self, slot: u64) -> Result<u16, Error> {
        let per = self.header.block_positions as u64;
        let b = slot / per;
        let i = (slot % per) as usize;
        let bits = self.header.bits;
        let read = |block: &[u8]| unpack(block, i, bits);
        if let Some(s) = self.cache.read((self.id, b), read) {
            return Ok(s);
        }
        Ok(read(&self.block(b)?))
    }

    /// Checks every block's checksum (in parallel), returning the damaged ones.
    pub(crate) fn check_all_blocks(&self) -> Vec<u64> {
        use rayon::prelude::*;
        (0..self.header.blocks)
            .into_par_iter()
            .filter(|&b| self.compressed(b).is_err())
            .collect()
    }

    /// The compressed bytes of the blocks (for `check`'s report).
    pub(crate) fn data_len(&self) -> u64 {
        self.header.file_len - self.header.data_at
    }
}

/// Symbol `i` of packed symbols of `bits` bits.
#[inline]
pub(crate) fn unpack(block: &[u8], i: usize, bits: u8) -> u16 {
    match bits {
        2 => ((block[i >> 2] >> (2 * (i & 3))) & 3) as u16,
        8 => block[i] as u16,
        _ => u16::from_le_bytes([block[2 * i], block[2 * i + 1]]),
    }
}

/// Symbols packed `bits` bits each (2: four to a byte, the first in the low bits; 16:
/// little-endian).
pub(crate) fn pack(symbols: &[u16], bits: u8) -> Vec<u8> {
    match bits {
        2 => symbols
            .chunks(4)
            .map(|c| {
                c.iter()
                    .enumerate()
                    .fold(0u8, |acc, (k, &s)| acc | ((s as u8 & 3) << (2 * k)))
            })
            .collect(),
        8 => symbols.iter().map(|&s| s as u8).collect(),
        _ => symbols.iter().flat_map(|s| s.to_le_bytes()).collect(),
    }
}

/// Opens the table file at `path` of `files` (on disk, a regular file only) and reads its
/// checked header region.
fn read_head(files: &dyn Files, path: &Path) -> Result<(Arc<dyn Source>, Vec<u8>), Error> {
    let file = files.open(path)?;
    let len = file.size().map_err(|e| Error::io(path, e))?;
    if len < HEAD as u64 {
        return Err(Error::damaged(path, Damage::ShortHeader { len }));
    }
    let mut head = vec![0u8; HEAD];
    file.read_at(&mut head, 0).map_err(|e| Error::io(path, e))?;
    if &head[..8] != TABLE_MAGIC {
        return Err(Error::damaged(path, Damage::NotATableFile));
    }
    if xxh3_64(&head[..HEAD_CHECKSUM_AT]) != u64_at(&head, HEAD_CHECKSUM_AT) {
        return Err(Error::damaged(path, Damage::HeaderChecksum));
    }
    Ok((file, head))
}

/// Reads the header of the table file at `path` (checked: magic, checksum, fields), whatever
/// it holds.
///
/// # Errors
/// As [`TableFile::open`].
pub(crate) fn read_table_header(path: &Path) -> Result<TableHeader, Error> {
    let (_, head) = read_head(&Disk, path)?;
    TableHeader::decode(&head).map_err(|why| Error::damaged(path, Damage::Header(why)))
}

/// Checks that a table holds the variant, rule set, board, sector and kind asked for.
fn check_holds(
    path: &Path,
    h: &TableHeader,
    variant: &Variant,
    sector: Sector,
    kind: TableKind,
    slots: u64,
) -> Result<(), Error> {
    let expected = TableHeader::new(variant, sector, kind, slots);
    let foreign = if h.variant != expected.variant {
        Foreign::Variant {
            found: h.variant.clone(),
            expected: expected.variant,
        }
    } else if h.rules != expected.rules || h.rule_set != expected.rule_set {
        Foreign::RuleSet {
            found: h.rule_set.clone(),
            expected: expected.rule_set,
        }
    } else if h.lines != expected.lines {
        Foreign::Board {
            found: h.lines.clone(),
            expected: expected.lines,
        }
    } else if h.sector != sector {
        Foreign::Sector {
            found: h.sector,
            expected: sector,
        }
    } else if h.kind != kind {
        let why = format!(
            "a {} table where a {} table belongs",
            h.kind.extension(),
            kind.extension()
        );
        return Err(Error::damaged(path, Damage::Header(why)));
    } else if h.slots != slots {
        return Err(Error::damaged(
            path,
            Damage::Slots {
                found: h.slots,
                expected: slots,
            },
        ));
    } else {
        return Ok(());
    };
    Err(Error::Foreign {
        path: path.to_path_buf(),
        foreign,
    })
}
