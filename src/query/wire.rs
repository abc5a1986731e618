//! The JSON contracts: the objects `query --json`, `stats --json` and the HTTP API print.
//!
//! Both front-ends (the command line and `morris serve`) build their JSON here, so that
//! `GET /api/query` answers byte for byte what `query --json` prints for the same position, and
//! `GET /api/stats` what `stats --json` prints. Keys are written in declaration order; the
//! documented order of each contract is the order of the fields below. Every object is written
//! on one line: [`json()`] gives the object, [`line()`] the object and a newline.

use serde::Serialize;

use crate::error::Error;
use crate::nmove::RuledAnswer;
use crate::query::{Analysis, Answer};
use crate::rules::Value;
use crate::rules::{Color, Position};
use crate::rules::{RuleSwitch, Variant};
use crate::space::Sector;
use crate::store::Database;
use crate::store::SectorStats;

/// The object as JSON on one line.
pub fn json<T: Serialize>(object: &T) -> String {
    // Plain data (strings, numbers, options, vectors) cannot fail to serialize.
    serde_json::to_string(object).unwrap_or_else(|e| {
        serde_json::json!({ "error": format!("cannot write JSON: {e}") }).to_string()
    })
}

/// The object as JSON and a newline: a line as the command line prints it.
pub fn line<T: Serialize>(object: &T) -> String {
    let mut text = json(object);
    text.push('\n');
    text
}

/// `{"error":"..."}`: an answer that could not be given, and why.
#[derive(Clone, Debug, Serialize)]
pub struct ErrorJson {
    /// What went wrong, with context.
    pub error: String,
}

/// One move of `query --json`: `{"move":"a1-a4xg7","value":"win","depth":13}`.
#[derive(Clone, Debug, Serialize)]
pub struct MoveJson {
    /// The move in notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// `win`, `loss` or `draw` for the side to move, playing this move.
    pub value: &'static str,
    /// Plies to the end from the current position; `null` for a draw.
    pub depth: Option<u32>,
    /// With an N-move rule: what the side to move gets by playing this move under it, from a
    /// fresh counter (`win`, `cursed-win`, `draw`, `blessed-loss` or `loss`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule_value: Option<&'static str>,
}

/// `query --json` (the contract): the position's value and every move's, best first.
#[derive(Clone, Debug, Serialize)]
pub struct QueryJson {
    /// The variant's name.
    pub variant: String,
    /// The position in notation, as normalised by the parser.
    pub position: String,
    /// `win`, `loss` or `draw` for the side to move.
    pub value: &'static str,
    /// Plies to the end under perfect play; `null` for a draw, and for every value of a folder
    /// that holds no distances.
    pub depth: Option<u32>,
    /// The distance the answer gives: absent where it is `depth` (plies to the end), `null`
    /// where the folder holds win/draw/loss tables without their depth files (every `depth`
    /// is then `null`, and the moves are ordered wins, draws, losses).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metric: Option<Option<&'static str>>,
    /// With an N-move rule: the position's value under it for a fresh counter (`value` stays
    /// the game's without the rule).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule_value: Option<&'static str>,
    /// The N of the rule `rule_value` is under, in plies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n_move_rule: Option<u16>,
    /// Every legal move, best first.
    pub moves: Vec<MoveJson>,
}

impl QueryJson {
    /// The answer for `pos` (with `turn` to move) from its analysis.
    pub fn new(variant: &Variant, pos: &Position, turn: Color, analysis: &Analysis) -> QueryJson {
        QueryJson {
            variant: variant.name().to_string(),
            position: pos.to_notation(variant, turn),
            value: analysis.value.name(),
            depth: analysis.value.depth(),
            metric: None,
            rule_value: None,
            n_move_rule: None,
            moves: analysis
                .moves
                .iter()
                .map(|m| MoveJson {
                    mv: m.mv.to_notation(variant.board()),
                    value: m.value.name(),
                    depth: m.value.depth(),
                    rule_value: None,
                })
                .collect(),
        }
    }

