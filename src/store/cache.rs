//! A bounded cache of checked payload blocks, shared by the sector files a reader opens.

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

/// A block: which file (a number the cache hands out) and which block of it.
type Key = (u64, u64);

/// Checked payload blocks, the oldest dropped first once `capacity` bytes are held; for the
/// long-running readers (the server, the bindings), which read files with `pread` rather
/// than through a map, so that no read can fault when a file changes under them.
///
/// The blocks are spread over 16 parts by key, each with its own lock and a 16th of the
/// capacity (one block at the least), so that threads probing at once seldom wait for one
/// another.
#[derive(Debug)]
pub(crate) struct BlockCache {
    files: AtomicU64,
    shards: Box<[Shard]>,
}

/// The parts of a cache: enough that two to a few dozen probing threads seldom meet on one lock.
const SHARDS: usize = 16;

/// One part of a cache, on cache lines of its own (its lock is written on every read).
#[derive(Debug)]
#[repr(align(128))]
struct Shard {
    capacity: u64,
    inner: Mutex<Inner>,
}

/// Hashes a key by multiplying its two numbers into one word: the keys are small and
/// distinct, and a probe hashes one on every cell read.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(23) ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

#[derive(Debug, Default)]
struct Inner {
    blocks: HashMap<Key, Arc<[u8]>, BuildHasherDefault<KeyHasher>>,
    order: VecDeque<Key>,
    bytes: u64,
}

impl BlockCache {
    /// A cache holding at most `capacity` bytes of blocks (one block at the least).
    pub(crate) fn new(capacity: u64) -> BlockCache {
        let shards = (0..SHARDS)
            .map(|_| Shard {
                capacity: capacity / SHARDS as u64,
                inner: Mutex::new(Inner::default()),
            })
            .collect();
        BlockCache {
            files: AtomicU64::new(0),
            shards,
        }
    }

    /// A number for a file opened on this cache, its blocks' key.
    pub(crate) fn file_id(&self) -> u64 {
        self.files.fetch_add(1, Relaxed)
    }

    /// The cached block `key`, if it is held.
    pub(crate) fn get(&self, key: Key) -> Option<Arc<[u8]>> {
        self.shard(key).lock().blocks.get(&key).cloned()
    }

    /// `read` of the cached block `key`, if it is held (without taking a share of it).
    #[inline]
    pub(crate) fn read<T>(&self, key: Key, read: impl FnOnce(&[u8]) -> T) -> Option<T> {
        self.shard(key).lock().blocks.get(&key).map(|b| read(b))
    }

    /// Holds a checked block, dropping the oldest ones beyond the capacity.
    pub(crate) fn insert(&self, key: Key, block: Arc<[u8]>) {
        let shard = self.shard(key);
        let mut inner = shard.lock();
        if inner.blocks.contains_key(&key) {
            return;
        }
        inner.bytes += block.len() as u64;
        inner.blocks.insert(key, block);
        inner.order.push_back(key);
        while inner.bytes > shard.capacity && inner.order.len() > 1 {
            let Some(old) = inner.order.pop_front() else {
                break;
            };
            if let Some(b) = inner.blocks.remove(&old) {
                inner.bytes -= b.len() as u64;
            }
        }
    }

    /// The part that holds `key`.
    #[inline]
    fn shard(&self, key: Key) -> &Shard {
        let mut h = KeyHasher::default();
        h.write_u64(key.0);
        h.write_u64(key.1);
        &self.shards[(h.finish() >> 32) as usize % SHARDS]
    }
}

impl Shard {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves whole entries only: the cache stays usable.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}
