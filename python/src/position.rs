//! `morris.Position`: a position of a variant with its side to move, its notation, its legal
//! moves, and the position after one.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use morris::rules::generate;
use morris::{Color, Move, Position, Sector};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

use crate::args::{text, Count, Text, What};
use crate::errors::{detached, BadPositionError, Fail};
use crate::game::{Game, PyVariant, RuleArgs};

/// A position of a variant: the pieces on the board, the pieces in hand, the side to move.
///
/// Made by `Position.parse(text, variant)`, `Position.start(variant)`, `Variant.parse`,
/// `Variant.start` or `Position.play`; every position is one that some game from the start
/// reaches (as `morris query` checks). `str(position)` is its notation.
#[pyclass(name = "Position", module = "morris", frozen, eq, hash)]
pub(crate) struct PyPosition {
    pub(crate) game: Arc<Game>,
    pub(crate) pos: Position,
    pub(crate) turn: Color,
}

impl PartialEq for PyPosition {
    fn eq(&self, other: &PyPosition) -> bool {
        self.game.same(&other.game) && self.pos == other.pos && self.turn == other.turn
    }
}

impl Hash for PyPosition {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.game.variant.name().hash(state);
        self.pos.hash(state);
        self.turn.hash(state);
    }
}

impl PyPosition {
    pub(crate) fn new(game: Arc<Game>, pos: Position, turn: Color) -> PyPosition {
        PyPosition { game, pos, turn }
    }

    pub(crate) fn at_start(game: Arc<Game>) -> PyPosition {
        let pos = Position::start(&game.variant);
        PyPosition::new(game, pos, Color::White)
    }

    fn notation(&self) -> String {
        self.pos.to_notation(&self.game.variant, self.turn)
    }

    /// The legal moves with their notation, sorted by notation (as `morris moves` lists them).
    fn named_moves(&self) -> Vec<(String, Move)> {
        let board = self.game.variant.board();
        let mut moves: Vec<(String, Move)> = generate(&self.game.variant, &self.pos)
            .iter()
            .map(|&m| (m.to_notation(board), m))
            .collect();
        moves.sort();
        moves
    }
}

/// `morris.Move` (a `str` subclass, `python/morris/_move.py`) of a legal move of `variant`:
/// its notation with its kind, points and one-point bitboards.
pub(crate) fn move_object<'py>(
    py: Python<'py>,
    variant: &morris::Variant,
    mv: Move,
) -> PyResult<Bound<'py, PyAny>> {
    static MOVE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let board = variant.board();
    let name = |p: morris::Point| board.point_name(p).to_string();
    let bit = |p: Option<morris::Point>| p.map_or(0, |p| 1u32 << p.index());
    let kind = match mv.from() {
        None => "place",
        Some(from) if board.adjacent(from).contains(mv.to()) => "slide",
        Some(_) => "fly",
    };
    let bits = (bit(mv.from()), bit(Some(mv.to())), bit(mv.removed()));
    MOVE.import(py, "morris._move", "Move")?.call1((
        mv.to_notation(board),
        kind,
        mv.from().map(name),
        name(mv.to()),
        mv.removed().map(name),
        bits,
    ))
}

/// What a probe is asked about: a position in notation, or a `Position`.
pub(crate) enum Target {
    /// Text, parsed and checked by the database's variant.
    Text(String),
    /// A position already parsed under the database's own variant and rules.
    Given { pos: Position, turn: Color },
}

impl Target {
    /// The target of an argument: a `morris.Position` of the same board, or a `str`.
    pub(crate) fn extract(obj: &Bound<'_, PyAny>, game: &Game) -> PyResult<Target> {
        if let Ok(p) = obj.cast::<PyPosition>() {
            let p = p.get();
            // Positions made for this game (the usual case) share its `Game`.
            if !std::ptr::eq(&*p.game, game) && !p.game.same(game) {
                return Err(BadPositionError::new_err(foreign_position(
                    &p.game.variant,
                    &game.variant,
                )));
            }
            return Ok(Target::Given {
                pos: p.pos,
                turn: p.turn,
            });
        }
        if obj.is_instance_of::<pyo3::types::PyString>() {
            return Ok(Target::Text(text(obj, What::Position)?));
        }
        Err(PyTypeError::new_err(format!(
            "expected a morris.Position or a position in notation (str), not {}",
            obj.get_type().name()?
        )))
    }

    /// The position and its side to move, checked as `morris query` checks it.
    pub(crate) fn resolve(&self, game: &Game) -> Result<(Position, Color), Fail> {
        match self {
            Target::Text(text) => game.parse(text.trim()),
            Target::Given { pos, turn } => Ok((*pos, *turn)),
        }
    }
}

/// Why a position of `given` cannot be answered by a database of `db`: a position means
/// something only under its own rules (a standard-rules value of a strict-rules position is a
/// wrong answer), so both rule sets are named.
fn foreign_position(given: &morris::Variant, db: &morris::Variant) -> String {
    let name = |v: &morris::Variant| format!("{} ({})", v.name(), v.rules().id());
    format!(
        "a position of {} cannot be answered by a database of {}: open the database of the \
         position's rules, or parse the position under the database's",
        name(given),
        name(db)
    )
}

