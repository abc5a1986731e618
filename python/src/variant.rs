//! `morris.Variant`'s methods and `morris.variants()`: a game (a board and its rules) by name,
//! every rule switch a keyword.

use morris::rules::SWITCHES;
use morris::Variant;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::args::Text;
use crate::errors::Fail;
use crate::game::{game_of, variant_repr, PyVariant, RuleArgs};
use crate::position::PyPosition;

#[pymethods]
impl PyVariant {
    #[new]
    #[pyo3(
        signature = (name = Text(String::from("nine")), *, flying = None, removal = None, phases = None, full_board = None),
        text_signature = "(name='nine', *, flying=None, removal=None, phases=None, full_board=None)"
    )]
    fn new(
        py: Python<'_>,
        name: Text,
        flying: Option<Text>,
        removal: Option<Text>,
        phases: Option<Text>,
        full_board: Option<Text>,
    ) -> PyResult<PyVariant> {
        let variant = Variant::by_name(&name.0).map_err(|e| Fail::from(e).into_py(py, None))?;
        let rules = RuleArgs::new(flying, removal, phases, full_board);
        let overrides = rules.overrides().map_err(|e| e.into_py(py, None))?;
        Ok(PyVariant::of(game_of(variant.with_overrides(overrides))))
    }

    /// The variant's name, e.g. `nine`.
    #[getter]
    fn name(&self) -> &str {
        self.variant().name()
    }

    /// A one-line description.
    #[getter]
    fn summary(&self) -> &str {
        self.variant().summary()
    }

    /// Pieces per side.
    #[getter]
    fn pieces(&self) -> u8 {
        self.variant().pieces()
    }

    /// The rule switches, `{"flying": ..., "removal": ..., "phases": ..., "full_board": ...}`.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, value) in self.variant().rules().switches() {
            dict.set_item(name.replace('-', "_"), value)?;
        }
        Ok(dict)
    }

    /// The rule-set id, as in database folder names, e.g.
    /// `pieces-9.flying-three.removal-standard.phases-separate.full-board-loss.no-move-loss`.
    #[getter]
    fn rule_set(&self) -> String {
        self.variant().rules().id()
    }

    /// The board's points in notation order (the ranks from the top, each left to right).
    #[getter]
    fn points(&self) -> Vec<String> {
        let board = self.variant().board();
        board
            .ranks()
            .iter()
            .flatten()
            .map(|&p| board.point_name(p).to_string())
            .collect()
    }

    /// The variant as one element of `morris variants --json`.
    #[getter]
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let v = self.variant();
        let r = v.rules();
        let dict = PyDict::new(py);
        dict.set_item("name", v.name())?;
        dict.set_item("summary", v.summary())?;
        dict.set_item("points", v.board().len())?;
        dict.set_item("lines", v.board().lines().len())?;
        dict.set_item("mills", v.board().mills().len())?;
        dict.set_item("symmetries", v.symmetries().len())?;
        dict.set_item("pieces", v.pieces())?;
        dict.set_item("flying", r.flying.to_string())?;
        dict.set_item("removal", r.removal.to_string())?;
        dict.set_item("phases", r.phases.to_string())?;
        dict.set_item("full_board", r.full_board.to_string())?;
        dict.set_item("rule_set", r.id())?;
        Ok(dict)
    }

    /// The start position (the empty board, White to move).
    fn start(&self) -> PyPosition {
        PyPosition::at_start(self.game.clone())
    }

    /// Parses a position in notation, `ROWS TURN WHITE_HAND BLACK_HAND` (or `start`).
    ///
    /// Raises `morris.BadPositionError` for malformed text and for a position no game from
    /// the start reaches, with the message `morris query` gives.
    fn parse(&self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<PyPosition> {
        let text = crate::args::text(text, crate::args::What::Position)?;
        let game = self.game.clone();
        let (pos, turn) = crate::errors::detached(py, || game.parse(&text))?;
        Ok(PyPosition::new(self.game.clone(), pos, turn))
    }

    fn __repr__(&self) -> String {
        variant_repr(self.variant())
    }

    fn __str__(&self) -> String {
        self.variant().name().to_string()
    }
}

/// The names of every variant, in the order of `morris variants --json`.
#[pyfunction]
pub(crate) fn variants() -> Vec<&'static str> {
    Variant::names().collect()
}

/// The rule switches: `[{"name", "values", "help"}, ...]`, as the command line and the HTTP API
/// take them (keywords write `full-board` as `full_board`).
#[pyfunction]
pub(crate) fn switches<'py>(py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
    SWITCHES
        .iter()
        .map(|s| {
            let dict = PyDict::new(py);
            dict.set_item("name", s.name)?;
            dict.set_item("values", s.values.to_vec())?;
            dict.set_item("help", s.help)?;
            Ok(dict)
        })
        .collect()
}
