//! The sector file format: the fixed-width header, its fields and their checks.
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

use std::path::Path;

use bincode::{Decode, Encode};
use xxhash_rust::xxh3::xxh3_64;

use crate::error::{Damage, Error, Foreign};
use crate::rules::{Flying, FullBoard, NoMove, Phases, Removal, RuleSwitch, Rules, Value, Variant};
use crate::space::Sector;

/// The file's first eight bytes.
pub(crate) const MAGIC: &[u8; 8] = b"MORRISDB";
/// The format version this build reads and writes.
pub(crate) const FORMAT_VERSION: u32 = 2;
/// The version of the index layout (`index.rs`) this build reads and writes.
pub(crate) const INDEX_LAYOUT: u32 = 1;
/// The size of the header region; the block table follows it.
pub(crate) const HEADER_SIZE: u64 = 4096;
/// The payload block size this build writes.
pub(crate) const BLOCK_SIZE: u32 = 1 << 20;
/// Where the header checksum lies.
pub(super) const HEADER_CHECKSUM_AT: usize = 4088;
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

    /// Counts one more position of `value` with `images` symmetric images.
    #[inline]
    pub fn add(&mut self, value: Value, images: u64) {
        self.positions += 1;
        self.raw_positions += images;
        let (count, raw) = match value {
            Value::Win(_) => (&mut self.win, &mut self.raw_win),
            Value::Loss(_) => (&mut self.loss, &mut self.raw_loss),
            Value::Draw => (&mut self.draw, &mut self.raw_draw),
        };
        *count += 1;
        *raw += images;
        self.max_depth = self.max_depth.max(value.depth().unwrap_or(0));
    }

    /// Whether the counts add up: wins, losses and draws make the positions, canonical and raw.
    pub fn adds_up(&self) -> bool {
        self.win
            .checked_add(self.loss)
            .and_then(|x| x.checked_add(self.draw))
            == Some(self.positions)
            && self
                .raw_win
                .checked_add(self.raw_loss)
                .and_then(|x| x.checked_add(self.raw_draw))
                == Some(self.raw_positions)
    }

    /// The counts on one line: `positions P (W/L/D), raw R (W/L/D), max depth M`.
    pub fn summary(&self) -> String {
        format!(
            "positions {} ({}/{}/{} win/loss/draw), raw {} ({}/{}/{}), max depth {}",
            self.positions,
            self.win,
            self.loss,
            self.draw,
            self.raw_positions,
            self.raw_win,
            self.raw_loss,
            self.raw_draw,
            self.max_depth
        )
    }

    /// The eight counts in header order: positions, win, loss, draw, then the raw ones.
    pub(crate) fn counts(self) -> [u64; 8] {
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

    /// The statistics of the eight counts of [`SectorStats::counts`] and a maximum depth.
    pub(crate) fn from_counts(a: [u64; 8], max_depth: u32) -> SectorStats {
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
    pub(super) fn encode(&mut self) -> Vec<u8> {
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
            stats: self.stats.counts(),
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
pub(super) fn board_lines(variant: &Variant) -> String {
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

/// Decodes a header region whose checksum holds.
pub(super) fn decode_header(head: &[u8], checksum: u64) -> Result<Header, String> {
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
        stats: SectorStats::from_counts(raw.stats, raw.max_depth),
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
    check_stats(&header)?;
    Ok(header)
}

/// Checks that the header's statistics can be a sector's: wins, losses and draws make the
/// positions (canonical and raw), there are no more positions than slots, and the maximum
/// depth fits the cells. (`verify` recomputes them all from the payload.)
fn check_stats(header: &Header) -> Result<(), String> {
    let s = &header.stats;
    if !s.adds_up() {
        return Err(format!("the statistics do not add up: {}", s.summary()));
    }
    if s.positions > header.slots || s.raw_positions < s.positions {
        return Err(format!(
            "the statistics count {} positions ({} raw) in {} slots",
            s.positions, s.raw_positions, header.slots
        ));
    }
    if s.max_depth > super::codec::max_depth_for_width(header.cell_width) {
        return Err(format!(
            "the maximum depth {} does not fit cells of {} bytes",
            s.max_depth, header.cell_width
        ));
    }
    Ok(())
}

/// Checks a decoded header against what the file must hold, naming the first field that
/// differs.
pub(super) fn check_header(
    path: &Path,
    header: &Header,
    variant: &Variant,
    sector: Sector,
    slots: u64,
) -> Result<(), Error> {
    let expected = Header::new(variant, sector, slots);
    let foreign = if header.variant != expected.variant {
        Foreign::Variant {
            found: header.variant.clone(),
            expected: expected.variant,
        }
    } else if header.rules != expected.rules || header.rule_set != expected.rule_set {
        Foreign::RuleSet {
            found: header.rule_set.clone(),
            expected: expected.rule_set,
        }
    } else if header.lines != expected.lines {
        Foreign::Board {
            found: header.lines.clone(),
            expected: expected.lines,
        }
    } else if header.sector != sector {
        Foreign::Sector {
            found: header.sector,
            expected: sector,
        }
    } else if header.slots != slots {
        return Err(Error::damaged(
            path,
            Damage::Slots {
                found: header.slots,
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
            positions: 9,
            win: 2,
            loss: 3,
            draw: 4,
            raw_positions: 21,
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
        for (i, count) in [9, 2, 3, 4, 21, 6, 7, 8].into_iter().enumerate() {
            assert_eq!(u64_at(208 + 8 * i), count);
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
}
