//! Solves the Morris family of board games by parallel retrograde analysis.
//!
//! ```
//! use morris::db::Database;
//! use morris::position::Position;
//! use morris::sector::Sector;
//! use morris::solve::{solve, Silent};
//! use morris::{Value, Variant};
//!
//! let variant = Variant::by_name("three").unwrap();
//! let dir = std::env::temp_dir().join("morris-doc-example");
//! let db = Database::new(&dir, &variant).unwrap();
//! solve(&db, &[Sector::start(&variant)], &Silent).unwrap();
//! assert_eq!(db.probe(&Position::start(&variant)).unwrap(), Value::Draw);
//! ```
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod board;
pub mod db;
pub mod error;
pub mod index;
pub mod movegen;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod mv;
pub mod perft;
pub mod point;
pub mod position;
pub mod query;
pub mod schedule;
pub mod sector;
#[cfg(feature = "serve")]
pub mod serve;
pub mod solve;
pub mod storage;
pub mod symmetry;
pub mod value;
pub mod variant;
pub mod verify;
pub mod wire;

pub use board::Board;
pub use error::Error;
pub use mv::Move;
pub use point::{Point, PointSet};
pub use position::{Color, Position};
pub use symmetry::Symmetry;
pub use value::Value;
pub use variant::{Flying, Removal, Rules, Variant};

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
