//! Decoding a table's blocks: bare zstd frames (no content size, checksum or dictionary id)
//! with the file's dictionary, by libzstd (feature `libzstd`) or, with feature
//! `pure-rust-zstd`, by ruzstd, a decoder in pure Rust for builds without C (wasm).

#[cfg(not(any(feature = "libzstd", feature = "pure-rust-zstd")))]
compile_error!("morris reads compact tables with libzstd or ruzstd: enable the feature `libzstd` (the default) or `pure-rust-zstd`");

/// A table file's zstd dictionary, prepared for decoding.
pub(crate) struct Dictionary(imp::Prepared);

impl Dictionary {
    /// The dictionary of `bytes` (a zstd dictionary, as `ZDICT_trainFromBuffer` writes), or
    /// `None` when they are not one.
    pub(crate) fn new(bytes: &[u8]) -> Option<Dictionary> {
        imp::prepare(bytes).map(Dictionary)
    }
}

/// Decodes the frame `bytes` with `dict`, expecting exactly `expected` bytes: `None` when the
/// frame is damaged or decodes to another length.
pub(crate) fn decode(dict: Option<&Dictionary>, bytes: &[u8], expected: usize) -> Option<Vec<u8>> {
    imp::decode(dict.map(|d| &d.0), bytes, expected)
}

#[cfg(not(feature = "pure-rust-zstd"))]
mod imp {
    use std::cell::RefCell;

    use zstd::zstd_safe::{DCtx, DDict};

    pub(super) type Prepared = DDict<'static>;

    thread_local! {
        /// Each thread's decompression context, made once (making one costs more than
        /// decompressing a small block).
        static DCTX: RefCell<DCtx<'static>> = RefCell::new(DCtx::create());
    }

    pub(super) fn prepare(bytes: &[u8]) -> Option<Prepared> {
        DDict::try_create(bytes)
    }

    pub(super) fn decode(
        dict: Option<&Prepared>,
        bytes: &[u8],
        expected: usize,
    ) -> Option<Vec<u8>> {
        let mut raw = Vec::with_capacity(expected);
        let done = DCTX.with(|d| {
            let mut d = d.borrow_mut();
            match dict {
                Some(dict) => d.decompress_using_ddict(&mut raw, bytes, dict),
                None => d.decompress(&mut raw, bytes),
            }
        });
        matches!(done, Ok(n) if n == expected && raw.len() == expected).then_some(raw)
    }
}

#[cfg(feature = "pure-rust-zstd")]
mod imp {
    use std::cell::RefCell;
    use std::io::Read;
    use std::sync::atomic::{AtomicU64, Ordering};

    use ruzstd::decoding::{BlockDecodingStrategy, Dictionary, FrameDecoder};

    /// A dictionary's bytes (checked to be one), its id, and a number no other has: the
    /// frames do not name their dictionary, so a thread's decoder is given it by this number.
    pub(super) struct Prepared {
        bytes: Vec<u8>,
        id: u32,
        key: u64,
    }

    /// The numbers of dictionaries prepared (0: frames without one).
    static KEYS: AtomicU64 = AtomicU64::new(1);

    thread_local! {
        /// Each thread's decoder, with the number of the dictionary it holds.
        static DECODER: RefCell<(u64, FrameDecoder)> = RefCell::new((0, FrameDecoder::new()));
    }

    pub(super) fn prepare(bytes: &[u8]) -> Option<Prepared> {
        let id = Dictionary::decode_dict(bytes).ok()?.id;
        let key = KEYS.fetch_add(1, Ordering::Relaxed);
        Some(Prepared {
            bytes: bytes.to_vec(),
            id,
            key,
        })
    }

    pub(super) fn decode(
        dict: Option<&Prepared>,
        bytes: &[u8],
        expected: usize,
    ) -> Option<Vec<u8>> {
        DECODER.with(|cell| {
            let (held, d) = &mut *cell.borrow_mut();
            let key = dict.map_or(0, |p| p.key);
            if *held != key {
                // A decoder per dictionary in turn: parsing one costs less than a block.
                *d = FrameDecoder::new();
                *held = 0;
                if let Some(p) = dict {
                    d.add_dict(Dictionary::decode_dict(&p.bytes).ok()?).ok()?;
                }
                *held = key;
            }
            let mut input = bytes;
            d.reset(&mut input).ok()?;
            if let Some(p) = dict {
                d.force_dict(p.id).ok()?;
            }
            let mut raw = Vec::with_capacity(expected);
            while !d.is_finished() {
                let limit = BlockDecodingStrategy::UptoBytes(expected + 1);
                d.decode_blocks(&mut input, limit).ok()?;
                d.read_to_end(&mut raw).ok()?;
                if raw.len() > expected {
                    return None;
                }
            }
            d.read_to_end(&mut raw).ok()?;
            (input.is_empty() && raw.len() == expected).then_some(raw)
        })
    }
}
