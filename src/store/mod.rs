//! Storage: sector files (format, the one value codec, reading, writing, locks) and database folders.

mod codec;
mod db;
mod file;
mod format;
mod lock;
mod write;

pub use codec::Cell;
pub(crate) use codec::{decode_code, encode_cell, max_depth_for_width};
#[cfg(test)]
pub(crate) use db::scratch;
pub use db::Database;
pub use file::{Row, SectorFile};
pub use format::{
    Header, SectorStats, BLOCK_SIZE, FORMAT_VERSION, HEADER_SIZE, INDEX_LAYOUT, MAGIC,
};
pub(crate) use lock::UnitLock;
pub use write::remove_temporary_files;
pub(crate) use write::write_sector;
