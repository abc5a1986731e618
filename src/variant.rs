//! Variants: a board plus rule values, all runtime data.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use crate::board::Board;
use crate::error::Error;
use crate::symmetry::Symmetry;

/// When a side may fly (move a piece to any empty point).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Flying {
    /// Never.
    Never,
    /// In the moving phase with exactly three pieces.
    Three,
}

/// Which opponent pieces a mill may remove.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Removal {
    /// Pieces outside mills; pieces in mills only when all are in mills.
    Standard,
    /// Never a piece in a mill.
    Strict,
}

impl FromStr for Flying {
    type Err = Error;
    fn from_str(s: &str) -> Result<Flying, Error> {
        match s {
            "never" => Ok(Flying::Never),
            "three" => Ok(Flying::Three),
            _ => Err(Error::UnknownRule {
                rule: "flying",
                value: s.to_string(),
                expected: "never or three",
            }),
        }
    }
}

impl FromStr for Removal {
    type Err = Error;
    fn from_str(s: &str) -> Result<Removal, Error> {
        match s {
            "standard" => Ok(Removal::Standard),
            "strict" => Ok(Removal::Strict),
            _ => Err(Error::UnknownRule {
                rule: "removal",
                value: s.to_string(),
                expected: "standard or strict",
            }),
        }
    }
}

impl fmt::Display for Flying {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            Flying::Never => "never",
            Flying::Three => "three",
        })
    }
}

impl fmt::Display for Removal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            Removal::Standard => "standard",
            Removal::Strict => "strict",
        })
    }
}

/// The rule values of a variant, everything but the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Pieces per side.
    pub pieces: u8,
    /// When a side may fly.
    pub flying: Flying,
    /// Which pieces a mill may remove.
    pub removal: Removal,
}

const NINE_LINES: &[&str] = &[
    "a7-d7-g7", "b6-d6-f6", "c5-d5-e5", "a4-b4-c4", "e4-f4-g4", "c3-d3-e3", "b2-d2-f2", "a1-d1-g1",
    "a7-a4-a1", "b6-b4-b2", "c5-c4-c3", "d7-d6-d5", "d3-d2-d1", "e5-e4-e3", "f6-f4-f2", "g7-g4-g1",
];
const TWELVE_EXTRA: &[&str] = &["a7-b6-c5", "g7-f6-e5", "a1-b2-c3", "g1-f2-e3"];
const SIX_SQUARES: &[&str] = &[
    "a5-c5-e5", "e5-e3-e1", "a1-c1-e1", "a5-a3-a1", "b4-c4-d4", "d4-d3-d2", "b2-c2-d2", "b4-b3-b2",
];
const SIX_CONNECTORS: &[&str] = &["c5-c4", "a3-b3", "d3-e3", "c1-c2"];
const SIX_DIAGONALS: &[&str] = &["a5-b4", "e5-d4", "a1-b2", "e1-d2"];
const SEVEN_CROSS: &[&str] = &["c5-c4-c3-c2-c1", "a3-b3-c3-d3-e3"];
const THREE_LINES: &[&str] = &[
    "a3-b3-c3", "a2-b2-c2", "a1-b1-c1", "a3-a2-a1", "b3-b2-b1", "c3-c2-c1",
];
const THREE_DIAGONALS: &[&str] = &["a1-b2-c3", "a3-b2-c1"];

/// A variant's definition: name, lines (as parts to join), pieces, default flying, summary.
struct Spec {
    name: &'static str,
    lines: &'static [&'static [&'static str]],
    pieces: u8,
    flying: Flying,
    summary: &'static str,
}

const SPECS: &[Spec] = &[
    Spec {
        name: "nine",
        lines: &[NINE_LINES],
        pieces: 9,
        flying: Flying::Three,
        summary: "Nine Men's Morris",
    },
    Spec {
        name: "six",
        lines: &[SIX_SQUARES, SIX_CONNECTORS],
        pieces: 6,
        flying: Flying::Never,
        summary: "Six Men's Morris",
    },
    Spec {
        name: "six-diag",
        lines: &[SIX_SQUARES, SIX_CONNECTORS, SIX_DIAGONALS],
        pieces: 6,
        flying: Flying::Never,
        summary: "Six Men's Morris with corner diagonals",
    },
    Spec {
        name: "five",
        lines: &[SIX_SQUARES, SIX_CONNECTORS],
        pieces: 5,
        flying: Flying::Never,
        summary: "Five Men's Morris (six's board)",
    },
    Spec {
        name: "seven",
        lines: &[SIX_SQUARES, SEVEN_CROSS],
        pieces: 7,
        flying: Flying::Never,
        summary: "Seven Men's Morris (six's board with a centre)",
    },
    Spec {
        name: "three",
        lines: &[THREE_LINES],
        pieces: 3,
        flying: Flying::Never,
        summary: "Three Men's Morris",
    },
    Spec {
        name: "three-diag",
        lines: &[THREE_LINES, THREE_DIAGONALS],
        pieces: 3,
        flying: Flying::Never,
        summary: "Three Men's Morris with diagonals",
    },
    Spec {
        name: "twelve",
        lines: &[NINE_LINES, TWELVE_EXTRA],
        pieces: 12,
        flying: Flying::Three,
        summary: "Twelve Men's Morris (nine's board with diagonals)",
    },
];

/// A game: a board, its symmetries and the rule values.
#[derive(Clone, Debug)]
pub struct Variant {
    name: String,
    summary: String,
    board: Arc<Board>,
    symmetries: Arc<Vec<Symmetry>>,
    rules: Rules,
}

impl Variant {
    /// The names of every known variant.
    pub fn names() -> impl Iterator<Item = &'static str> {
        SPECS.iter().map(|s| s.name)
    }

    /// The variant called `name`, with its default rules.
    ///
    /// # Errors
    /// `Error::UnknownVariant` when no variant has that name.
    pub fn by_name(name: &str) -> Result<Variant, Error> {
        let spec = SPECS.iter().find(|s| s.name == name).ok_or_else(|| {
            Error::UnknownVariant(
                name.to_string(),
                Variant::names().collect::<Vec<_>>().join(", "),
            )
        })?;
        let lines: Vec<&str> = spec
            .lines
            .iter()
            .flat_map(|part| part.iter().copied())
            .collect();
        let board = Board::from_lines(spec.name, &lines)?;
        let symmetries = Symmetry::automorphisms(&board);
        Ok(Variant {
            name: spec.name.to_string(),
            summary: spec.summary.to_string(),
            board: Arc::new(board),
            symmetries: Arc::new(symmetries),
            rules: Rules {
                pieces: spec.pieces,
                flying: spec.flying,
                removal: Removal::Standard,
            },
        })
    }

    /// The same variant with some rule values overridden.
    pub fn with_rules(mut self, flying: Option<Flying>, removal: Option<Removal>) -> Variant {
        if let Some(f) = flying {
            self.rules.flying = f;
        }
        if let Some(r) = removal {
            self.rules.removal = r;
        }
        self
    }

    /// The variant's name, e.g. `nine`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// A one-line description.
    pub fn summary(&self) -> &str {
        &self.summary
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The board's symmetries, identity first.
    pub fn symmetries(&self) -> &[Symmetry] {
        &self.symmetries
    }

    /// The rule values.
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Pieces per side.
    #[inline]
    pub fn pieces(&self) -> u8 {
        self.rules.pieces
    }

    /// A name for the variant and its rule set, usable as a folder name.
    pub fn rule_set_name(&self) -> String {
        format!(
            "{}-flying-{}-removal-{}",
            self.name, self.rules.flying, self.rules.removal
        )
    }
}
