//! Solves the Morris family of board games by parallel retrograde analysis.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod board;
pub mod db;
pub mod error;
pub mod index;
pub mod movegen;
pub mod mv;
pub mod perft;
pub mod point;
pub mod position;
pub mod query;
pub mod sector;
pub mod solve;
pub mod storage;
pub mod symmetry;
pub mod value;
pub mod variant;
pub mod verify;

pub use board::Board;
pub use error::Error;
pub use mv::Move;
pub use point::{Point, PointSet};
pub use position::{Color, Position};
pub use symmetry::Symmetry;
pub use value::Value;
pub use variant::{Flying, Removal, Rules, Variant};
