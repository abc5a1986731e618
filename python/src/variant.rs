//! `morris.Variant` and `morris.variants()`: a game (a board and its rules) by name, every rule
//! switch a keyword.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

use morris::rules::{RuleOverrides, SWITCHES};
use morris::space::Reachable;
use morris::{Color, Position, Rules, Variant};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::args::Text;
use crate::errors::Fail;
use crate::position::PyPosition;

/// A variant with what every position of it is checked against: the sectors a game reaches.
#[derive(Debug)]
pub(crate) struct Game {
    pub(crate) variant: Variant,
    reachable: OnceLock<Reachable>,
}

impl Game {
    /// The sectors some game from the start reaches (planned once, on first use).
    pub(crate) fn reachable(&self) -> &Reachable {
        self.reachable.get_or_init(|| Reachable::new(&self.variant))
    }

    /// Parses a position in notation (or `start`) and checks, as every front-end does, that a
    /// game from the start can reach it.
    pub(crate) fn parse(&self, text: &str) -> Result<(Position, Color), Fail> {
        let (pos, turn) = Position::parse(&self.variant, text)?;
        self.reachable().check(&pos, turn)?;
        Ok((pos, turn))
    }

    /// Whether `other` is the same variant under the same rules.
    pub(crate) fn same(&self, other: &Game) -> bool {
        self.variant.name() == other.variant.name() && self.variant.rules() == other.variant.rules()
    }

    /// The variant's name and rule set, as a key.
    fn key(&self) -> (&str, Rules) {
        (self.variant.name(), self.variant.rules())
    }
}

/// Every game made so far, by name and rules: a `Variant` made twice shares its reachable
/// sectors, planned once.
static GAMES: Mutex<Option<Games>> = Mutex::new(None);

/// The games made so far, by variant name and rules.
type Games = HashMap<(String, Rules), Arc<Game>>;

/// The shared game of `variant`.
pub(crate) fn game_of(variant: Variant) -> Arc<Game> {
    let mut games = GAMES.lock().unwrap_or_else(|e| e.into_inner());
    let games = games.get_or_insert_with(HashMap::new);
    let key = (variant.name().to_string(), variant.rules());
    games
        .entry(key)
        .or_insert_with(|| {
            Arc::new(Game {
                variant,
                reachable: OnceLock::new(),
            })
        })
        .clone()
}

/// The rule switches given as keywords (`None`: the variant's default).
#[derive(Clone, Debug, Default)]
pub(crate) struct RuleArgs {
    pub(crate) flying: Option<Text>,
    pub(crate) removal: Option<Text>,
    pub(crate) phases: Option<Text>,
    pub(crate) full_board: Option<Text>,
}

impl RuleArgs {
    pub(crate) fn is_empty(&self) -> bool {
        self.flying.is_none()
            && self.removal.is_none()
            && self.phases.is_none()
            && self.full_board.is_none()
    }

    /// The overrides, parsed by the library's one table of switches.
    pub(crate) fn overrides(&self) -> Result<RuleOverrides, Fail> {
        Ok(RuleOverrides::from_names(|name| match name {
            "flying" => self.flying.as_ref().map(|t| t.0.as_str()),
            "removal" => self.removal.as_ref().map(|t| t.0.as_str()),
            "phases" => self.phases.as_ref().map(|t| t.0.as_str()),
            "full-board" => self.full_board.as_ref().map(|t| t.0.as_str()),
            _ => None,
        })?)
    }
}

/// The game of a `variant` argument (a name or a `Variant`) with rule keywords on top.
pub(crate) fn resolve(variant: &Bound<'_, PyAny>, rules: RuleArgs) -> PyResult<Arc<Game>> {
    let py = variant.py();
    let base = if let Ok(v) = variant.cast::<PyVariant>() {
        let game = v.get().game.clone();
        if rules.is_empty() {
            return Ok(game);
        }
        game.variant.clone()
    } else if variant.is_instance_of::<pyo3::types::PyString>() {
        let name = crate::args::text(variant, crate::args::What::Other)?;
        Variant::by_name(&name).map_err(|e| Fail::from(e).into_py(py, None))?
    } else {
        return Err(PyTypeError::new_err(format!(
            "variant must be a name (str) or a morris.Variant, not {}",
            variant.get_type().name()?
        )));
    };
    let overrides = rules.overrides().map_err(|e| e.into_py(py, None))?;
    Ok(game_of(base.with_overrides(overrides)))
}

/// A game of the Morris family: a board, its pieces and its rules.
///
/// `Variant("nine")` has the variant's default rules; each rule switch is a keyword
/// (`flying`, `removal`, `phases`, `full_board`), with the values `morris variants` lists.
/// Unknown names and values raise `morris.BadInputError`.
#[pyclass(name = "Variant", module = "morris", frozen, eq, hash)]
pub(crate) struct PyVariant {
    pub(crate) game: Arc<Game>,
}

impl PartialEq for PyVariant {
    fn eq(&self, other: &PyVariant) -> bool {
        self.game.same(&other.game)
    }
}

impl Hash for PyVariant {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.game.key().hash(state)
    }
}

impl PyVariant {
    pub(crate) fn of(game: Arc<Game>) -> PyVariant {
        PyVariant { game }
    }

    fn variant(&self) -> &Variant {
        &self.game.variant
    }
}

/// The rule switches of `variant` that differ from its defaults, as keywords.
fn changed(variant: &Variant) -> Vec<(String, &'static str)> {
    let Ok(default) = Variant::by_name(variant.name()) else {
        return Vec::new();
    };
    let (mine, theirs) = (variant.rules(), default.rules());
    mine.switches()
        .into_iter()
        .zip(theirs.switches())
        .filter(|(a, b)| a.1 != b.1)
        .map(|(a, _)| (a.0.replace('-', "_"), a.1))
        .collect()
}

/// `Variant('nine', removal='strict')`: the name and the switches that differ from the
/// defaults.
pub(crate) fn variant_repr(variant: &Variant) -> String {
    let mut out = format!("Variant('{}'", variant.name());
    for (name, value) in changed(variant) {
        out.push_str(&format!(", {name}='{value}'"));
    }
    out.push(')');
    out
}

/// How a position's repr names its variant: the name alone under the default rules.
pub(crate) fn variant_arg_repr(variant: &Variant) -> String {
    if changed(variant).is_empty() {
        format!("'{}'", variant.name())
    } else {
        variant_repr(variant)
    }
}

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
        let rules = RuleArgs {
            flying,
            removal,
            phases,
            full_board,
        };
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
