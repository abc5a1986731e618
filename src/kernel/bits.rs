//! Bit kernels chosen at run time: BMI2's PEXT where the processor has a fast one, a portable
//! twin elsewhere (the tests hold the two to the same results).

use std::sync::OnceLock;

/// Whether this processor has a fast PEXT: BMI2, and not an AMD processor before Zen 3,
/// whose PEXT is microcoded (hundreds of cycles, slower than the portable loop).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) fn fast_pext() -> bool {
    static FAST: OnceLock<bool> = OnceLock::new();
    *FAST.get_or_init(detect_fast_pext)
}

#[cfg(target_arch = "x86_64")]
fn detect_fast_pext() -> bool {
    if !std::arch::is_x86_feature_detected!("bmi2") {
        return false;
    }
    // SAFETY: CPUID exists on every x86_64 processor; leaves 0 and 1 always do.
    #[allow(unused_unsafe)]
    let (vendor, signature) = unsafe {
        let v = std::arch::x86_64::__cpuid(0);
        (
            [
                v.ebx.to_le_bytes(),
                v.edx.to_le_bytes(),
                v.ecx.to_le_bytes(),
            ]
            .concat(),
            std::arch::x86_64::__cpuid(1).eax,
        )
    };
    let base = (signature >> 8) & 0xF;
    let family = if base == 0xF {
        base + ((signature >> 20) & 0xFF)
    } else {
        base
    };
    // AMD families before 0x19 (Zen 3) microcode PEXT.
    !(vendor == b"AuthenticAMD" && family < 0x19)
}

#[cfg(not(target_arch = "x86_64"))]
#[allow(dead_code)]
fn detect_fast_pext() -> bool {
    false
}

/// `x` squeezed onto the set bits of `mask` (parallel bit extract): the set bit of `mask` of
/// place `i` (counted from the lowest) becomes bit `i`, where `x` holds it.
#[inline]
pub(crate) fn pext(x: u32, mask: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if fast_pext() {
        // SAFETY: the processor has BMI2 (`fast_pext` checked it).
        return unsafe { pext_bmi2(x, mask) };
    }
    pext_portable(x, mask)
}

/// [`pext`] with BMI2's instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn pext_bmi2(x: u32, mask: u32) -> u32 {
    std::arch::x86_64::_pext_u32(x, mask)
}

/// [`pext`] a point at a time: each set bit of `x` in `mask` lands at its place among the
/// mask's bits, a population count.
#[inline]
pub(crate) fn pext_portable(x: u32, mask: u32) -> u32 {
    let mut s = 0;
    let mut y = x & mask;
    while y != 0 {
        let low = y & y.wrapping_neg();
        s |= 1 << (mask & (low - 1)).count_ones();
        y ^= low;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The instruction and its portable twin agree, on every mask of a few shapes and many
    /// random ones.
    #[test]
    fn pext_equals_its_portable_twin() {
        let mut r = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..200_000 {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            let (x, mask) = (r as u32, (r >> 32) as u32);
            assert_eq!(pext(x, mask), pext_portable(x, mask), "{x:#x} {mask:#x}");
        }
        assert_eq!(pext_portable(0b1011_0110, 0b1111_0000), 0b1011);
        assert_eq!(pext_portable(u32::MAX, 0x8000_0001), 0b11);
    }
}
