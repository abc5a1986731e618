//! A sector's values read from its two table files (win/draw/loss and depth), position by
//! position or all at once; or from its win/draw/loss file alone, which answers values
//! without distances.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use super::cache::BlockCache;
use super::codec::{encode_cell, width_for_depth, Cell};
use super::file::SectorFile;
use super::format::{Header, SectorStats};
use super::model::{context, symbol_of};
use super::source::Files;
use super::table::{unpack, TableFile, TableKind};
use super::values::SectorValues;
use crate::error::{Damage, Error};
use crate::rules::{Outcome, Position, Value, Variant};
use crate::space::{Sector, SectorIndex};

/// The path of `sector`'s table of `kind` in the rule-set folder `dir`.
pub(crate) fn table_path(dir: &Path, sector: Sector, kind: TableKind) -> PathBuf {
    dir.join(format!("{sector}.{}", kind.extension()))
}

/// The value of a position from its win/draw/loss symbol (0 draw, 1 win, 2 loss) and its
/// depth symbol (a win in `2k + 1` plies or a loss in `2k` is `k`).
#[inline]
pub(crate) fn value_of_symbols(wdl: u8, depth: u16) -> Value {
    match wdl {
        0 => Value::Draw,
        1 => Value::Win(2 * depth as u32 + 1),
        _ => Value::Loss(2 * depth as u32),
    }
}

/// The win/draw/loss symbol of a value.
#[inline]
pub(crate) fn wdl_symbol(value: Value) -> u8 {
    match value {
        Value::Draw => 0,
        Value::Win(_) => 1,
        Value::Loss(_) => 2,
    }
}

/// The depth symbol of a won or lost position: its depth halved (0 for a draw).
#[inline]
pub(crate) fn depth_symbol(value: Value) -> u16 {
    (value.depth().unwrap_or(0) >> 1) as u16
}

/// One sector's two table files, opened and checked against each other, read position by
/// position through a cache of decoded blocks. Without its depth file (a WDL-only set) a sector
/// answers win, draw or loss, and refuses a win's or a loss's distance with
/// `Error::NoDistance`.
#[derive(Debug)]
pub struct SectorTables {
    wdl: TableFile,
    /// `None` for a sector held without its depth file.
    depth: Option<TableFile>,
    index: SectorIndex,
    variant: Variant,
}

impl SectorTables {
    /// Opens `sector`'s tables in the rule-set folder `dir` of `files`.
    ///
    /// # Errors
    /// As [`TableFile::open`]; `Error::Damaged` when the two files were not built from the
    /// same database file. A sector without its depth file opens with its win/draw/loss file
    /// alone.
    pub(crate) fn open(
        files: &dyn Files,
        dir: &Path,
        variant: &Variant,
        index: SectorIndex,
        cache: Arc<BlockCache>,
    ) -> Result<SectorTables, Error> {
        let sector = index.sector();
        let open = |kind| {
            let path = table_path(dir, sector, kind);
            TableFile::open(
                files,
                &path,
                variant,
                sector,
                kind,
                index.size(),
                cache.clone(),
            )
        };
        let wdl = open(TableKind::Wdl)?;
        // A depth file that is there but cannot be opened is an error, not a WDL-only sector.
        let depth_path = table_path(dir, sector, TableKind::Depth);
        if !files.exists(&depth_path) {
            return Ok(SectorTables {
                wdl,
                depth: None,
                index,
                variant: variant.clone(),
            });
        }
        let depth = open(TableKind::Depth)?;
        let (w, d) = (wdl.header(), depth.header());
        if w.source_checksum != d.source_checksum || w.stats != d.stats {
            let why = format!(
                "built from database file {:016x}, its win/draw/loss table from {:016x}",
                d.source_checksum, w.source_checksum
            );
            return Err(Error::damaged(depth.path(), Damage::Header(why)));
        }
        let depth_bits = if d.stats.max_depth >> 1 > 255 { 16 } else { 8 };
        if d.bits != depth_bits {
            let why = format!("{}-bit depths up to {}", d.bits, d.stats.max_depth);
            return Err(Error::damaged(depth.path(), Damage::Header(why)));
        }
        Ok(SectorTables {
            wdl,
            depth: Some(depth),
            index,
            variant: variant.clone(),
        })
    }

    /// The header of the database file the tables were built from, as far as the tables
    /// know it: the statistics, the cell width and the checksum; for their cells decoded
    /// whole ([`SectorTables::decoded`]).
    fn header(&self) -> Header {
        let w = self.wdl.header();
        let mut h = Header::new(&self.variant, self.index.sector(), self.index.size());
        h.stats = w.stats;
        h.cell_width = width_for_depth(w.stats.max_depth);
        h.checksum = w.source_checksum;
        h
    }

    /// The cell of `slot`, whose position is `pos` when the caller knows it (else the slot is
    /// unranked): `None` for an unused slot.
    ///
    /// # Errors
    /// `Error::Damaged` naming the file and block when a block fails its checksum.
    #[inline]
    pub(crate) fn cell(&self, slot: u64, pos: Option<&Position>) -> Result<Cell, Error> {
        let found;
        let pos = match pos {
            Some(p) => p,
            None => match self.index.position(slot) {
                Some(p) => {
                    found = p;
                    &found
                }
                None => return Ok(None),
            },
        };
        let wdl = self.wdl_of(slot, pos)?;
        let depth = if wdl == 0 {
            0
        } else {
            self.depth_file()?.symbol(slot)?
        };
        Ok(Some(value_of_symbols(wdl, depth)))
    }

