//! Variants: a board plus rule values, all runtime data.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use super::board::Board;
use super::symmetry::Symmetry;
use crate::invalid::{clip, InvalidInput};

/// When a side may fly (move a piece to any empty point).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Flying {
    /// Never.
    Never,
    /// In the moving phase with exactly three pieces.
    Three,
    /// Always, in the moving phase.
    Always,
}

/// Which opponent pieces a mill may remove.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Removal {
    /// Pieces outside mills; pieces in mills only when all are in mills.
    Standard,
    /// Never a piece in a mill.
    Strict,
    /// Any piece, in a mill or not.
    Lenient,
}

/// How the placement and moving phases relate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Phases {
    /// Place while pieces are in hand, then move.
    Separate,
    /// Lasker: while a side has pieces in hand, each turn either places or moves.
    Lasker,
}

/// What a board left full after placement means for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FullBoard {
    /// The side to move loses (it has no legal move).
    Loss,
    /// The game is drawn.
    Draw,
}

/// What a side to move with no legal move gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NoMove {
    /// It loses.
    Loss,
}

/// A rule switch: its values by name, its code in the database header, and its parser.
pub trait RuleSwitch: Copy + Sized + 'static {
    /// The switch's name on the command line, e.g. `flying`.
    const NAME: &'static str;
    /// Every value, in header-code order (the code of a value is its place here).
    const ALL: &'static [Self];
    /// The values' names, in the same order.
    const NAMES: &'static [&'static str];
    /// What the switch decides and what each value means, in a sentence.
    const HELP: &'static str;
    /// The value's name on the command line.
    fn name(self) -> &'static str;
    /// The value's code in the database header.
    fn code(self) -> u8;
    /// The value with header code `code`.
    fn from_code(code: u8) -> Option<Self> {
        Self::ALL.get(code as usize).copied()
    }
    /// Parses a value by name.
    ///
    /// # Errors
    /// `InvalidInput::UnknownRule` listing the accepted names.
    fn parse(s: &str) -> Result<Self, InvalidInput> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.name() == s)
            .ok_or_else(|| InvalidInput::UnknownRule {
                rule: Self::NAME,
                value: clip(s),
                expected: Self::ALL
                    .iter()
                    .map(|v| v.name())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }
}

macro_rules! rule_switch {
    ($ty:ident, $name:literal, $help:literal, [$($variant:ident => $text:literal),+]) => {
        impl RuleSwitch for $ty {
            const NAME: &'static str = $name;
            const ALL: &'static [$ty] = &[$($ty::$variant),+];
            const NAMES: &'static [&'static str] = &[$($text),+];
            const HELP: &'static str = $help;
            fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $text),+
                }
            }
            fn code(self) -> u8 {
                self as u8
            }
        }

        impl FromStr for $ty {
            type Err = InvalidInput;
            fn from_str(s: &str) -> Result<$ty, InvalidInput> {
                <$ty as RuleSwitch>::parse(s)
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.pad(self.name())
            }
        }
    };
}

rule_switch!(Flying, "flying",
    "When a side may fly to any empty point: `never`, `three` (with exactly three pieces, on the board and in hand, while moving) or `always` (whenever moving).",
    [Never => "never", Three => "three", Always => "always"]);
rule_switch!(Removal, "removal",
    "Which pieces a mill removes: `standard` (pieces in mills only when all are), `strict` (never a piece in a mill) or `lenient` (any piece).",
    [Standard => "standard", Strict => "strict", Lenient => "lenient"]);
rule_switch!(Phases, "phases",
    "How the phases work: `separate` (place while pieces are in hand, then move) or `lasker` (while pieces are in hand, each turn either places or moves).",
    [Separate => "separate", Lasker => "lasker"]);
rule_switch!(FullBoard, "full-board",
    "What a full board means for the side to move: `loss` (it cannot move) or `draw` (the game is drawn).",
    [Loss => "loss", Draw => "draw"]);
rule_switch!(NoMove, "no-move",
    "What a side to move without a legal move gets: `loss`.",
    [Loss => "loss"]);

/// A rule switch as the front-ends offer it: its name, its values' names and its help.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Switch {
    /// The name, e.g. `flying`.
    pub name: &'static str,
    /// The values' names.
    pub values: &'static [&'static str],
    /// What it decides, in a sentence.
    pub help: &'static str,
}

impl Switch {
    const fn of<T: RuleSwitch>() -> Switch {
        Switch {
            name: T::NAME,
            values: T::NAMES,
            help: T::HELP,
        }
    }
}

/// The switches a user sets, in command-line order: the one table the command line, the
/// server and the explorer page (through `/api/variants`) take their names from.
pub const SWITCHES: [Switch; 4] = [
    Switch::of::<Flying>(),
    Switch::of::<Removal>(),
    Switch::of::<Phases>(),
    Switch::of::<FullBoard>(),
];

/// Every rule of a variant, everything but the board: the one place rule questions are asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Pieces per side.
    pub pieces: u8,
    /// When a side may fly.
    pub flying: Flying,
    /// Which pieces a mill may remove.
    pub removal: Removal,
    /// How placement and moving relate.
    pub phases: Phases,
    /// What a board left full after placement means.
    pub full_board: FullBoard,
    /// What a side with no legal move gets.
    pub no_move: NoMove,
}

