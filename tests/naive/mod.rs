//! Naive, independent reference move generator for the Morris family of games.
//!
//! Used only by the test suite to cross-check the real engine. Everything here is
//! deliberately simple: the board geometry is written down as lists of straight
//! lines ("a7-d7-g7"), and adjacency and mills are derived from those lines with
//! plain loops. A position is a `Vec<Cell>` indexed by point number.

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
    flying: bool,
    strict: bool,
    pieces: u32,
}

#[allow(dead_code)]
impl NaiveGame {
    /// name: "nine","six","six-diag","five","seven","three","three-diag","twelve".
    /// flying: None = variant default, Some(true) = a side with exactly 3 pieces may fly, Some(false) never.
    /// strict: None/Some(false) = standard removal, Some(true) = strict removal.
    pub fn new(name: &str, flying: Option<bool>, strict: Option<bool>) -> NaiveGame {
        let mut lines: Vec<&str> = Vec::new();
        let (pieces, default_fly) = match name {
            "nine" => {
                lines.extend(NINE_LINES);
                (9, true)
            }
            "twelve" => {
                lines.extend(NINE_LINES);
                lines.extend(TWELVE_EXTRA);
                (12, false)
            }
            "six" | "five" => {
                lines.extend(SIX_SQUARES);
                lines.extend(SIX_CONNECTORS);
                (if name == "six" { 6 } else { 5 }, false)
            }
            "six-diag" => {
                lines.extend(SIX_SQUARES);
                lines.extend(SIX_CONNECTORS);
                lines.extend(SIX_DIAG_EXTRA);
                (6, false)
            }
            "seven" => {
                lines.extend(SIX_SQUARES);
                lines.extend(SEVEN_CONNECTORS);
                (7, false)
            }
            "three" => {
                lines.extend(THREE_LINES);
                (3, false)
            }
            "three-diag" => {
                lines.extend(THREE_LINES);
                lines.extend(THREE_DIAG_EXTRA);
                (3, false)
            }
            _ => panic!("unknown variant {name:?}"),
        };

        // Points = every coordinate mentioned by some line, ordered top rank first,
        // then by file. This order is also the order of the position notation.
        let mut coords: Vec<(u32, u32)> = Vec::new();
        for line in &lines {
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
        for line in &lines {
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
            flying: flying.unwrap_or(default_fly),
            strict: strict.unwrap_or(false),
            pieces,
        }
    }

    /// Start position of the variant: empty board, white to move, full hands.
    pub fn start(&self) -> String {
        let p = Pos {
            cells: vec![Cell::Empty; self.names.len()],
            turn: 0,
            hand: [self.pieces; 2],
        };
        self.format(&p)
    }

    /// All legal moves of the position, sorted byte-wise, no duplicates.
    pub fn moves(&self, position: &str) -> Vec<String> {
        let pos = self.parse(position);
        let mut out: Vec<String> = self
            .legal_moves(&pos)
            .iter()
            .map(|m| self.move_name(m))
            .collect();
        out.sort();
        let before = out.len();
        out.dedup();
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

    /// Generate all legal moves (unsorted).
    fn legal_moves(&self, pos: &Pos) -> Vec<Mv> {
        let me = color_of(pos.turn);
        let opp = color_of(1 - pos.turn);
        let on_board = pos.cells.iter().filter(|&&c| c == me).count() as u32;
        let mut out = Vec::new();
        if on_board + pos.hand[pos.turn] < 3 {
            return out; // finished: too few pieces
        }

        // Step 1: (from, to) pairs without removals.
        let empty: Vec<usize> = (0..pos.cells.len())
            .filter(|&p| pos.cells[p] == Cell::Empty)
            .collect();
        let mut steps: Vec<(Option<usize>, usize)> = Vec::new();
        if pos.hand[pos.turn] > 0 {
            for &to in &empty {
                steps.push((None, to));
            }
        } else {
            let fly = self.flying && on_board == 3;
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
                removable = theirs
                    .iter()
                    .copied()
                    .filter(|&p| !self.in_mill(&cells, p, opp))
                    .collect();
                if removable.is_empty() && !self.strict {
                    removable = theirs; // all in mills: standard rule allows any
                }
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