    /// The depth file, or `Error::NoDistance` for a sector held without one.
    #[inline]
    fn depth_file(&self) -> Result<&TableFile, Error> {
        self.depth.as_ref().ok_or_else(|| Error::NoDistance {
            sector: self.index.sector(),
            variant: self.variant.name().to_string(),
        })
    }

    /// The win/draw/loss symbol (0 draw, 1 win, 2 loss) of `slot`, which holds `pos`: the
    /// depth file is not read.
    ///
    /// # Errors
    /// As [`SectorTables::cell`].
    #[inline]
    pub(crate) fn wdl_of(&self, slot: u64, pos: &Position) -> Result<u8, Error> {
        let order = self.wdl.header().model.order(context(&self.variant, pos));
        Ok(symbol_of(order, self.wdl.symbol(slot)? as u8))
    }

    /// The sector's cells decoded whole into memory, every block checked, as the solver
    /// and the proof read them in rows.
    ///
    /// # Errors
    /// The first damaged block met; `Error::NoDistance` for a sector without its depth file
    /// (the solver and the proof need every depth).
    pub(crate) fn decoded(&self) -> Result<SectorFile, Error> {
        self.depth_file()?;
        let cells = self.materialize()?;
        Ok(SectorFile::from_cells(
            self.wdl.path(),
            self.header(),
            cells,
        ))
    }

    /// Every cell of the sector in the database's codec, `width` bytes each (the width of
    /// [`SectorTables::header`]): unused slots marked unused, every block checked.
    ///
    /// # Errors
    /// The first damaged block met.
    fn materialize(&self) -> Result<Vec<u8>, Error> {
        let width = width_for_depth(self.wdl.header().stats.max_depth) as usize;
        let per = self.wdl.header().block_positions as usize;
        let mut cells = vec![0u8; self.index.size() as usize * width];
        cells
            .par_chunks_mut(per * width)
            .enumerate()
            .try_for_each(|(b, out)| self.materialize_block(b as u64, out, width))?;
        Ok(cells)
    }

    /// The cells of win/draw/loss block `b` into `out`.
    fn materialize_block(&self, b: u64, out: &mut [u8], width: usize) -> Result<(), Error> {
        let wdl = self.wdl.decode_block(b)?;
        let start = b * self.wdl.header().block_positions as u64;
        let end = start + (out.len() / width) as u64;
        let depth_file = self.depth_file()?;
        let depth_per = depth_file.header().block_positions as u64;
        let depth_bits = depth_file.header().bits;
        let mut depth: Option<(u64, Vec<u8>)> = None;
        let mut fault = None;
        self.index.for_each_slot(start, end, |slot, pos| {
            let i = (slot - start) as usize;
            let cell_out = &mut out[i * width..(i + 1) * width];
            let Some(pos) = pos else {
                encode_cell(None, cell_out);
                return;
            };
            let order = self.wdl.header().model.order(context(&self.variant, &pos));
            let w = symbol_of(order, unpack(&wdl, i, 2) as u8);
            let mut d = 0;
            if w != 0 {
                let db = slot / depth_per;
                if depth.as_ref().is_none_or(|(at, _)| *at != db) {
                    match depth_file.decode_block(db) {
                        Ok(bytes) => depth = Some((db, bytes)),
                        Err(e) => {
                            fault.get_or_insert(e);
                            return;
                        }
                    }
                }
                let bytes = &depth.as_ref().expect("decoded above").1;
                d = unpack(bytes, (slot % depth_per) as usize, depth_bits);
            }
            encode_cell(Some(value_of_symbols(w, d)), cell_out);
        });
        fault.map_or(Ok(()), Err)
    }
}

impl SectorValues for SectorTables {
    fn path(&self) -> &Path {
        self.wdl.path()
    }

    fn stats(&self) -> SectorStats {
        self.wdl.header().stats
    }

    fn database_checksum(&self) -> u64 {
        self.wdl.header().source_checksum
    }

    #[inline]
    fn cell_of(&self, slot: u64, pos: Option<&Position>) -> Result<Cell, Error> {
        self.cell(slot, pos)
    }

    #[inline]
    fn outcome_of(&self, slot: u64, pos: &Position) -> Result<Outcome, Error> {
        Ok(match self.wdl_of(slot, pos)? {
            0 => Outcome::Draw,
            1 => Outcome::Win,
            _ => Outcome::Loss,
        })
    }

    /// Every block of both files (or of the win/draw/loss file alone) that fails its
    /// checksum, as errors naming file and block.
    fn faults(&self) -> Vec<Error> {
        let mut out: Vec<Error> = (self.wdl.check_all_blocks().into_iter())
            .map(|b| self.wdl.block_error(b))
            .collect();
        if let Some(depth) = &self.depth {
            out.extend(
                depth
                    .check_all_blocks()
                    .into_iter()
                    .map(|b| depth.block_error(b)),
            );
        }
        out
    }

    fn file_count(&self) -> u64 {
        1 + u64::from(self.depth.is_some())
    }

    fn has_distances(&self) -> bool {
        self.depth.is_some()
    }

    /// Blocks and compressed bytes of both files (or of the win/draw/loss file alone).
    fn sizes(&self) -> (u64, u64) {
        let w = self.wdl.header();
        let (blocks, bytes) = self
            .depth
            .as_ref()
            .map_or((0, 0), |d| (d.header().blocks, d.data_len()));
        (w.blocks + blocks, self.wdl.data_len() + bytes)
    }
}
