//! Solves the Morris family of board games by parallel retrograde analysis.
//!
//! ```
//! use morris::{solve, Database, Position, Sector, Silent, Value, Variant};
//!
//! let variant = Variant::by_name("three")?;
//! let dir = std::env::temp_dir().join("morris-doc-example");
//! let db = Database::new(&dir, &variant)?;
//! solve(&db, &[Sector::start(&variant)], &Silent)?;
//! assert_eq!(db.probe(&Position::start(&variant))?, Value::Draw);
//! # Ok::<(), morris::Error>(())
//! ```
//!
//! The layers, each importing only those before it (`docs/architecture.md`): [`rules`] (boards,
//! variants, positions, moves, values), [`space`] (sectors, the index, the schedule of work
//! units), [`store`] (the sector files and their one value codec), [`mod@solve`] (the retrograde
//! solver), [`mod@verify`] (the independent proof), [`query`] (perfect play and the JSON contracts),
//! then the front-ends: the command line (the `morris` binary), `serve` and `mpi`.
#![deny(unsafe_code)]
#![deny(missing_docs)]
#![deny(missing_debug_implementations)]
#![warn(unreachable_pub)]
// Functions read as named steps: one over 80 lines (clippy.toml) is a lint, in CI an error.
#![warn(clippy::too_many_lines)]

mod cpu;
mod error;
mod invalid;
mod kernel;
mod progress;

pub mod front;
pub mod nmove;
pub mod query;
pub mod rules;
pub mod solve;
pub mod space;
pub mod store;
pub mod tables;
pub mod verify;

#[cfg(feature = "mpi")]
pub mod mpi;
#[cfg(feature = "serve")]
pub mod serve;

pub use cpu::missing_cpu_feature;
pub use error::{Damage, Error, Foreign, Limit, Missing};
pub use invalid::InvalidInput;
pub use progress::{ClusterEvent, Progress, SectorReport, Silent, UnitTimes};
pub use query::{Analysis, MoveValue};
pub use rules::{
    Board, Color, Flying, FullBoard, Move, Outcome, Phases, Point, PointSet, Position, Removal,
    Rules, Value, Variant,
};
pub use solve::solve;
pub use space::{Sector, WorkUnit};
pub use store::{Database, SectorStats};
pub use verify::verify;

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
