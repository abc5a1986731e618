//! Working arrays of atomics, and read-only copies of files, in huge-page-backed anonymous
//! memory.

use std::sync::atomic::AtomicU8;

/// Atomic integers that hold any bit pattern, all zeros included, and need no drop: the
/// element types an [`AtomicArray`] may hold.
pub(crate) trait ZeroableAtomic: Sync + Send + sealed::Sealed {}
impl ZeroableAtomic for AtomicU8 {}
impl ZeroableAtomic for std::sync::atomic::AtomicU16 {}
mod sealed {
    pub(crate) trait Sealed {}
    impl Sealed for std::sync::atomic::AtomicU8 {}
    impl Sealed for std::sync::atomic::AtomicU16 {}
}

/// A working array of atomics (the solver's state and counters), zero-filled, in anonymous
/// memory that the kernel is asked to back with huge pages: the solver touches its slots at
/// random, and with 4 KiB pages nearly every such touch of a gigabyte array is also a miss in
/// the address translation cache. Where transparent huge pages are off, it is plain memory.
pub(crate) struct AtomicArray<T: ZeroableAtomic> {
    map: memmap2::MmapMut,
    len: usize,
    _element: std::marker::PhantomData<T>,
}

/// Working memory that could not be mapped: how much, and the operating system's error.
#[derive(Debug)]
pub(crate) struct MapFailed {
    pub(crate) bytes: u64,
    pub(crate) cause: std::io::Error,
}

impl<T: ZeroableAtomic> AtomicArray<T> {
    /// `len` zeros.
    ///
    /// # Errors
    /// [`MapFailed`] when the memory cannot be mapped.
    pub(crate) fn zeroed(len: usize) -> Result<AtomicArray<T>, MapFailed> {
        let map = huge_anon(len * std::mem::size_of::<T>())?;
        Ok(AtomicArray {
            map,
            len,
            _element: std::marker::PhantomData,
        })
    }
}

/// Anonymous memory of `bytes` bytes that the kernel is asked to back with huge pages (a
/// hint: refused where the kernel has no transparent huge pages, which is harmless).
fn huge_anon(bytes: usize) -> Result<memmap2::MmapMut, MapFailed> {
    let bytes = bytes.max(1);
    let map = memmap2::MmapMut::map_anon(bytes).map_err(|cause| MapFailed {
        bytes: bytes as u64,
        cause,
    })?;
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::HugePage);
    Ok(map)
}

/// A read-only copy of `src` in anonymous memory backed by huge pages where the kernel has
/// them: a solver reading a solved sector's cells at random from its mapped file walks the
/// page tables of 4 KiB pages on nearly every read, and from the copy it does not.
pub(crate) fn huge_page_copy(src: &[u8]) -> Result<memmap2::Mmap, MapFailed> {
    use rayon::prelude::*;
    const PIECE: usize = 1 << 24;
    let mut map = huge_anon(src.len())?;
    map[..src.len()]
        .par_chunks_mut(PIECE)
        .zip(src.par_chunks(PIECE))
        .for_each(|(to, from)| to.copy_from_slice(from));
    map.make_read_only().map_err(|cause| MapFailed {
        bytes: src.len() as u64,
        cause,
    })
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
