//! Where a reader's bytes come from: a [`Source`] is one file's bytes read at offsets (a file
//! on disk, bytes in memory, a caller's reader), and [`Files`] is the folder a
//! [`Database`](super::Database) lists and opens them in (the disk, or files a caller holds).

use std::collections::BTreeMap;
use std::fmt;
use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use memmap2::Mmap;

use super::regular::{entry_exists, open_regular, read_exact_at};
use crate::error::Error;

/// One file's bytes, read at offsets by many threads at once.
pub trait Source: Send + Sync + fmt::Debug {
    /// The length in bytes now (a file may change under a long-running reader).
    ///
    /// # Errors
    /// The source's, when its length cannot be learnt.
    fn size(&self) -> io::Result<u64>;

    /// Reads exactly `buf.len()` bytes at `offset`.
    ///
    /// # Errors
    /// `UnexpectedEof` when the source ends first; the source's own otherwise.
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()>;
}

/// A file mapped read-only, and its source, which holds what keeps the map valid (the open
/// file, under its shared lock).
pub type Mapped = (Arc<dyn Source>, Mmap);

/// The files of database folders: where a database lists its folder and opens its files.
pub trait Files: Send + Sync + fmt::Debug {
    /// The names of the entries of the folder `dir`.
    ///
    /// # Errors
    /// When the folder cannot be listed (`NotFound` when there is none).
    fn list(&self, dir: &Path) -> io::Result<Vec<String>>;

    /// Whether anything is at `path` (on disk, a dangling link included: opening it then says
    /// what is wrong).
    fn exists(&self, path: &Path) -> bool;

    /// The whole of a small file (a record) at `path`.
    ///
    /// # Errors
    /// `NotFound` when there is none; the read's error otherwise.
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;

    /// Opens the file at `path` for reading.
    ///
    /// # Errors
    /// `Error::Io` when there is none or it cannot be opened.
    fn open(&self, path: &Path) -> Result<Arc<dyn Source>, Error>;

    /// The file at `path` mapped read-only, with its source (which holds what keeps the map
    /// valid), where these files can be mapped; `None` where they cannot (a reader then reads
    /// them whole into memory).
    fn map(&self, _path: &Path) -> Option<Result<Mapped, Error>> {
        None
    }
}

/// The files on disk: regular files only, each opened under a shared lock.
#[derive(Clone, Copy, Debug, Default)]
pub struct Disk;

/// A regular file on disk, opened under a shared lock (held while it is open).
#[derive(Debug)]
struct DiskFile(File);

impl Source for DiskFile {
    fn size(&self) -> io::Result<u64> {
        Ok(self.0.metadata()?.len())
    }

    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        read_exact_at(&self.0, buf, offset)
    }
}

impl Files for Disk {
    fn list(&self, dir: &Path) -> io::Result<Vec<String>> {
        Ok(fs::read_dir(dir)?
            .flatten()
            .filter_map(|e| e.file_name().into_string().ok())
            .collect())
    }

    fn exists(&self, path: &Path) -> bool {
        entry_exists(path)
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        fs::read(path)
    }

    fn open(&self, path: &Path) -> Result<Arc<dyn Source>, Error> {
        Ok(Arc::new(DiskFile(open_regular(path)?)))
    }

    fn map(&self, path: &Path) -> Option<Result<Mapped, Error>> {
        let opened = open_regular(path).and_then(|file| {
            // SAFETY: the map is read-only and private to this process; the files are written
            // once under a temporary name and renamed, never modified in place by this
            // program. Another process truncating the file could fault a read, which no API
            // can rule out for mapped files; readers check the length against the header
            // before any cell is read.
            #[allow(unsafe_code)]
            let map = unsafe { Mmap::map(&file) }.map_err(|e| Error::io(path, e))?;
            Ok((Arc::new(DiskFile(file)) as Arc<dyn Source>, map))
        });
        Some(opened)
    }
}

/// Several folders read as one: a path under the first folder names the same entry under
/// each, and the first folder that holds it answers; a folder's entries are those of all.
/// An app ships a game's endgames in one folder and fetches more into another, and reads both
/// through one database.
#[derive(Debug)]
pub struct Layers {
    /// The folders, the first answering first.
    roots: Vec<PathBuf>,
    /// Where their files are (the disk).
    files: Arc<dyn Files>,
}