#[pymethods]
impl PyPosition {
    /// Parses a position in notation, `ROWS TURN WHITE_HAND BLACK_HAND` (or `start`), of
    /// `variant` (a name or a `Variant`; rule switches as keywords).
    ///
    /// Raises `morris.BadPositionError` for malformed text and for a position no game from
    /// the start reaches.
    #[staticmethod]
    #[pyo3(signature = (text, variant = None, *, flying = None, removal = None, phases = None, full_board = None))]
    fn parse(
        py: Python<'_>,
        text: &Bound<'_, PyAny>,
        variant: Option<&Bound<'_, PyAny>>,
        flying: Option<Text>,
        removal: Option<Text>,
        phases: Option<Text>,
        full_board: Option<Text>,
    ) -> PyResult<PyPosition> {
        let rules = RuleArgs::new(flying, removal, phases, full_board);
        let game = crate::game_arg(py, variant, rules)?;
        let g = game.clone();
        let text = crate::args::text(text, What::Position)?;
        let (pos, turn) = detached(py, move || g.parse(text.trim()))?;
        Ok(PyPosition::new(game, pos, turn))
    }

    /// The position of bitboards, as an engine holds it: bit `i` of `white` and `black` is
    /// the board's point `i` in notation order (`Variant.points`), the hands are the pieces
    /// each side still has to place, `turn` is `"w"` or `"b"`. Checked as `parse` checks text.
    ///
    /// Raises `morris.BadPositionError` for bits outside the board, a point in both sets, or
    /// a position no game reaches.
    #[staticmethod]
    #[pyo3(signature = (white, black, white_hand, black_hand, turn, variant = None, *, flying = None, removal = None, phases = None, full_board = None))]
    #[allow(clippy::too_many_arguments)]
    fn from_bits(
        py: Python<'_>,
        white: Count<u32>,
        black: Count<u32>,
        white_hand: Count<u8>,
        black_hand: Count<u8>,
        turn: Text,
        variant: Option<&Bound<'_, PyAny>>,
        flying: Option<Text>,
        removal: Option<Text>,
        phases: Option<Text>,
        full_board: Option<Text>,
    ) -> PyResult<PyPosition> {
        let rules = RuleArgs::new(flying, removal, phases, full_board);
        let game = crate::game_arg(py, variant, rules)?;
        let turn = match turn.0.as_str() {
            "w" => Color::White,
            "b" => Color::Black,
            other => {
                let why = format!("turn must be \"w\" or \"b\", not {other:?}");
                return Err(BadPositionError::new_err(why));
            }
        };
        let bits = morris::front::Bits {
            white: white.0,
            black: black.0,
            white_hand: white_hand.0,
            black_hand: black_hand.0,
        };
        let g = game.clone();
        let (pos, turn) = detached(py, move || g.position_of_bits(bits, turn))?;
        Ok(PyPosition::new(game, pos, turn))
    }

    /// The position as bitboards: `(white, black, white_hand, black_hand)`, bit `i` of a set
    /// being the board's point `i` in notation order (`Position.from_bits` takes them back,
    /// with `turn`).
    #[getter]
    fn bits(&self) -> (u32, u32, u8, u8) {
        let b = morris::front::bits_of(&self.pos, self.turn);
        (b.white, b.black, b.white_hand, b.black_hand)
    }

    /// The start position of `variant` (the empty board, White to move).
    #[staticmethod]
    #[pyo3(signature = (variant = None, *, flying = None, removal = None, phases = None, full_board = None))]
    fn start(
        py: Python<'_>,
        variant: Option<&Bound<'_, PyAny>>,
        flying: Option<Text>,
        removal: Option<Text>,
        phases: Option<Text>,
        full_board: Option<Text>,
    ) -> PyResult<PyPosition> {
        let rules = RuleArgs::new(flying, removal, phases, full_board);
        Ok(PyPosition::at_start(crate::game_arg(py, variant, rules)?))
    }

    /// The variant.
    #[getter]
    fn variant(&self) -> PyVariant {
        PyVariant::of(self.game.clone())
    }

    /// The side to move: `w` or `b`.
    #[getter]
    fn turn(&self) -> String {
        self.turn.letter().to_string()
    }

    /// The sector, `W-B-WF-BF`: the side to move's pieces on the board, the other side's, and
    /// the pieces each has in hand.
    #[getter]
    fn sector(&self) -> String {
        Sector::of(&self.pos).to_string()
    }

    /// The legal moves as `morris.Move` objects (a `str` of the notation, `d7`, `a1-a4`,
    /// `d7xg7`, with the move's parts), sorted as `morris moves` lists them; none when the
    /// game is over.
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        self.named_moves()
            .into_iter()
            .map(|(_, m)| move_object(py, &self.game.variant, m))
            .collect()
    }

    /// The legal move `text` (in notation) as a `morris.Move`. Raises `morris.BadMoveError`
    /// when the move is malformed or not legal here.
    #[pyo3(name = "move")]
    fn legal_move<'py>(&self, text: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = text.py();
        let text = crate::args::text(text, What::Move)?;
        let mv = morris::front::legal_move(&self.game.variant, &self.pos, self.turn, &text)
            .map_err(|e| Fail::from(e).into_py(py, None))?;
        move_object(py, &self.game.variant, mv)
    }

    /// The position after `move` (in notation). Raises `morris.BadMoveError` when the move is
    /// malformed or not legal here.
    fn play(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<PyPosition> {
        let r#move = text(r#move, What::Move)?;
        let after = morris::front::play(&self.game.variant, &self.pos, self.turn, &r#move)
            .map_err(|e| Fail::from(e).into_py(py, None))?;
        Ok(PyPosition::new(self.game.clone(), after, self.turn.other()))
    }

    fn __str__(&self) -> String {
        self.notation()
    }

    fn __repr__(&self) -> String {
        format!(
            "Position('{}', {})",
            self.notation(),
            crate::game::variant_arg_repr(&self.game.variant)
        )
    }
}
