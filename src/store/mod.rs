//! Storage: sector files (format, the one value codec, reading, writing, locks) and database folders.

mod cache;
mod codec;
mod db;
mod file;
mod format;
mod lock;
mod write;

pub use cache::BlockCache;
pub use codec::Cell;
pub(crate) use codec::{encode_cell, width_for_depth, Key, Keys, Proved};
#[cfg(test)]
pub(crate) use db::scratch;
pub use db::{rule_set_folder, Database, READER_CACHE_BYTES};
pub(crate) use file::Row;
pub use file::SectorFile;
pub use format::{
    Header, SectorStats, BLOCK_SIZE, FORMAT_VERSION, HEADER_SIZE, INDEX_LAYOUT, MAGIC,
};
pub(crate) use lock::UnitLock;
pub use write::remove_temporary_files;
pub(crate) use write::write_sector;
