//! Prefetching: asking for a cache line ahead of its use.

/// Asks the processor to bring `x`'s cache line in, ahead of a write to it: the solver's
/// scattered writes to its working state then do not stall on a miss. A hint only.
#[inline(always)]
pub(crate) fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing into the program and cannot fault, whatever the
    // address (here a valid reference); SSE, which the intrinsic requires, is part of the
    // x86_64 baseline, so every processor this build runs on has it.
    #[allow(unsafe_code)]
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            x as *const T as *const i8,
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}