    /// The answer for `pos` (with `turn` to move) from what the folder holds: values with
    /// depths, or outcomes without (`"metric": null`).
    pub fn of(variant: &Variant, pos: &Position, turn: Color, answer: &Answer) -> QueryJson {
        let a = match answer {
            Answer::Values(a) => return QueryJson::new(variant, pos, turn, a),
            Answer::Outcomes(a) => a,
        };
        QueryJson {
            variant: variant.name().to_string(),
            position: pos.to_notation(variant, turn),
            value: a.outcome.name(),
            depth: None,
            metric: Some(None),
            rule_value: None,
            n_move_rule: None,
            moves: (a.moves.iter())
                .map(|m| MoveJson {
                    mv: m.mv.to_notation(variant.board()),
                    value: m.outcome.name(),
                    depth: None,
                    rule_value: None,
                })
                .collect(),
        }
    }

    /// This answer with its values under an N-move rule (`r.moves` in the order of `moves`).
    #[must_use]
    pub fn with_rule(mut self, r: &RuledAnswer) -> QueryJson {
        self.rule_value = Some(r.value.name());
        self.n_move_rule = Some(r.n);
        for (m, v) in self.moves.iter_mut().zip(&r.moves) {
            m.rule_value = Some(v.name());
        }
        self
    }
}

/// A value as `{"value":"win","depth":13}`.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ValueJson {
    /// `win`, `loss` or `draw`.
    pub value: &'static str,
    /// Plies to the end; `null` for a draw.
    pub depth: Option<u32>,
}

impl ValueJson {
    /// The value of `pos` as `db` holds it: with its depth, or with `depth` null where its
    /// sector is held without a depth file; `None` where it cannot be read (not solved).
    pub fn probe(db: &Database, pos: &Position) -> Option<ValueJson> {
        match db.probe(pos) {
            Ok(v) => Some(ValueJson::from(v)),
            Err(Error::NoDistance { .. }) => db.probe_outcome(pos).ok().map(|o| ValueJson {
                value: o.name(),
                depth: None,
            }),
            Err(_) => None,
        }
    }
}

impl From<Value> for ValueJson {
    fn from(v: Value) -> ValueJson {
        ValueJson {
            value: v.name(),
            depth: v.depth(),
        }
    }
}

/// One sector of `stats --json`, its keys in the documented order.
#[derive(Clone, Debug, Serialize)]
pub struct SectorJson {
    /// `W-B-WF-BF`.
    pub sector: String,
    /// Canonical positions (used slots).
    pub positions: u64,
    /// Canonical wins for the mover.
    pub win: u64,
    /// Canonical losses.
    pub loss: u64,
    /// Canonical draws.
    pub draw: u64,
    /// Every board of the sector, symmetric copies counted.
    pub raw_positions: u64,
    /// Raw wins.
    pub raw_win: u64,
    /// Raw losses.
    pub raw_loss: u64,
    /// Raw draws.
    pub raw_draw: u64,
    /// The largest depth of a win or loss.
    pub max_depth: u32,
    /// The file's whole-file checksum, 16 hex digits.
    pub checksum: String,
}

/// `GET /api/depths`: one sector's depth histogram ([`crate::query::depths`]).
#[derive(Clone, Debug, Serialize)]
pub struct DepthsJson {
    /// The variant's name.
    pub variant: String,
    /// `W-B-WF-BF`.
    pub sector: String,
    /// Canonical positions (used slots): the sum of the counts below, as `stats --json` has it.
    pub positions: u64,
    /// `win[d]`: positions won in `d` plies by the side to move (`d` from 0).
    pub win: Vec<u64>,
    /// `loss[d]`: positions lost in `d` plies.
    pub loss: Vec<u64>,
    /// Drawn positions.
    pub draw: u64,
}

/// `stats --json` (the contract): every solved sector's counts, and the start's value.
#[derive(Clone, Debug, Serialize)]
pub struct StatsJson {
    /// The variant's name.
    pub variant: String,
    /// The start position's value once its sector is solved, else `null` (its `depth` null
    /// where the tables hold no depth file for it).
    pub start: Option<ValueJson>,
    /// The solved sectors, in increasing order.
    pub sectors: Vec<SectorJson>,
}

