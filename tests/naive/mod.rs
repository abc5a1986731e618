//! Naive, independent reference move generator for the Morris family of games.
//!
//! Used only by the test suite to cross-check the real engine. Everything here is
//! deliberately simple: the board geometry is written down as lists of straight
//! lines ("a7-d7-g7"), and adjacency and mills are derived from those lines with
//! plain loops. A position is a `Vec<Cell>` indexed by point number. The rules are
//! written from the rules text (design.md and the rules issue), not from the engine:
//!
//! - a side with fewer than three pieces on board + in hand has lost (no moves);
//! - with `full_board = draw`, a position whose every point is occupied is a draw (no moves);
//! - separate phases: a side with pieces in hand places, with an empty hand it moves;
//!   lasker phases: a side with pieces in hand places or moves, with an empty hand it moves;
//! - a move slides to an adjacent empty point, or flies to any empty point when the side
//!   flies (`three`: its pieces on board + in hand number exactly three; `always`);
//! - a placement or move that completes a mill at its destination removes one opponent piece
//!   from the board: `standard` a piece not in a mill (any piece when all are in mills),
//!   `strict` only a piece not in a mill, `lenient` any piece; with nothing removable (or no
//!   opponent piece on the board) the move is made without removal;
//! - a side to move with no legal move loses.

/// Contents of one board point.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Empty,
    White,
    Black,
}

/// Side index: 0 = white, 1 = black.
fn color_of(side: usize) -> Cell {
    if side == 0 {
        Cell::White
    } else {
        Cell::Black
    }
}

/// When a side may fly.
#[allow(dead_code)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fly {
    Never,
    Three,
    Always,
}

/// Which opponent pieces a mill removes.
#[allow(dead_code)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Removal {
    Standard,
    Strict,
    Lenient,
}

/// How placing and moving relate.
#[allow(dead_code)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phases {
    Separate,
    Lasker,
}

/// What a full board means for the side to move.
#[allow(dead_code)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FullBoard {
    Loss,
    Draw,
}

/// The value of a finished position for the side to move.
#[allow(dead_code)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terminal {
    /// Fewer than three pieces, or no legal move (a full board under `full_board = loss`).
    Loss,
    /// A full board under `full_board = draw`.
    Draw,
}

/// Rule values to override in a variant's defaults (`None` keeps the default).
#[allow(dead_code)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub pieces: Option<u32>,
    pub flying: Option<Fly>,
    pub removal: Option<Removal>,
    pub phases: Option<Phases>,
    pub full_board: Option<FullBoard>,
}

#[allow(dead_code)]
impl Options {
    /// Options from the switches' command-line names, e.g. `["always", "lenient", "lasker", "draw"]`
    /// (flying, removal, phases, full board).
    pub fn named(switches: [&str; 4]) -> Options {
        Options::default()
            .with("flying", switches[0])
            .with("removal", switches[1])
            .with("phases", switches[2])
            .with("full-board", switches[3])
    }

    /// The same options with one switch set by its command-line names, e.g.
    /// `with("full-board", "draw")`.
    pub fn with(mut self, switch: &str, value: &str) -> Options {
        fn bad<T>(switch: &str, value: &str) -> T {
            panic!("unknown value {value:?} of {switch:?}")
        }
        match switch {
            "flying" => {
                self.flying = Some(match value {
                    "never" => Fly::Never,
                    "three" => Fly::Three,
                    "always" => Fly::Always,
                    _ => bad(switch, value),
                })
            }
            "removal" => {
                self.removal = Some(match value {
                    "standard" => Removal::Standard,
                    "strict" => Removal::Strict,
                    "lenient" => Removal::Lenient,
                    _ => bad(switch, value),
                })
            }
            "phases" => {
                self.phases = Some(match value {
                    "separate" => Phases::Separate,
                    "lasker" => Phases::Lasker,
                    _ => bad(switch, value),
                })
            }
            "full-board" => {
                self.full_board = Some(match value {
                    "loss" => FullBoard::Loss,
                    "draw" => FullBoard::Draw,
                    _ => bad(switch, value),
                })
            }
            _ => panic!("unknown switch {switch:?}"),
        }
        self
    }

    /// The same options with a piece count.
    pub fn pieces(self, pieces: u32) -> Options {
        Options {
            pieces: Some(pieces),
            ..self
        }
    }
}