impl Rules {
    /// The stable textual id of the rule set, used in database folder names and headers, e.g.
    /// `pieces-9.flying-three.removal-standard.phases-separate.full-board-loss.no-move-loss`.
    pub fn id(&self) -> String {
        format!(
            "pieces-{}.flying-{}.removal-{}.phases-{}.full-board-{}.no-move-{}",
            self.pieces, self.flying, self.removal, self.phases, self.full_board, self.no_move
        )
    }

    // The phase rule, the hands rule and the flying rule: every part of the engine that
    // needs one of them asks here.

    /// The switches a user sets, by name and value name, in command-line order: every rule
    /// but the pieces (the variant's) and what a side without a move gets (always a loss).
    pub fn switches(&self) -> [(&'static str, &'static str); 4] {
        [
            (Flying::NAME, self.flying.name()),
            (Removal::NAME, self.removal.name()),
            (Phases::NAME, self.phases.name()),
            (FullBoard::NAME, self.full_board.name()),
        ]
    }

    /// Whether a side with `hand` pieces in hand may place this turn.
    #[inline]
    pub fn may_place(&self, hand: u8) -> bool {
        hand > 0
    }

    /// Whether a side with `hand` pieces in hand may move a piece on the board this turn.
    #[inline]
    pub fn may_move(&self, hand: u8) -> bool {
        hand == 0 || self.phases == Phases::Lasker
    }

    /// Whether a side with `hand` pieces in hand must place this turn: it may place and may
    /// not move a piece instead (every child of its positions has one more piece on the board).
    #[inline]
    pub fn only_places(&self, hand: u8) -> bool {
        self.may_place(hand) && !self.may_move(hand)
    }

    /// Whether a side that moves, with `pieces` on board and in hand, may fly.
    #[inline]
    pub fn flies(&self, pieces: u32) -> bool {
        match self.flying {
            Flying::Never => false,
            Flying::Three => pieces == 3,
            Flying::Always => true,
        }
    }

    /// Whether hands `mover` and `opponent` can occur with this side to move: under
    /// separate phases the hands alternate (the mover holds as many pieces as the opponent,
    /// or one more); under Lasker's any hands can.
    #[inline]
    pub fn hands_alternate(&self, mover: u8, opponent: u8) -> bool {
        self.phases == Phases::Lasker || mover == opponent || mover == opponent + 1
    }
}

/// Rule values to override in a variant's defaults; `None` keeps the default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleOverrides {
    /// When a side may fly.
    pub flying: Option<Flying>,
    /// Which pieces a mill may remove.
    pub removal: Option<Removal>,
    /// How placement and moving relate.
    pub phases: Option<Phases>,
    /// What a board left full after placement means.
    pub full_board: Option<FullBoard>,
}

impl RuleOverrides {
    /// The overrides named by `value_of(switch name)`, e.g. from command-line options or
    /// query parameters; a switch without a value keeps the default.
    ///
    /// # Errors
    /// `InvalidInput::UnknownRule` for a value that is not one of its switch's names.
    pub fn from_names<'a>(
        value_of: impl Fn(&str) -> Option<&'a str>,
    ) -> Result<RuleOverrides, InvalidInput> {
        fn parse<'a, T: RuleSwitch>(
            value_of: &impl Fn(&str) -> Option<&'a str>,
        ) -> Result<Option<T>, InvalidInput> {
            value_of(T::NAME).map(T::parse).transpose()
        }
        Ok(RuleOverrides {
            flying: parse(&value_of)?,
            removal: parse(&value_of)?,
            phases: parse(&value_of)?,
            full_board: parse(&value_of)?,
        })
    }
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
    phases: Phases,
    full_board: FullBoard,
    summary: &'static str,
}