impl StatsJson {
    /// Reads the header of every sector file of `db` (no payload), and the start's value.
    /// No files give no sectors; the caller says what to do about it.
    ///
    /// # Errors
    /// A sector file that cannot be opened, is damaged or holds other rules.
    pub fn read(db: &Database) -> Result<StatsJson, Error> {
        let mut sectors = Vec::new();
        for s in db.present() {
            let values = db.sector(s)?;
            let checksum = format!("{:016x}", values.database_checksum());
            sectors.push(SectorJson::new(s, values.stats(), checksum));
        }
        let start = ValueJson::probe(db, &Position::start(db.variant()));
        Ok(StatsJson {
            variant: db.variant().name().to_string(),
            start,
            sectors,
        })
    }
}

impl SectorJson {
    /// The row of a sector with its header's counts and checksum.
    pub fn new(sector: Sector, s: SectorStats, checksum: String) -> SectorJson {
        SectorJson {
            sector: sector.to_string(),
            positions: s.positions,
            win: s.win,
            loss: s.loss,
            draw: s.draw,
            raw_positions: s.raw_positions,
            raw_win: s.raw_win,
            raw_loss: s.raw_loss,
            raw_draw: s.raw_draw,
            max_depth: s.max_depth,
            checksum,
        }
    }
}

/// A rule set's values by switch name, as the command line and the API take them.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct RulesJson {
    /// `never`, `three` or `always`.
    pub flying: &'static str,
    /// `standard`, `strict` or `lenient`.
    pub removal: &'static str,
    /// `separate` or `lasker`.
    pub phases: &'static str,
    /// `loss` or `draw`.
    #[serde(rename = "full-board")]
    pub full_board: &'static str,
}

impl RulesJson {
    /// The switches of a variant's rule set.
    pub fn of(variant: &Variant) -> RulesJson {
        let r = variant.rules();
        RulesJson {
            flying: r.flying.name(),
            removal: r.removal.name(),
            phases: r.phases.name(),
            full_board: r.full_board.name(),
        }
    }
}

/// A point of a board: its name and grid coordinate.
#[derive(Clone, Debug, Serialize)]
pub struct PointJson {
    /// E.g. `d7`.
    pub name: String,
    /// File, from 0 (`a`).
    pub file: u8,
    /// Rank, from 0 (rank `1`, the bottom).
    pub rank: u8,
}

/// A board as data, enough to draw it: points, lines, mills and the ranks of the notation.
#[derive(Clone, Debug, Serialize)]
pub struct BoardJson {
    /// Every point, in notation order (top rank first, left to right).
    pub points: Vec<PointJson>,
    /// The straight lines, each its points in order; neighbours on a line are adjacent.
    pub lines: Vec<Vec<String>>,
    /// The mills, each three points.
    pub mills: Vec<Vec<String>>,
    /// The ranks of the position notation, top first, each its points left to right.
    pub ranks: Vec<Vec<String>>,
}

impl BoardJson {
    /// The board of a variant.
    pub fn of(variant: &Variant) -> BoardJson {
        let b = variant.board();
        let names = |pts: &mut dyn Iterator<Item = crate::rules::Point>| {
            pts.map(|p| b.point_name(p).to_string()).collect::<Vec<_>>()
        };
        BoardJson {
            points: b
                .all()
                .iter()
                .map(|p| PointJson {
                    name: b.point_name(p).to_string(),
                    file: b.coord(p).0,
                    rank: b.coord(p).1,
                })
                .collect(),
            lines: b
                .lines()
                .iter()
                .map(|l| names(&mut l.iter().copied()))
                .collect(),
            mills: b.mills().iter().map(|m| names(&mut m.iter())).collect(),
            ranks: b
                .ranks()
                .iter()
                .map(|r| names(&mut r.iter().copied()))
                .collect(),
        }
    }
}

/// What a database folder holds of one rule set (`GET /api/variants`).
#[derive(Clone, Debug, Serialize)]
pub struct RuleSetJson {
    /// The rule-set id, e.g. `pieces-6.flying-never.removal-standard...`.
    pub id: String,
    /// The rule switches.
    pub rules: RulesJson,
    /// Whether these are the variant's default rules.
    pub default: bool,
    /// Sector files present.
    pub sectors_solved: usize,
    /// Sectors reachable from the start (what a whole solve writes).
    pub sectors_total: usize,
    /// The start position's value, or `null` while its sector is not solved.
    pub start: Option<ValueJson>,
}

