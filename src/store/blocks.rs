//! A sector file read block by block from its [`Source`] into a cache, each block checked as
//! it arrives: no read can fault when the file shrinks or changes under a long-running reader
//! (a shorter file answers with an error naming it, until it is whole again).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use xxhash_rust::xxh3::xxh3_64;

use super::cache::BlockCache;
use super::codec::{decode_code, Cell};
use super::file::{block_error, open_checked};
use super::format::{Header, SectorStats, HEADER_SIZE};
use super::source::Source;
use super::values::SectorValues;
use crate::error::{Damage, Error};
use crate::rules::{Position, Variant};
use crate::space::Sector;

/// A sector file read block by block into a cache of checked blocks.
#[derive(Debug)]
pub(crate) struct SectorBlocks {
    path: PathBuf,
    header: Header,
    source: Arc<dyn Source>,
    /// The block table: each block's checksum.
    table: Vec<u64>,
    cache: Arc<BlockCache>,
    /// The file's number in the cache.
    id: u64,
    block_shift: u32,
}

impl SectorBlocks {
    /// Opens the sector file `source` (named `path` in messages) and checks its header and
    /// block table against the variant, sector and slot count it must hold; payload blocks
    /// are checked as they are read.
    ///
    /// # Errors
    /// As [`SectorFile::open`](super::SectorFile::open).
    pub(crate) fn open(
        path: &Path,
        source: Arc<dyn Source>,
        variant: &Variant,
        sector: Sector,
        slots: u64,
        cache: Arc<BlockCache>,
    ) -> Result<SectorBlocks, Error> {
        let header = open_checked(&*source, path, variant, sector, slots)?;
        let mut region = vec![0u8; (header.payload_offset() - HEADER_SIZE) as usize];
        source
            .read_at(&mut region, HEADER_SIZE)
            .map_err(|e| Error::io(path, e))?;
        if xxh3_64(&region) != header.table_checksum {
            return Err(Error::damaged(path, Damage::TableChecksum));
        }
        let table = region
            .chunks_exact(8)
            .take(header.block_count() as usize)
            .map(|c| u64::from_le_bytes(c.try_into().expect("eight bytes")))
            .collect();
        Ok(SectorBlocks {
            path: path.to_path_buf(),
            block_shift: header.block_size.trailing_zeros(),
            header,
            source,
            table,
            id: cache.file_id(),
            cache,
        })
    }

    /// The bytes of payload block `b`; a file shorter than its header promises is damage,
    /// named with its length now.
    fn read_block(&self, b: u64) -> Result<Vec<u8>, Error> {
        let size = self.header.block_size as u64;
        let start = b * size;
        let end = (start + size).min(self.header.payload_len());
        let mut bytes = vec![0u8; (end - start) as usize];
        let at = self.header.payload_offset() + start;
        match self.source.read_at(&mut bytes, at) {
            Ok(()) => Ok(bytes),
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                let len = self.source.size().map_err(|e| Error::io(&self.path, e))?;
                let expected = self.header.payload_offset() + self.header.payload_len();
                Err(Error::damaged(&self.path, Damage::Length { len, expected }))
            }
            Err(e) => Err(Error::io(&self.path, e)),
        }
    }

    /// Block `b`: from the cache, or read and checked.
    fn block(&self, b: u64) -> Result<Arc<[u8]>, Error> {
        if let Some(block) = self.cache.get((self.id, b)) {
            return Ok(block);
        }
        let bytes = self.read_block(b)?;
        if xxh3_64(&bytes) != self.table[b as usize] {
            return Err(block_error(&self.path, &self.header, b));
        }
        let block: Arc<[u8]> = bytes.into();
        self.cache.insert((self.id, b), block.clone());
        Ok(block)
    }
}

impl SectorValues for SectorBlocks {
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
        let w = self.header.cell_width as usize;
        let b = (slot * w as u64) >> self.block_shift;
        let at = slot as usize * w - ((b as usize) << self.block_shift);
        let code = |block: &[u8]| {
            if w == 1 {
                block[at] as u16
            } else {
                u16::from_le_bytes([block[at], block[at + 1]])
            }
        };
        let code = match self.cache.read((self.id, b), code) {
            Some(c) => c,
            None => code(&self.block(b)?),
        };
        Ok(decode_code(code, self.header.cell_width))
    }

    fn faults(&self) -> Vec<Error> {
        // Nothing is remembered of a file read block by block: it may be whole again.
        (0..self.header.block_count())
            .into_par_iter()
            .filter(|&b| self.block(b).is_err())
            .map(|b| block_error(&self.path, &self.header, b))
            .collect()
    }

    fn sizes(&self) -> (u64, u64) {
        (self.header.block_count(), self.header.payload_len())
    }
}
