//! One sector's two tables: its cells turned into symbols (don't-care slots repeating the
//! symbol before them), the win/draw/loss model and the zstd dictionaries chosen on a sample
//! of blocks by what compresses smaller, then every block compressed in parallel and both
//! files written whole.

use std::path::Path;

use rayon::prelude::*;
use xxhash_rust::xxh3::xxh3_64;
use zstd::bulk::Compressor;
use zstd::dict::EncoderDictionary;
use zstd::zstd_safe::CParameter;

use super::{model_name, ModelChoice, Options, SectorReport};
use crate::error::{Damage, Error};
use crate::progress::{go_on, Progress};
use crate::rules::Variant;
use crate::space::{Sector, SectorIndex};
use crate::store::{
    context, depth_symbol, orders, pack, rank_of, table_path, wdl_symbol, write_whole, Database,
    Model, SectorFile, TableHeader, TableKind, CONTEXTS, TABLE_HEAD,
};

/// A chunk compressed: its win/draw/loss block and its depth blocks.
type Compressed = (Vec<u8>, Vec<Vec<u8>>);

/// A don't-care slot's win/draw/loss symbol before modelling: no answer reads it.
const DONT_CARE: u8 = 255;
/// Blocks sampled at most to choose the model and train the dictionaries.
const SAMPLES: u64 = 48;
/// The largest dictionary trained.
const DICT_BYTES: usize = 16 << 10;

/// The symbols of one chunk of slots (one win/draw/loss block).
struct Chunk {
    /// Win/draw/loss symbols, [`DONT_CARE`] for unused slots.
    wdl: Vec<u8>,
    /// Contexts (empty when not asked for).
    contexts: Vec<u8>,
    /// Depth symbols, `None` where no answer reads one (draws, unused slots).
    depth: Vec<Option<u16>>,
}

/// What builds one sector: its database file, index and the choices made.
struct Builder<'a> {
    variant: &'a Variant,
    file: &'a SectorFile,
    index: SectorIndex,
    options: &'a Options,
    slots: u64,
    per_chunk: u64,
    per_depth: u64,
    depth_bits: u8,
}

/// Builds `sector`'s two tables from `db` into the rule-set folder `dir`.
///
/// # Errors
/// A damaged database file (a block failing its checksum, a position's slot marked unused);
/// `Error::Io` when a table cannot be written.
pub fn build_sector(
    db: &Database,
    sector: Sector,
    dir: &Path,
    options: &Options,
    progress: &dyn Progress,
) -> Result<SectorReport, Error> {
    let file = db.rows(sector)?;
    let index = db.index(sector);
    let max_depth = file.header().stats.max_depth;
    let wdl_log = options.wdl_block_log.clamp(2, 24);
    let b = Builder {
        variant: db.variant(),
        file: &file,
        slots: index.size(),
        index,
        options,
        per_chunk: 1 << wdl_log,
        per_depth: 1 << options.depth_block_log.clamp(2, wdl_log),
        depth_bits: if max_depth >> 1 > 255 { 16 } else { 8 },
    };
    let chunks = b.slots.div_ceil(b.per_chunk);
    let sample: Vec<u64> = (0..chunks)
        .step_by(chunks.div_ceil(SAMPLES).max(1) as usize)
        .collect();
    let want_contexts = options.model != ModelChoice::None;
    let sampled = sample
        .par_iter()
        .map(|&c| b.chunk(c, want_contexts))
        .collect::<Result<Vec<_>, _>>()?;
    let model = b.choose_model(&sampled);
    let wdl_samples: Vec<Vec<u8>> = sampled.iter().map(|c| b.wdl_packed(c, &model)).collect();
    let depth_samples: Vec<Vec<u8>> = match options.wdl_only {
        true => Vec::new(),
        false => sampled.iter().flat_map(|c| b.depth_packed(c)).collect(),
    };
    let wdl_dict = dictionary(&wdl_samples, options.wdl_level, chunks);
    let depth_dict = dictionary(
        &depth_samples,
        options.depth_level,
        b.slots.div_ceil(b.per_depth),
    );
    let needs_contexts = matches!(model, Model::Contexts(_));
    let compressed = b.compress_all(
        chunks,
        needs_contexts,
        &model,
        &wdl_dict,
        &depth_dict,
        progress,
    )?;
    let (wdl_blocks, depth_blocks): (Vec<Vec<u8>>, Vec<Vec<Vec<u8>>>) =
        compressed.into_iter().unzip();
    let depth_blocks: Vec<Vec<u8>> = depth_blocks.into_iter().flatten().collect();
    let source = file.header();
    let mut depth_header = TableHeader::new(b.variant, sector, TableKind::Depth, b.slots);
    depth_header.bits = b.depth_bits;
    depth_header.block_positions = b.per_depth as u32;
    let mut wdl_header = TableHeader::new(b.variant, sector, TableKind::Wdl, b.slots);
    wdl_header.model = model;
    wdl_header.block_positions = b.per_chunk as u32;
    for h in [&mut depth_header, &mut wdl_header] {
        h.stats = source.stats;
        h.source_checksum = source.checksum;
    }
    // The depth table first: a win/draw/loss table alone is a whole WDL-only sector, so it is
    // written last, once its depth table (if any) is in place.
    let depth_path = table_path(dir, sector, TableKind::Depth);
    match options.wdl_only {
        false => write_table(&depth_path, &mut depth_header, &depth_dict, &depth_blocks)?,
        true => remove_stale(&depth_path)?,
    }
    let wdl_path = table_path(dir, sector, TableKind::Wdl);
    write_table(&wdl_path, &mut wdl_header, &wdl_dict, &wdl_blocks)?;
    let depth = (!options.wdl_only).then_some(&depth_header);
    Ok(SectorReport {
        sector: sector.to_string(),
        slots: b.slots,
        positions: source.stats.positions,
        database_bytes: std::fs::metadata(file.path()).map_or(0, |m| m.len()),
        wdl_bytes: wdl_header.file_len,
        depth_bytes: depth.map_or(0, |h| h.file_len),
        model: model_name(&wdl_header.model),
        wdl_checksum: wdl_header.checksum_hex(),
        depth_checksum: depth.map(TableHeader::checksum_hex),
        kept: false,
    })
}