const SPECS: &[Spec] = &[
    Spec {
        name: "nine",
        lines: &[NINE_LINES],
        pieces: 9,
        flying: Flying::Three,
        phases: Phases::Separate,
        full_board: FullBoard::Loss,
        summary: "Nine Men's Morris",
    },
    Spec {
        name: "six",
        lines: &[SIX_SQUARES, SIX_CONNECTORS],
        pieces: 6,
        flying: Flying::Never,
        phases: Phases::Separate,
        full_board: FullBoard::Loss,
        summary: "Six Men's Morris",
    },
    Spec {
        name: "six-diag",
        lines: &[SIX_SQUARES, SIX_CONNECTORS, SIX_DIAGONALS],
        pieces: 6,
        flying: Flying::Never,
        phases: Phases::Separate,
        full_board: FullBoard::Loss,
        summary: "Six Men's Morris with corner diagonals",
    },
    Spec {
        name: "five",
        lines: &[SIX_SQUARES, SIX_CONNECTORS],
        pieces: 5,
        flying: Flying::Never,
        phases: Phases::Separate,
        full_board: FullBoard::Loss,
        summary: "Five Men's Morris (six's board)",
    },
    Spec {
        name: "seven",
        lines: &[SIX_SQUARES, SEVEN_CROSS],
        pieces: 7,
        flying: Flying::Never,
        phases: Phases::Separate,
        full_board: FullBoard::Loss,
        summary: "Seven Men's Morris (six's board with a centre)",
    },
    Spec {
        name: "three",
        lines: &[THREE_LINES],
        pieces: 3,
        flying: Flying::Never,
        phases: Phases::Separate,
        full_board: FullBoard::Loss,
        summary: "Three Men's Morris",
    },
    Spec {
        name: "three-diag",
        lines: &[THREE_LINES, THREE_DIAGONALS],
        pieces: 3,
        flying: Flying::Never,
        phases: Phases::Separate,
        full_board: FullBoard::Loss,
        summary: "Three Men's Morris with diagonals",
    },
    Spec {
        name: "twelve",
        lines: &[NINE_LINES, TWELVE_EXTRA],
        pieces: 12,
        flying: Flying::Never,
        phases: Phases::Separate,
        full_board: FullBoard::Draw,
        summary: "Twelve Men's Morris (nine's board with diagonals; a full board is a draw)",
    },
    Spec {
        name: "lasker",
        lines: &[NINE_LINES],
        pieces: 10,
        flying: Flying::Three,
        phases: Phases::Lasker,
        full_board: FullBoard::Loss,
        summary: "Lasker Morris (nine's board, 10 pieces, place or move while pieces are in hand)",
    },
    Spec {
        name: "morabaraba",
        lines: &[NINE_LINES, TWELVE_EXTRA],
        pieces: 12,
        flying: Flying::Three,
        phases: Phases::Separate,
        full_board: FullBoard::Draw,
        summary: "Morabaraba (twelve's board, 12 pieces, flying at three; a full board is a draw)",
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
    /// `InvalidInput::UnknownVariant` when no variant has that name.
    pub fn by_name(name: &str) -> Result<Variant, InvalidInput> {
        let spec =
            SPECS
                .iter()
                .find(|s| s.name == name)
                .ok_or_else(|| InvalidInput::UnknownVariant {
                    name: clip(name),
                    known: Variant::names().collect::<Vec<_>>().join(", "),
                })?;
        let lines: Vec<&str> = spec
            .lines
            .iter()
            .flat_map(|part| part.iter().copied())
            .collect();
        let mut v = Variant::custom(
            spec.name,
            &lines,
            Rules {
                pieces: spec.pieces,
                flying: spec.flying,
                removal: Removal::Standard,
                phases: spec.phases,
                full_board: spec.full_board,
                no_move: NoMove::Loss,
            },
        )?;
        v.summary = spec.summary.to_string();
        Ok(v)
    }

    /// A variant of one's own: a board given by its lines (points joined by `-`, e.g.
    /// `a7-d7-g7`) and rule values. Its name identifies it in database folders and headers,
    /// together with the lines, so a database of another board is never read as this one's.
    ///
    /// # Errors
    /// `InvalidInput::Board` for malformed lines; `InvalidInput::UnsupportedRule` when a side's pieces
    /// cannot fit the limits of the engine (3 to 15 pieces a side).
    pub fn custom(name: &str, lines: &[&str], rules: Rules) -> Result<Variant, InvalidInput> {
        if !(3..=15).contains(&rules.pieces) {
            return Err(InvalidInput::UnsupportedRule {
                rule: "pieces",
                value: rules.pieces.to_string(),
            });
        }
        let board = Board::from_lines(name, lines)?;
        let symmetries = Symmetry::automorphisms(&board);
        Ok(Variant {
            name: name.to_string(),
            summary: format!("{name} (custom board)"),
            board: Arc::new(board),
            symmetries: Arc::new(symmetries),
            rules,
        })
    }

    /// The same variant with some rule values overridden.
    #[must_use]
    pub fn with_rules(self, flying: Option<Flying>, removal: Option<Removal>) -> Variant {
        self.with_overrides(RuleOverrides {
            flying,
            removal,
            ..RuleOverrides::default()
        })
    }

    /// The same variant with the given rule values overridden.
    #[must_use]
    pub fn with_overrides(mut self, o: RuleOverrides) -> Variant {
        let r = &mut self.rules;
        r.flying = o.flying.unwrap_or(r.flying);
        r.removal = o.removal.unwrap_or(r.removal);
        r.phases = o.phases.unwrap_or(r.phases);
        r.full_board = o.full_board.unwrap_or(r.full_board);
        self
    }

    /// The variant under every combination of supported rule values, its own rules first:
    /// every rule set a database folder may hold for it.
    pub fn rule_sets(&self) -> Vec<Variant> {
        let mut out = vec![self.clone()];
        for &flying in Flying::ALL {
            for &removal in Removal::ALL {
                for &phases in Phases::ALL {
                    for &full_board in FullBoard::ALL {
                        let v = self.clone().with_overrides(RuleOverrides {
                            flying: Some(flying),
                            removal: Some(removal),
                            phases: Some(phases),
                            full_board: Some(full_board),
                        });
                        if v.rules() != self.rules() {
                            out.push(v);
                        }
                    }
                }
            }
        }
        out
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
}