/// A variant with a board and the rule sets a database folder holds of it.
#[derive(Clone, Debug, Serialize)]
pub struct VariantJson {
    /// E.g. `six`.
    pub name: String,
    /// A one-line description.
    pub summary: String,
    /// Pieces per side.
    pub pieces: u8,
    /// The start position in notation.
    pub start_position: String,
    /// The board.
    pub board: BoardJson,
    /// The rule sets present, default rules first.
    pub rule_sets: Vec<RuleSetJson>,
}

/// `GET /api/variants`: every variant of which the folder holds something, and the rule
/// switches (names, values, help) that select a rule set.
#[derive(Clone, Debug, Serialize)]
pub struct VariantsJson {
    /// The rule switches, in command-line order ([`crate::rules::SWITCHES`]).
    pub switches: &'static [crate::rules::Switch],
    /// The variants, in the order of `morris variants`.
    pub variants: Vec<VariantJson>,
}

/// A move of `GET /api/explore`: the move, its parts, its value and the position it leads to.
#[derive(Clone, Debug, Serialize)]
pub struct ExploreMoveJson {
    /// The move in notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The point left, `null` for a placement.
    pub from: Option<String>,
    /// The point placed on or moved to.
    pub to: String,
    /// The opponent's point a mill empties, if any.
    pub remove: Option<String>,
    /// As in `query --json`; `null` when the sector of its result is not solved.
    pub value: Option<&'static str>,
    /// As in `query --json`; `null` for a draw or an unsolved result.
    pub depth: Option<u32>,
    /// The position after the move, in notation.
    pub position: String,
    /// For a drawing move: the opponent's legal replies after it; `null` otherwise.
    pub replies: Option<u32>,
    /// For a drawing move: how many of those replies lose (a measure of how hard the move makes
    /// the opponent's task, as Malom's ultra-strong advice ranks drawn moves); `null` otherwise
    /// or when a reply's value is not solved.
    pub losing_replies: Option<u32>,
    /// For a drawing move: the chance that an opponent choosing its moves at random loses within
    /// `trap_depth` of them while the drawing side keeps the draw and sets the most traps
    /// ([`crate::query::traps`]), to four decimals; `null` otherwise.
    pub trap_chance: Option<f64>,
    /// How many of the opponent's moves `trap_chance` looks at (2, or 1 where looking deeper
    /// would take too long or reach an unsolved sector); `null` with it.
    pub trap_depth: Option<u32>,
}

/// `GET /api/line`: the explorer's view of each position of a game's line, in one answer.
#[derive(Clone, Debug, Serialize)]
pub struct LineJson {
    /// The variant's name.
    pub variant: String,
    /// The line's positions: its start, then the position after each move played.
    pub positions: Vec<ExploreJson>,
    /// The first move that is not legal where it stands, which ends the line; `null` when every
    /// move was played.
    pub stopped: Option<StoppedJson>,
}

/// Where `GET /api/line` stopped: the move, counted from 1, that is not legal.
#[derive(Clone, Debug, Serialize)]
pub struct StoppedJson {
    /// The move's place in the line, counted from 1.
    pub index: usize,
    /// The move as given.
    #[serde(rename = "move")]
    pub mv: String,
    /// Why, in words.
    pub error: String,
}

/// `GET /api/explore`: what the explorer page shows of a position.
#[derive(Clone, Debug, Serialize)]
pub struct ExploreJson {
    /// The variant's name.
    pub variant: String,
    /// The position in notation.
    pub position: String,
    /// `w` or `b`.
    pub turn: char,
    /// White's pieces on the board.
    pub white_on_board: u32,
    /// Black's pieces on the board.
    pub black_on_board: u32,
    /// White's pieces in hand.
    pub white_hand: u8,
    /// Black's pieces in hand.
    pub black_hand: u8,
    /// As in `query --json`; `null` when the position's sector is not solved.
    pub value: Option<&'static str>,
    /// As in `query --json`.
    pub depth: Option<u32>,
    /// Why some values are missing (the sector that is not solved and the command that solves
    /// it), else `null`.
    pub unsolved: Option<String>,
    /// What solving the sector named in `unsolved` would cost, else `null` (and `null` over
    /// compact tables, which are built from a solved database rather than solved).
    pub solve_cost: Option<SolveCostJson>,
    /// Every legal move, best first; moves without a value last, in notation order.
    pub moves: Vec<ExploreMoveJson>,
}