impl Builder<'_> {
    /// The symbols of chunk `c`, with the contexts of its positions when `contexts`.
    fn chunk(&self, c: u64, contexts: bool) -> Result<Chunk, Error> {
        let start = c * self.per_chunk;
        let end = (start + self.per_chunk).min(self.slots);
        let n = (end - start) as usize;
        let row = self.file.row(start, end - start)?;
        let mut chunk = Chunk {
            wdl: Vec::with_capacity(n),
            contexts: Vec::with_capacity(if contexts { n } else { 0 }),
            depth: Vec::with_capacity(n),
        };
        let mut push = |cell: crate::store::Cell| match cell {
            None => {
                chunk.wdl.push(DONT_CARE);
                chunk.depth.push(None);
            }
            Some(v) => {
                chunk.wdl.push(wdl_symbol(v));
                chunk.depth.push(v.depth().map(|_| depth_symbol(v)));
            }
        };
        if !contexts {
            (0..n).for_each(|i| push(row.cell(i)));
            return Ok(chunk);
        }
        let mut fault = None;
        let mut ctx = Vec::with_capacity(n);
        self.index.for_each_slot(start, end, |slot, pos| {
            let cell = row.cell((slot - start) as usize);
            match (&pos, cell) {
                (Some(_), None) => {
                    fault.get_or_insert(Error::damaged(
                        self.file.path(),
                        Damage::UnusedSlot { slot },
                    ));
                }
                (None, _) => push(None),
                (Some(_), cell) => push(cell),
            }
            ctx.push(pos.map_or(0, |p| context(self.variant, &p) as u8));
        });
        chunk.contexts = ctx;
        fault.map_or(Ok(chunk), Err)
    }

    /// The model for the sector: the context orders learnt from the sample's counts, kept
    /// when the options say so or when it compresses the sample smaller.
    fn choose_model(&self, sample: &[Chunk]) -> Model {
        if self.options.model == ModelChoice::None {
            return Model::None;
        }
        let mut counts = [[0u64; 3]; CONTEXTS];
        for c in sample {
            for (&s, &x) in c.wdl.iter().zip(&c.contexts) {
                if s != DONT_CARE {
                    counts[x as usize][s as usize] += 1;
                }
            }
        }
        let contexts = Model::Contexts(orders(&counts));
        if self.options.model == ModelChoice::Contexts {
            return contexts;
        }
        let size = |model: &Model| -> usize {
            let mut z = compressor(self.options.wdl_level, None);
            sample
                .iter()
                .map(|c| {
                    z.compress(&self.wdl_packed(c, model))
                        .map_or(usize::MAX, |b| b.len())
                })
                .sum()
        };
        if size(&contexts) < size(&Model::None) {
            contexts
        } else {
            Model::None
        }
    }

    /// A chunk's win/draw/loss block under `model`, packed.
    fn wdl_packed(&self, c: &Chunk, model: &Model) -> Vec<u8> {
        let mut prev = 0u16;
        let symbols: Vec<u16> = c
            .wdl
            .iter()
            .enumerate()
            .map(|(i, &s)| {
                if s != DONT_CARE {
                    let ctx = c.contexts.get(i).copied().unwrap_or(0) as usize;
                    prev = rank_of(model.order(ctx), s) as u16;
                }
                prev
            })
            .collect();
        pack(&symbols, 2)
    }

    /// A chunk's depth blocks, packed.
    fn depth_packed(&self, c: &Chunk) -> Vec<Vec<u8>> {
        let mut prev = 0u16;
        let symbols: Vec<u16> = c
            .depth
            .iter()
            .map(|&d| {
                prev = d.unwrap_or(prev);
                prev
            })
            .collect();
        symbols
            .chunks(self.per_depth as usize)
            .map(|s| pack(s, self.depth_bits))
            .collect()
    }

    /// Every chunk's blocks compressed, in order: the win/draw/loss block and the depth
    /// blocks of each.
    fn compress_all(
        &self,
        chunks: u64,
        contexts: bool,
        model: &Model,
        wdl_dict: &[u8],
        depth_dict: &[u8],
        progress: &dyn Progress,
    ) -> Result<Vec<Compressed>, Error> {
        let o = self.options;
        let wdl_prepared = prepare(wdl_dict, o.wdl_level);
        let depth_prepared = prepare(depth_dict, o.depth_level);
        (0..chunks)
            .into_par_iter()
            .map_init(
                || {
                    (
                        compressor(o.wdl_level, wdl_prepared.as_ref()),
                        compressor(o.depth_level, depth_prepared.as_ref()),
                    )
                },
                |(wz, dz), c| {
                    // Stopped on request: the rest is refused, and nothing is written.
                    go_on(progress)?;
                    let chunk = self.chunk(c, contexts)?;
                    let wdl = wz.compress(&self.wdl_packed(&chunk, model));
                    let depth: Result<Vec<Vec<u8>>, _> = match o.wdl_only {
                        true => Ok(Vec::new()),
                        false => (self.depth_packed(&chunk).iter())
                            .map(|d| dz.compress(d))
                            .collect(),
                    };
                    progress.advance(chunk.wdl.len() as u64);
                    let io = |e| Error::io(self.file.path(), e);
                    Ok((wdl.map_err(io)?, depth.map_err(io)?))
                },
            )
            .collect()
    }
}

