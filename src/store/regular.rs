//! Opening the files a folder holds: regular files only (a FIFO would block the opening), under
//! a shared lock, and telling what a path that is not one is.

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