/// Internal position: board cells, side to move, pieces in hand per side.
#[derive(Clone, Debug)]
struct Pos {
    cells: Vec<Cell>,
    turn: usize,
    hand: [u32; 2],
}

/// Internal move: optional origin (None = placement), destination, optional removal.
#[derive(Clone, Copy, Debug)]
struct Mv {
    from: Option<usize>,
    to: usize,
    remove: Option<usize>,
}

/// Line lists of the boards, exactly as described in the rules.
const NINE_LINES: &[&str] = &[
    // rows
    "a7-d7-g7", "b6-d6-f6", "c5-d5-e5", "a4-b4-c4", "e4-f4-g4", "c3-d3-e3", "b2-d2-f2", "a1-d1-g1",
    // columns
    "a7-a4-a1", "b6-b4-b2", "c5-c4-c3", "d7-d6-d5", "d3-d2-d1", "e5-e4-e3", "f6-f4-f2", "g7-g4-g1",
];
const TWELVE_EXTRA: &[&str] = &["a7-b6-c5", "g7-f6-e5", "a1-b2-c3", "g1-f2-e3"];
const SIX_SQUARES: &[&str] = &[
    // outer square
    "a5-c5-e5", "e5-e3-e1", "a1-c1-e1", "a5-a3-a1", // inner square
    "b4-c4-d4", "d4-d3-d2", "b2-c2-d2", "b4-b3-b2",
];
const SIX_CONNECTORS: &[&str] = &["c5-c4", "a3-b3", "d3-e3", "c1-c2"];
const SIX_DIAG_EXTRA: &[&str] = &["a5-b4", "e5-d4", "a1-b2", "e1-d2"];
const SEVEN_CONNECTORS: &[&str] = &["c5-c4-c3-c2-c1", "a3-b3-c3-d3-e3"];
const THREE_LINES: &[&str] = &[
    "a3-b3-c3", "a2-b2-c2", "a1-b1-c1", "a3-a2-a1", "b3-b2-b1", "c3-c2-c1",
];
const THREE_DIAG_EXTRA: &[&str] = &["a1-b2-c3", "a3-b2-c1"];

/// The full rule values of a game.
#[derive(Clone, Copy, Debug)]
struct RuleValues {
    pieces: u32,
    flying: Fly,
    removal: Removal,
    phases: Phases,
    full_board: FullBoard,
}

/// The lines of a named board, and the variant's default rules.
fn definition(name: &str) -> (Vec<&'static str>, RuleValues) {
    let mut lines: Vec<&'static str> = Vec::new();
    let rules = |pieces, flying, phases, full_board| RuleValues {
        pieces,
        flying,
        removal: Removal::Standard,
        phases,
        full_board,
    };
    use FullBoard as F;
    use Phases as P;
    let r = match name {
        "nine" => {
            lines.extend(NINE_LINES);
            rules(9, Fly::Three, P::Separate, F::Loss)
        }
        "lasker" => {
            lines.extend(NINE_LINES);
            rules(10, Fly::Three, P::Lasker, F::Loss)
        }
        "twelve" => {
            lines.extend(NINE_LINES);
            lines.extend(TWELVE_EXTRA);
            rules(12, Fly::Never, P::Separate, F::Draw)
        }
        "morabaraba" => {
            lines.extend(NINE_LINES);
            lines.extend(TWELVE_EXTRA);
            rules(12, Fly::Three, P::Separate, F::Draw)
        }
        "six" | "five" => {
            lines.extend(SIX_SQUARES);
            lines.extend(SIX_CONNECTORS);
            let pieces = if name == "six" { 6 } else { 5 };
            rules(pieces, Fly::Never, P::Separate, F::Loss)
        }
        "six-diag" => {
            lines.extend(SIX_SQUARES);
            lines.extend(SIX_CONNECTORS);
            lines.extend(SIX_DIAG_EXTRA);
            rules(6, Fly::Never, P::Separate, F::Loss)
        }
        "seven" => {
            lines.extend(SIX_SQUARES);
            lines.extend(SEVEN_CONNECTORS);
            rules(7, Fly::Never, P::Separate, F::Loss)
        }
        "three" => {
            lines.extend(THREE_LINES);
            rules(3, Fly::Never, P::Separate, F::Loss)
        }
        "three-diag" => {
            lines.extend(THREE_LINES);
            lines.extend(THREE_DIAG_EXTRA);
            rules(3, Fly::Never, P::Separate, F::Loss)
        }
        _ => panic!("unknown variant {name:?}"),
    };
    (lines, r)
}

