//! Signals the command line sets up before any work: the one place it uses `unsafe`.
#![allow(unsafe_code)]

/// Makes a write beyond the file-size limit (`ulimit -f`) fail with EFBIG, an I/O error that
/// names the file and removes the temporary one, instead of killing the process with SIGXFSZ
/// and leaving it behind: a full disk and a size limit end alike.
pub fn ignore_file_size_limit_signal() {
    #[cfg(unix)]
    // SAFETY: `signal` with `SIG_IGN` installs no handler of ours (no code runs on the signal);
    // it is called once, at start, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}
