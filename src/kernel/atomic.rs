//! Working arrays of atomics in huge-page-backed anonymous memory.

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
        let bytes = (len * std::mem::size_of::<T>()).max(1);
        let map = memmap2::MmapMut::map_anon(bytes).map_err(|cause| MapFailed {
            bytes: bytes as u64,
            cause,
        })?;
        // A hint: refused where the kernel has no transparent huge pages, which is harmless.
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        Ok(AtomicArray {
            map,
            len,
            _element: std::marker::PhantomData,
        })
    }
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