/// The lines of a named variant's board, as written in the rules ("a7-d7-g7", ...).
#[allow(dead_code)]
pub fn board_lines(name: &str) -> Vec<&'static str> {
    definition(name).0
}

/// Parse a coordinate like "d7" into (file, rank), file 0 = 'a', rank as written.
fn parse_coord(s: &str) -> (u32, u32) {
    let mut chars = s.chars();
    let f = chars.next().expect("empty coordinate");
    assert!(f.is_ascii_lowercase(), "bad file in {s:?}");
    let rank: u32 = chars.as_str().parse().expect("bad rank");
    (f as u32 - 'a' as u32, rank)
}

#[allow(dead_code)]
pub struct NaiveGame {
    /// Point names ("a7"), indexed by point number.
    names: Vec<String>,
    /// Ranks from top to bottom, each listing its point numbers from file a rightwards.
    rows: Vec<Vec<usize>>,
    /// adj[p] = points adjacent to p (consecutive on some line).
    adj: Vec<Vec<usize>>,
    /// All mills (three consecutive points of a line).
    mills: Vec<[usize; 3]>,
    /// mills_at[p] = indices into `mills` of the mills containing p.
    mills_at: Vec<Vec<usize>>,
    rules: RuleValues,
}

#[allow(dead_code)]
impl NaiveGame {
    /// name: "nine", "six", "six-diag", "five", "seven", "three", "three-diag", "twelve",
    /// "lasker", "morabaraba"; `options` overrides the variant's default rules.
    pub fn new(name: &str, options: Options) -> NaiveGame {
        let (lines, defaults) = definition(name);
        NaiveGame::build(&lines, defaults, options)
    }

    /// A variant with the default rules.
    pub fn named(name: &str) -> NaiveGame {
        NaiveGame::new(name, Options::default())
    }

    /// A board given by its lines; rules not in `options` are nine's (flying three, standard
    /// removal, separate phases, full board a loss); `options.pieces` is required.
    pub fn custom(lines: &[&str], options: Options) -> NaiveGame {
        let defaults = RuleValues {
            pieces: options.pieces.expect("a custom game needs a piece count"),
            flying: Fly::Three,
            removal: Removal::Standard,
            phases: Phases::Separate,
            full_board: FullBoard::Loss,
        };
        NaiveGame::build(lines, defaults, options)
    }

    fn build(lines: &[&str], defaults: RuleValues, o: Options) -> NaiveGame {
        let rules = RuleValues {
            pieces: o.pieces.unwrap_or(defaults.pieces),
            flying: o.flying.unwrap_or(defaults.flying),
            removal: o.removal.unwrap_or(defaults.removal),
            phases: o.phases.unwrap_or(defaults.phases),
            full_board: o.full_board.unwrap_or(defaults.full_board),
        };
        // Points = every coordinate mentioned by some line, ordered top rank first,
        // then by file. This order is also the order of the position notation.
        let mut coords: Vec<(u32, u32)> = Vec::new();
        for line in lines {
            for c in line.split('-') {
                let rc = parse_coord(c);
                if !coords.contains(&rc) {
                    coords.push(rc);
                }
            }
        }
        coords.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let names: Vec<String> = coords
            .iter()
            .map(|&(f, r)| format!("{}{}", (b'a' + f as u8) as char, r))
            .collect();
        let index = |c: &str| names.iter().position(|n| n == c).unwrap();

        // Group points into rows (ranks), top to bottom.
        let mut rows: Vec<Vec<usize>> = Vec::new();
        for (i, &(_, r)) in coords.iter().enumerate() {
            if i == 0 || coords[i - 1].1 != r {
                rows.push(Vec::new());
            }
            rows.last_mut().unwrap().push(i);
        }

        // Adjacency and mills from the lines.
        let n = names.len();
        let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut mills: Vec<[usize; 3]> = Vec::new();
        for line in lines {
            let pts: Vec<usize> = line.split('-').map(index).collect();
            for w in pts.windows(2) {
                if !adj[w[0]].contains(&w[1]) {
                    adj[w[0]].push(w[1]);
                    adj[w[1]].push(w[0]);
                }
            }
            for w in pts.windows(3) {
                mills.push([w[0], w[1], w[2]]);
            }
        }
        let mut mills_at: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (m, mill) in mills.iter().enumerate() {
            for &p in mill {
                mills_at[p].push(m);
            }
        }

        NaiveGame {
            names,
            rows,
            adj,
            mills,
            mills_at,
            rules,
        }
    }

