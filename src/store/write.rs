//! Writing sector files and table files: a unique temporary name, synced and renamed, removed
//! when interrupted.

use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

use xxhash_rust::xxh3::xxh3_64;

use super::format::{Header, HEADER_SIZE};
use crate::error::Error;

/// Temporary files being written by this process, removed by [`remove_temporary_files`] when
/// the process is interrupted.
static TEMPORARY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static TEMPORARY_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Removes the temporary files this process is writing (for a signal handler: the process
/// is about to exit, so they will never be completed).
pub fn remove_temporary_files() {
    let list = match TEMPORARY.lock() {
        Ok(l) => l,
        Err(poisoned) => poisoned.into_inner(),
    };
    for path in list.iter() {
        let _ = fs::remove_file(path);
    }
}

/// A temporary file registered for removal on interruption, and removed when dropped
/// unless renamed into place.
struct Temporary {
    path: PathBuf,
    keep: bool,
}

impl Temporary {
    /// Creates a file with a name no other process or thread uses, next to `path`.
    fn create(path: &Path) -> Result<(Temporary, File), Error> {
        let n = TEMPORARY_COUNTER.fetch_add(1, Relaxed);
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(format!(".{}-{n}.tmp", std::process::id()));
        let tmp = path.with_file_name(name);
        TEMPORARY.lock().unwrap().push(tmp.clone());
        let temporary = Temporary {
            path: tmp.clone(),
            keep: false,
        };
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .map_err(|e| Error::io(&tmp, e))?;
        Ok((temporary, file))
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.keep {
            let _ = fs::remove_file(&self.path);
        }
        TEMPORARY.lock().unwrap().retain(|p| p != &self.path);
    }
}

/// Whether `name` is a temporary file of sector file `sector_file` (`SECTOR.sec`).
pub(super) fn is_temporary_of(name: &str, sector_file: &str) -> bool {
    name.strip_prefix(sector_file)
        .and_then(|rest| rest.strip_prefix('.'))
        .is_some_and(|rest| rest.ends_with(".tmp"))
}

/// Writes a file whole from `parts`, in order: under a temporary name, synced, then renamed
/// to `path`, so that it appears only once complete.
///
/// # Errors
/// `Error::Io` naming the file when it cannot be written (the temporary file is removed).
pub(crate) fn write_whole<'a>(
    path: &Path,
    parts: impl IntoIterator<Item = &'a [u8]>,
) -> Result<(), Error> {
    let (mut tmp, file) = Temporary::create(path)?;
    let t = tmp.path.clone();
    let io = |e| Error::io(&t, e);
    let mut out = BufWriter::with_capacity(1 << 20, file);
    for part in parts {
        out.write_all(part).map_err(io)?;
    }
    let file = out.into_inner().map_err(|e| io(e.into_error()))?;
    file.sync_all().map_err(io)?;
    drop(file);
    tmp.rename_into_place(path)
}

impl Temporary {
    /// Renames the finished file to `path` and makes the rename durable.
    fn rename_into_place(&mut self, path: &Path) -> Result<(), Error> {
        fs::rename(&self.path, path).map_err(|e| Error::io(path, e))?;
        self.keep = true;
        if let Some(dir) = path.parent() {
            // Make the rename itself durable; not every platform can open a directory.
            if let Ok(d) = File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    }
}

/// Writes a sector file: the payload comes from `fill`, called with ranges of slots in order
/// and a buffer of their exact size to fill; the file appears under its final name only once
/// complete and synced. Fills in the header's checksums.
///
/// # Errors
/// `Error::Io` naming the file when it cannot be written (the temporary file is removed).
pub(crate) fn write_sector(
    path: &Path,
    header: &mut Header,
    mut fill: impl FnMut(u64, u64, &mut [u8]),
) -> Result<(), Error> {
    let (mut tmp, file) = Temporary::create(path)?;
    let t = tmp.path.clone();
    let io = |e| Error::io(&t, e);
    let width = header.cell_width as u64;
    let block_slots = header.block_size as u64 / width;
    let mut table = Vec::with_capacity(header.block_count() as usize * 8);
    let mut out = BufWriter::with_capacity(1 << 20, file);
    out.seek(SeekFrom::Start(header.payload_offset()))
        .map_err(io)?;
    let mut buf = Vec::with_capacity(header.block_size as usize);
    let mut start = 0;
    while start < header.slots {
        let end = (start + block_slots).min(header.slots);
        buf.clear();
        buf.resize(((end - start) * width) as usize, 0);
        fill(start, end, &mut buf);
        table.extend_from_slice(&xxh3_64(&buf).to_le_bytes());
        out.write_all(&buf).map_err(io)?;
        start = end;
    }
    table.resize((header.payload_offset() - HEADER_SIZE) as usize, 0);
    header.table_checksum = xxh3_64(&table);
    let head = header.encode();
    out.seek(SeekFrom::Start(0)).map_err(io)?;
    out.write_all(&head).map_err(io)?;
    out.write_all(&table).map_err(io)?;
    let file = out.into_inner().map_err(|e| io(e.into_error()))?;
    file.sync_all().map_err(io)?;
    drop(file);
    tmp.rename_into_place(path)
}
