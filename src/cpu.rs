//! What the build assumes of the processor, checked at run time.

/// An instruction set extension the build was compiled to use (`.cargo/config.toml` asks for
/// x86-64-v2) that this processor lacks, or `None`: every front-end (the command line, the
/// Python package, the C library) asks before any other of the library's code runs, since
/// such an instruction would end the process with SIGILL.
pub fn missing_cpu_feature() -> Option<&'static str> {
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! check {
            ($($feature:tt),*) => {
                $(if cfg!(target_feature = $feature) && !std::is_x86_feature_detected!($feature) {
                    return Some($feature);
                })*
            };
        }
        check!(
            "popcnt",
            "sse4.2",
            "sse4.1",
            "ssse3",
            "sse3",
            "cmpxchg16b",
            "bmi1",
            "bmi2",
            "lzcnt",
            "avx",
            "avx2",
            "fma"
        );
    }
    None
}