    /// Pieces per side.
    pub fn pieces(&self) -> u32 {
        self.rules.pieces
    }

    /// Points on the board.
    pub fn points(&self) -> usize {
        self.names.len()
    }

    /// Start position of the variant: empty board, white to move, full hands.
    pub fn start(&self) -> String {
        let p = Pos {
            cells: vec![Cell::Empty; self.names.len()],
            turn: 0,
            hand: [self.rules.pieces; 2],
        };
        self.format(&p)
    }

    /// All legal moves of the position, sorted byte-wise, no duplicates.
    pub fn moves(&self, position: &str) -> Vec<String> {
        self.successors(position).into_iter().map(|s| s.0).collect()
    }

    /// Every legal move with the position it leads to, sorted by move, no duplicates.
    pub fn successors(&self, position: &str) -> Vec<(String, String)> {
        let pos = self.parse(position);
        let mut out: Vec<(String, String)> = self
            .legal_moves(&pos)
            .iter()
            .map(|m| (self.move_name(m), self.format(&self.apply(&pos, m))))
            .collect();
        out.sort();
        let before = out.len();
        out.dedup_by(|a, b| a.0 == b.0);
        assert_eq!(
            before,
            out.len(),
            "naive generator produced a duplicate move"
        );
        out
    }

    /// The position after playing `mv` (which must be one of moves(position)).
    pub fn play(&self, position: &str, mv: &str) -> String {
        let pos = self.parse(position);
        let m = self
            .legal_moves(&pos)
            .into_iter()
            .find(|m| self.move_name(m) == mv)
            .unwrap_or_else(|| panic!("illegal move {mv:?} in {position:?}"));
        self.format(&self.apply(&pos, &m))
    }

    /// The value of a finished position for the side to move; None while the game goes on.
    pub fn terminal(&self, position: &str) -> Option<Terminal> {
        let pos = self.parse(position);
        if self.too_few(&pos) {
            Some(Terminal::Loss)
        } else if self.full_board_draw(&pos) {
            Some(Terminal::Draw)
        } else if self.legal_moves(&pos).is_empty() {
            Some(Terminal::Loss)
        } else {
            None
        }
    }

    /// Number of move sequences of length `depth` from `position`.
    pub fn perft(&self, position: &str, depth: u32) -> u64 {
        let pos = self.parse(position);
        self.perft_rec(&pos, depth)
    }