/// What solving a sector still costs: the work units of its plan that are not all present.
///
/// The time is [`crate::space::CostModel::reference`]'s model: two threads on the 2-core
/// reference machine, the units one after another; the disk is an estimate of one byte per
/// slot, the cell of a sector whose depths stay within 253 plies (deeper ones take two).
#[derive(Clone, Debug, Serialize)]
pub struct SolveCostJson {
    /// The sector, `W-B-WF-BF`.
    pub sector: String,
    /// The `morris solve ... --sector S` that solves it (without `--db`).
    pub command: String,
    /// Work units still to solve: the sector's and those it depends on.
    pub units: usize,
    /// Their index slots.
    pub slots: u64,
    /// The disk they take: one byte per slot.
    pub bytes: u64,
    /// The modelled seconds (two threads on the 2-core reference machine).
    pub seconds: f64,
    /// Where `seconds` is over a minute, the endgames that take at most one, else `null`.
    pub cheaper: Option<CheaperSolveJson>,
}

/// A solve of the endgames up to some pieces a side: a first step that fits a minute.
#[derive(Clone, Debug, Serialize)]
pub struct CheaperSolveJson {
    /// The largest `--max-pieces` whose remaining units take at most a minute.
    pub max_pieces: u8,
    /// The `morris solve ... --max-pieces K` (without `--db`).
    pub command: String,
    /// As in [`SolveCostJson`].
    pub units: usize,
    /// As in [`SolveCostJson`].
    pub slots: u64,
    /// As in [`SolveCostJson`].
    pub bytes: u64,
    /// As in [`SolveCostJson`].
    pub seconds: f64,
}

/// `GET /api/practice`: a random position of a sector, to play from.
#[derive(Clone, Debug, Serialize)]
pub struct PracticeJson {
    /// The variant's name.
    pub variant: String,
    /// The sector asked for, `W-B-WF-BF` (the side to move's counts first).
    pub sector: String,
    /// The position in notation.
    pub position: String,
    /// `win`, `loss` or `draw` for the side to move.
    pub value: &'static str,
    /// Plies to the end under perfect play; `null` for a draw.
    pub depth: Option<u32>,
    /// The slots read until this one: random draws, then in order from a random slot.
    pub tries: u64,
}

/// `GET /api/bestmove`: the move perfect play chooses, and the rule that chose it.
#[derive(Clone, Debug, Serialize)]
pub struct BestMoveJson {
    /// The variant's name.
    pub variant: String,
    /// The position in notation.
    pub position: String,
    /// The chosen move.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its value for the side to move (under perfect play the position's own).
    pub value: &'static str,
    /// Its depth; `null` for a draw.
    pub depth: Option<u32>,
    /// The position after it.
    pub after: String,
    /// `fastest-win`, `draw-most-traps` or `slowest-loss-fewest-winning-replies`;
    /// `sampled` for a weaker level ([`crate::query::Strength`]).
    pub rule: &'static str,
    /// The rule and its numbers, in words.
    pub reason: String,
    /// How many moves keep the position's value (for a weaker level: how many solved moves
    /// have the best value among them).
    pub candidates: usize,
    /// For a draw or a loss: the opponent's replies after the chosen move that keep its value
    /// (draws after a drawing move, wins after a losing move); `null` for a win and for a
    /// weaker level, which does not look at the replies.
    pub good_replies: Option<usize>,
    /// The opponent's legal replies after the chosen move.
    pub replies: usize,
    /// For a draw under perfect play: the chosen move's traps, as `/api/explore`'s
    /// `trap_chance`; `null` otherwise.
    pub trap_chance: Option<f64>,
    /// How many of the opponent's moves `trap_chance` looks at; `null` with it.
    pub trap_depth: Option<u32>,
}

/// `x` to four decimals, as the JSON gives chances.
pub fn rounded(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}
