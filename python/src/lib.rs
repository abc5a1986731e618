//! The extension module `morris._morris` of the Python package `morris`: conversions between
//! Python and the `morris` library, nothing more. Every rule, value, check and JSON object is
//! the library's; where the library leaves the wording to its front-ends (the advice of a
//! missing sector), the words are the command line's.
//!
//! Every call that reads or writes a database releases the GIL, and every panic is caught and
//! raised as `morris.Error` instead of reaching the interpreter.

#![warn(clippy::too_many_lines)]

mod args;
mod database;
mod errors;
mod game;
mod position;
mod progress;
mod variant;
mod work;

use std::sync::Arc;

use pyo3::exceptions::PyImportError;
use pyo3::prelude::*;
use pyo3::types::PyString;

use game::{Game, RuleArgs};

/// The game of an optional `variant` argument (default `nine`) with rule keywords on top.
pub(crate) fn game_arg(
    py: Python<'_>,
    variant: Option<&Bound<'_, PyAny>>,
    rules: RuleArgs,
) -> PyResult<Arc<Game>> {
    match variant {
        Some(v) if !v.is_none() => game::resolve(v, rules),
        _ => game::resolve(PyString::new(py, "nine").as_any(), rules),
    }
}

/// Perfect play for the Morris board games from databases solved by retrograde analysis.
#[pymodule]
fn _morris(m: &Bound<'_, PyModule>) -> PyResult<()> {
    if let Some(feature) = morris::missing_cpu_feature() {
        return Err(PyImportError::new_err(format!(
            "morris: this build needs the processor feature {feature}, which this processor \
             lacks; build it for this processor with RUSTFLAGS=\"-C target-cpu=native\" pip \
             install ./python"
        )));
    }
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("Error", py.get_type::<errors::Error>())?;
    m.add("BadInputError", py.get_type::<errors::BadInputError>())?;
    m.add(
        "BadPositionError",
        py.get_type::<errors::BadPositionError>(),
    )?;
    m.add("BadMoveError", py.get_type::<errors::BadMoveError>())?;
    m.add("MissingSectorError", errors::missing_sector_error(py)?)?;
    m.add(
        "DamagedFileError",
        py.get_type::<errors::DamagedFileError>(),
    )?;
    m.add("NoDistanceError", py.get_type::<errors::NoDistanceError>())?;
    m.add_class::<game::PyVariant>()?;
    m.add_class::<position::PyPosition>()?;
    m.add_class::<database::Probe>()?;
    m.add_class::<database::PyDatabase>()?;
    m.add_function(wrap_pyfunction!(variant::variants, m)?)?;
    m.add_function(wrap_pyfunction!(variant::switches, m)?)?;
    m.add_function(wrap_pyfunction!(database::open, m)?)?;
    m.add_function(wrap_pyfunction!(database::open_files, m)?)?;
    m.add_function(wrap_pyfunction!(database::stats, m)?)?;
    m.add_function(wrap_pyfunction!(work::solve, m)?)?;
    m.add_function(wrap_pyfunction!(work::verify, m)?)?;
    Ok(())
}