impl Layers {
    /// The folders `roots` (at least one), on disk: a [`Database`](super::Database) opened on
    /// the first of them with these files reads them all.
    pub fn on_disk(roots: Vec<PathBuf>) -> Layers {
        Layers {
            roots,
            files: Arc::new(Disk),
        }
    }

    /// The entry `path` (a path under the first folder) under each folder, in order; a path
    /// elsewhere stands for itself alone.
    fn candidates(&self, path: &Path) -> Vec<PathBuf> {
        let Some(first) = self.roots.first() else {
            return vec![path.to_path_buf()];
        };
        match path.strip_prefix(first) {
            Ok(rest) => self.roots.iter().map(|r| r.join(rest)).collect(),
            Err(_) => vec![path.to_path_buf()],
        }
    }

    /// The first folder's entry `path` that exists, else the first folder's.
    fn found(&self, path: &Path) -> PathBuf {
        let all = self.candidates(path);
        all.iter()
            .find(|p| self.files.exists(p))
            .unwrap_or(&all[0])
            .clone()
    }
}

impl Files for Layers {
    fn list(&self, dir: &Path) -> io::Result<Vec<String>> {
        let mut names = Vec::new();
        let mut listed = None;
        for d in self.candidates(dir) {
            match self.files.list(&d) {
                Ok(found) => {
                    names.extend(found);
                    listed = Some(Ok(()));
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => {
                    listed.get_or_insert(Err(e));
                }
            }
        }
        match listed {
            Some(Err(e)) if names.is_empty() => Err(e),
            None => Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("{} is in none of the folders", dir.display()),
            )),
            _ => {
                names.sort();
                names.dedup();
                Ok(names)
            }
        }
    }

    fn exists(&self, path: &Path) -> bool {
        self.candidates(path).iter().any(|p| self.files.exists(p))
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        self.files.read(&self.found(path))
    }

    fn open(&self, path: &Path) -> Result<Arc<dyn Source>, Error> {
        self.files.open(&self.found(path))
    }

    fn map(&self, path: &Path) -> Option<Result<Mapped, Error>> {
        self.files.map(&self.found(path))
    }
}

/// Bytes in memory, as one file.
#[derive(Clone)]
pub struct Bytes(Arc<[u8]>);

impl fmt::Debug for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bytes({} bytes)", self.0.len())
    }
}

impl Source for Bytes {
    fn size(&self) -> io::Result<u64> {
        Ok(self.0.len() as u64)
    }

    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        let start = usize::try_from(offset).unwrap_or(usize::MAX);
        match start
            .checked_add(buf.len())
            .and_then(|end| self.0.get(start..end))
        {
            Some(bytes) => {
                buf.copy_from_slice(bytes);
                Ok(())
            }
            None => Err(io::ErrorKind::UnexpectedEof.into()),
        }
    }
}

/// Files a caller holds in memory (fetched over a network, bundled with an app), each under
/// the path a database looks for it at: `ROOT/<rule set>/<file name>`.
#[derive(Clone, Debug, Default)]
pub struct InMemory {
    files: BTreeMap<PathBuf, Bytes>,
}

impl InMemory {
    /// No files.
    pub fn new() -> InMemory {
        InMemory::default()
    }

    /// Adds (or replaces) the file at `path`.
    pub fn insert(&mut self, path: impl Into<PathBuf>, bytes: impl Into<Arc<[u8]>>) {
        self.files.insert(path.into(), Bytes(bytes.into()));
    }
}

impl Files for InMemory {
    fn list(&self, dir: &Path) -> io::Result<Vec<String>> {
        list_paths(self.files.keys(), dir)
    }

    fn exists(&self, path: &Path) -> bool {
        self.files.contains_key(path)
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        match self.files.get(path) {
            Some(bytes) => Ok(bytes.0.to_vec()),
            None => Err(io::ErrorKind::NotFound.into()),
        }
    }

    fn open(&self, path: &Path) -> Result<Arc<dyn Source>, Error> {
        match self.files.get(path) {
            Some(bytes) => Ok(Arc::new(bytes.clone())),
            None => Err(Error::io(path, io::ErrorKind::NotFound.into())),
        }
    }
}

/// Files a caller reads on request (an app's assets, ranges fetched over a network, a C
/// callback): their paths and lengths are given once, and `read(path, offset, buf)` fills
/// `buf` with the bytes of `path` from `offset`, from any thread.
pub struct ReadBy<F> {
    lengths: BTreeMap<PathBuf, u64>,
    read: Arc<F>,
}

