//! Opening the files a folder holds: regular files only (a FIFO would block the opening), under
//! a shared lock, and telling what a path that is not one is; and reading a file at an offset,
//! with the system's positioned read where there is one.

use std::fs::{self, File};
use std::path::Path;

use crate::error::Error;

/// What kind of thing a path is, for messages about things that are not regular files.
fn kind_of(meta: &fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        } else if t.is_socket() {
            return "a socket";
        } else if t.is_block_device() {
            return "a block device";
        } else if t.is_char_device() {
            return "a character device";
        }
    }
    "not a regular file"
}

/// Whether anything is at `path` (a dangling or looping link included).
pub(super) fn entry_exists(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok()
}

/// Opens a regular file (refusing anything else before opening it: opening a FIFO would
/// block) under a shared lock.
pub(super) fn open_regular(path: &Path) -> Result<File, Error> {
    let meta = fs::metadata(path).map_err(|e| Error::io(path, e))?;
    if !meta.is_file() {
        return Err(Error::io(
            path,
            std::io::Error::other(format!("is {}, not a regular file", kind_of(&meta))),
        ));
    }
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    // Readers share; a process replacing a file in place would need it exclusively.
    let _ = file.try_lock_shared();
    Ok(file)
}

/// Reads exactly `buf.len()` bytes of `file` at `offset`, without moving a shared file position:
/// `pread` on Unix, `seek_read` on Windows, and elsewhere (or with the feature
/// `portable-reads`, which the tests use to run this path on Unix) a seek and a read under one
/// lock for all files, so that threads reading one file at once cannot mix their positions.
///
/// # Errors
/// The read's: `UnexpectedEof` when the file ends first.
pub(super) fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    #[cfg(all(unix, not(feature = "portable-reads")))]
    {
        use std::os::unix::fs::FileExt;
        file.read_exact_at(buf, offset)
    }
    #[cfg(all(windows, not(feature = "portable-reads")))]
    {
        use std::os::windows::fs::FileExt;
        let (mut buf, mut offset) = (buf, offset);
        while !buf.is_empty() {
            match file.seek_read(buf, offset) {
                Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
                Ok(n) => {
                    buf = &mut buf[n..];
                    offset += n as u64;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
    #[cfg(any(feature = "portable-reads", not(any(unix, windows))))]
    {
        use std::io::{Read, Seek, SeekFrom};
        static POSITION: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let _held = POSITION.lock().unwrap_or_else(|e| e.into_inner());
        let mut file = file;
        file.seek(SeekFrom::Start(offset))?;
        file.read_exact(buf)
    }
}