    fn perft_rec(&self, pos: &Pos, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves(pos);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| self.perft_rec(&self.apply(pos, m), depth - 1))
            .sum()
    }

    // ---------------------------------------------------------------- rules

    /// Is point p part of a mill fully occupied by `color`?
    fn in_mill(&self, cells: &[Cell], p: usize, color: Cell) -> bool {
        self.mills_at[p]
            .iter()
            .any(|&m| self.mills[m].iter().all(|&q| cells[q] == color))
    }

    /// The mover's pieces on the board plus in hand.
    fn total(&self, pos: &Pos, side: usize) -> u32 {
        let color = color_of(side);
        pos.cells.iter().filter(|&&c| c == color).count() as u32 + pos.hand[side]
    }

    fn too_few(&self, pos: &Pos) -> bool {
        self.total(pos, pos.turn) < 3
    }

    fn full_board_draw(&self, pos: &Pos) -> bool {
        self.rules.full_board == FullBoard::Draw && pos.cells.iter().all(|&c| c != Cell::Empty)
    }

    /// Generate all legal moves (unsorted).
    fn legal_moves(&self, pos: &Pos) -> Vec<Mv> {
        let me = color_of(pos.turn);
        let opp = color_of(1 - pos.turn);
        let mut out = Vec::new();
        if self.too_few(pos) || self.full_board_draw(pos) {
            return out; // finished: too few pieces, or a drawn full board
        }
        let hand = pos.hand[pos.turn];

        // Step 1: (from, to) pairs without removals.
        let empty: Vec<usize> = (0..pos.cells.len())
            .filter(|&p| pos.cells[p] == Cell::Empty)
            .collect();
        let mut steps: Vec<(Option<usize>, usize)> = Vec::new();
        let may_place = hand > 0;
        let may_move = hand == 0 || self.rules.phases == Phases::Lasker;
        if may_place {
            for &to in &empty {
                steps.push((None, to));
            }
        }
        if may_move {
            let fly = match self.rules.flying {
                Fly::Never => false,
                Fly::Three => self.total(pos, pos.turn) == 3,
                Fly::Always => true,
            };
            for from in 0..pos.cells.len() {
                if pos.cells[from] != me {
                    continue;
                }
                let targets: &[usize] = if fly { &empty } else { &self.adj[from] };
                for &to in targets {
                    if pos.cells[to] == Cell::Empty {
                        steps.push((Some(from), to));
                    }
                }
            }
        }

        // Step 2: if the step closes a mill at `to`, expand into removals.
        for (from, to) in steps {
            let mut cells = pos.cells.clone();
            if let Some(f) = from {
                cells[f] = Cell::Empty;
            }
            cells[to] = me;
            let mut removable: Vec<usize> = Vec::new();
            if self.in_mill(&cells, to, me) {
                let theirs: Vec<usize> = (0..cells.len()).filter(|&p| cells[p] == opp).collect();
                let free: Vec<usize> = theirs
                    .iter()
                    .copied()
                    .filter(|&p| !self.in_mill(&cells, p, opp))
                    .collect();
                removable = match self.rules.removal {
                    Removal::Strict => free,
                    Removal::Standard if free.is_empty() => theirs,
                    Removal::Standard => free,
                    Removal::Lenient => theirs,
                };
            }
            if removable.is_empty() {
                out.push(Mv {
                    from,
                    to,
                    remove: None,
                });
            } else {
                for r in removable {
                    out.push(Mv {
                        from,
                        to,
                        remove: Some(r),
                    });
                }
            }
        }
        out
    }

    /// Position after a (legal) move.
    fn apply(&self, pos: &Pos, m: &Mv) -> Pos {
        let mut next = pos.clone();
        let me = color_of(pos.turn);
        match m.from {
            Some(f) => next.cells[f] = Cell::Empty,
            None => next.hand[pos.turn] -= 1,
        }
        next.cells[m.to] = me;
        if let Some(r) = m.remove {
            next.cells[r] = Cell::Empty;
        }
        next.turn = 1 - pos.turn;
        next
    }

    // ------------------------------------------------------------- notation

    fn move_name(&self, m: &Mv) -> String {
        let mut s = String::new();
        if let Some(f) = m.from {
            s.push_str(&self.names[f]);
            s.push('-');
        }
        s.push_str(&self.names[m.to]);
        if let Some(r) = m.remove {
            s.push('x');
            s.push_str(&self.names[r]);
        }
        s
    }

    fn parse(&self, position: &str) -> Pos {
        let fields: Vec<&str> = position.split(' ').collect();
        assert_eq!(fields.len(), 4, "position needs 4 fields: {position:?}");
        let ranks: Vec<&str> = fields[0].split('/').collect();
        assert_eq!(
            ranks.len(),
            self.rows.len(),
            "wrong number of ranks: {position:?}"
        );
        let mut cells = vec![Cell::Empty; self.names.len()];
        for (row, text) in self.rows.iter().zip(&ranks) {
            let chars: Vec<char> = text.chars().collect();
            assert_eq!(
                chars.len(),
                row.len(),
                "wrong rank length {text:?} in {position:?}"
            );
            for (&p, &ch) in row.iter().zip(&chars) {
                cells[p] = match ch {
                    'W' => Cell::White,
                    'B' => Cell::Black,
                    '.' => Cell::Empty,
                    _ => panic!("bad cell {ch:?} in {position:?}"),
                };
            }
        }
        let turn = match fields[1] {
            "w" => 0,
            "b" => 1,
            t => panic!("bad turn {t:?}"),
        };
        let hand = [
            fields[2].parse().expect("bad white hand"),
            fields[3].parse().expect("bad black hand"),
        ];
        Pos { cells, turn, hand }
    }

    fn format(&self, pos: &Pos) -> String {
        let rows: Vec<String> = self
            .rows
            .iter()
            .map(|row| {
                row.iter()
                    .map(|&p| match pos.cells[p] {
                        Cell::White => 'W',
                        Cell::Black => 'B',
                        Cell::Empty => '.',
                    })
                    .collect()
            })
            .collect();
        let turn = if pos.turn == 0 { "w" } else { "b" };
        format!(
            "{} {} {} {}",
            rows.join("/"),
            turn,
            pos.hand[0],
            pos.hand[1]
        )
    }
}