/// Removes the depth table at `path` left by an earlier build of a sector now rebuilt without
/// one. A sector is rebuilt only when its files fail their check or come from another database
/// file: that depth table would not match the new win/draw/loss table, and the whole sector
/// would be refused.
fn remove_stale(path: &Path) -> Result<(), Error> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::io(path, e)),
        _ => Ok(()),
    }
}

/// A zstd compressor at `level`, with the prepared dictionary when there is one, writing bare
/// frames (no content size, checksum or dictionary id: the table's index has them all).
fn compressor<'a>(level: i32, dict: Option<&'a EncoderDictionary<'a>>) -> Compressor<'a> {
    let mut z = match dict {
        None => Compressor::new(level),
        Some(d) => Compressor::with_prepared_dictionary(d),
    }
    .expect("a zstd compression context");
    for p in [
        CParameter::ContentSizeFlag(false),
        CParameter::ChecksumFlag(false),
        CParameter::DictIdFlag(false),
    ] {
        z.set_parameter(p).expect("a frame parameter zstd has");
    }
    z
}

/// A dictionary prepared for compression at `level`, or none for no bytes.
fn prepare(dict: &[u8], level: i32) -> Option<EncoderDictionary<'static>> {
    (!dict.is_empty()).then(|| EncoderDictionary::copy(dict, level))
}

/// A dictionary trained on `samples` (blocks of a file of `blocks` blocks), or none when
/// training fails or the dictionary would not pay for its own bytes.
fn dictionary(samples: &[Vec<u8>], level: i32, blocks: u64) -> Vec<u8> {
    let total: usize = samples.iter().map(Vec::len).sum();
    if samples.len() < 8 || total < 8 * 1024 {
        return Vec::new();
    }
    let Ok(dict) = zstd::dict::from_samples(samples, DICT_BYTES.min(total / 8)) else {
        return Vec::new();
    };
    let prepared = EncoderDictionary::copy(&dict, level);
    let size = |dict: Option<&EncoderDictionary>| -> u64 {
        let mut z = compressor(level, dict);
        samples
            .iter()
            .map(|s| z.compress(s).map_or(u64::MAX / 2, |b| b.len() as u64))
            .sum()
    };
    let (with, without) = (size(Some(&prepared)), size(None));
    let scale = |x: u64| x as f64 * blocks as f64 / samples.len() as f64;
    if scale(with) + (dict.len() as f64) < scale(without) {
        dict
    } else {
        Vec::new()
    }
}

/// Writes a table file: the header (sizes and checksums filled in), the dictionary, the
/// block index and the blocks.
fn write_table(
    path: &Path,
    h: &mut TableHeader,
    dict: &[u8],
    blocks: &[Vec<u8>],
) -> Result<(), Error> {
    h.blocks = blocks.len() as u64;
    h.dict_len = dict.len() as u64;
    h.index_at = (TABLE_HEAD + dict.len()) as u64;
    h.data_at = h.index_at + 16 * h.blocks;
    let mut region = dict.to_vec();
    let mut offset = 0u64;
    for b in blocks {
        region.extend_from_slice(&offset.to_le_bytes());
        region.extend_from_slice(&xxh3_64(b).to_le_bytes());
        offset += b.len() as u64;
    }
    h.file_len = h.data_at + offset;
    h.index_checksum = xxh3_64(&region);
    let head = h.encode();
    let parts = [head.as_slice(), region.as_slice()];
    write_whole(
        path,
        parts.into_iter().chain(blocks.iter().map(Vec::as_slice)),
    )
}
