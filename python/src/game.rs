//! The game behind `morris.Variant`: a board and its rules by name, every rule switch a
//! keyword, with the sectors its positions are checked against, shared by every object made
//! for it.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

use morris::rules::RuleOverrides;
use morris::space::Reachable;
use morris::{Color, Position, Rules, Variant};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::args::Text;
use crate::errors::Fail;

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

    /// The position of bitboards (`morris::front::Bits`) with `turn` to move, checked as
    /// [`Game::parse`] checks its notation.
    pub(crate) fn position_of_bits(
        &self,
        bits: morris::front::Bits,
        turn: Color,
    ) -> Result<(Position, Color), Fail> {
        let (pos, turn) =
            morris::front::position_of_bits(&self.variant, bits, turn).map_err(|e| match e {
                // A bit off the board or a point on both sides: a bad position, as every
                // bitboard door of the package says.
                morris::InvalidInput::Request(why) => Fail::BadPosition(why),
                e => Fail::from(e),
            })?;
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
    /// The switches given as keywords.
    pub(crate) fn new(
        flying: Option<Text>,
        removal: Option<Text>,
        phases: Option<Text>,
        full_board: Option<Text>,
    ) -> RuleArgs {
        RuleArgs {
            flying,
            removal,
            phases,
            full_board,
        }
    }

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

    /// The variant and its rules.
    pub(crate) fn variant(&self) -> &Variant {
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