impl<F> fmt::Debug for ReadBy<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ReadBy({} files)", self.lengths.len())
    }
}

impl<F> ReadBy<F>
where
    F: Fn(&Path, u64, &mut [u8]) -> io::Result<()> + Send + Sync + 'static,
{
    /// The files of `lengths` (each path with its length in bytes), read by `read`.
    pub fn new(lengths: impl IntoIterator<Item = (PathBuf, u64)>, read: F) -> ReadBy<F> {
        ReadBy {
            lengths: lengths.into_iter().collect(),
            read: Arc::new(read),
        }
    }
}

/// One file of a [`ReadBy`].
struct ReadByFile<F> {
    path: PathBuf,
    len: u64,
    read: Arc<F>,
}

impl<F> fmt::Debug for ReadByFile<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ReadByFile({}, {} bytes)", self.path.display(), self.len)
    }
}

impl<F> Source for ReadByFile<F>
where
    F: Fn(&Path, u64, &mut [u8]) -> io::Result<()> + Send + Sync + 'static,
{
    fn size(&self) -> io::Result<u64> {
        Ok(self.len)
    }

    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        // A read past the length the caller gave is refused here, not asked of the caller.
        match offset.checked_add(buf.len() as u64) {
            Some(end) if end <= self.len => (self.read)(&self.path, offset, buf),
            _ => Err(io::ErrorKind::UnexpectedEof.into()),
        }
    }
}

impl<F> Files for ReadBy<F>
where
    F: Fn(&Path, u64, &mut [u8]) -> io::Result<()> + Send + Sync + 'static,
{
    fn list(&self, dir: &Path) -> io::Result<Vec<String>> {
        list_paths(self.lengths.keys(), dir)
    }

    fn exists(&self, path: &Path) -> bool {
        self.lengths.contains_key(path)
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        let Some(&len) = self.lengths.get(path) else {
            return Err(io::ErrorKind::NotFound.into());
        };
        let mut bytes = vec![0u8; len as usize];
        (self.read)(path, 0, &mut bytes)?;
        Ok(bytes)
    }

    fn open(&self, path: &Path) -> Result<Arc<dyn Source>, Error> {
        match self.lengths.get(path) {
            Some(&len) => Ok(Arc::new(ReadByFile {
                path: path.to_path_buf(),
                len,
                read: self.read.clone(),
            })),
            None => Err(Error::io(path, io::ErrorKind::NotFound.into())),
        }
    }
}

/// The names of the entries of folder `dir` among `paths` (files, and the folders that hold
/// some); `NotFound` when no path lies below it.
fn list_paths<'a>(paths: impl Iterator<Item = &'a PathBuf>, dir: &Path) -> io::Result<Vec<String>> {
    let mut below = false;
    let mut names = Vec::new();
    for p in paths {
        let Ok(rest) = p.strip_prefix(dir) else {
            continue;
        };
        below = true;
        if let Some(first) = rest.components().next() {
            names.extend(first.as_os_str().to_str().map(String::from));
        }
    }
    names.dedup();
    if below {
        Ok(names)
    } else {
        Err(io::ErrorKind::NotFound.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_read_at_offsets_and_end_where_they_end() {
        let b = Bytes((0u8..10).collect::<Vec<u8>>().into());
        let mut buf = [0u8; 3];
        b.read_at(&mut buf, 7).unwrap();
        assert_eq!(buf, [7, 8, 9]);
        let eof = b.read_at(&mut buf, 8).unwrap_err();
        assert_eq!(eof.kind(), io::ErrorKind::UnexpectedEof);
        assert!(b.read_at(&mut buf, u64::MAX).is_err());
        assert_eq!(b.size().unwrap(), 10);
    }

    #[test]
    fn files_in_memory_list_by_folder() {
        let mut m = InMemory::new();
        m.insert("root/set/a.wdl", vec![1u8, 2]);
        m.insert("root/set/b.dtm", vec![3u8]);
        m.insert("root/other/c.wdl", vec![4u8]);
        let mut names = m.list(Path::new("root/set")).unwrap();
        names.sort();
        assert_eq!(names, ["a.wdl", "b.dtm"]);
        assert_eq!(m.list(Path::new("root")).unwrap(), ["other", "set"]);
        assert_eq!(
            m.list(Path::new("elsewhere")).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
        assert!(m.exists(Path::new("root/set/a.wdl")));
        assert!(m.open(Path::new("root/set/x.wdl")).is_err());
    }
}
