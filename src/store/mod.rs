//! Storage: sector files (format, the one value codec, reading, writing, locks), database
//! folders, and compact tables (their format, context model and reading).

// A build without `libzstd` reads tables but cannot write them: the writer's helpers here
// (packing, header encoding, symbols) go unused there, and only there.
#![cfg_attr(not(feature = "libzstd"), allow(dead_code, unused_imports))]

mod blocks;
mod cache;
mod codec;
mod db;
mod file;
mod format;
mod frames;
mod lock;
mod model;
mod planned;
mod regular;
mod sector_tables;
mod source;
mod table;
mod values;
mod write;

pub use codec::Cell;
pub(crate) use codec::{encode_cell, width_for_depth, Key, Keys, Proved};
#[cfg(test)]
pub(crate) use db::scratch;
pub use db::{
    rule_set_folder, solved_rule_sets, solved_rule_sets_in, Database, Reading, READER_CACHE_BYTES,
    SECTOR_READER_CACHE_BYTES,
};
pub(crate) use file::Row;
pub use file::SectorFile;
pub(crate) use format::Header;
pub use format::SectorStats;
pub(crate) use lock::UnitLock;
pub(crate) use model::{context, orders, rank_of, CONTEXTS};
pub(crate) use sector_tables::table_path;
pub use sector_tables::SectorTables;
pub(crate) use sector_tables::{depth_symbol, wdl_symbol};
pub use source::{Bytes, Disk, Files, InMemory, Layers, Mapped, ReadBy, Source};
pub(crate) use table::{pack, HEAD as TABLE_HEAD};
pub(crate) use table::{read_table_header, Model, TableHeader, TableKind};
pub use values::SectorValues;
pub use write::remove_temporary_files;
pub(crate) use write::{write_sector, write_whole};
