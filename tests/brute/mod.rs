//! An independent brute-force solver, used only by the tests to check the real solver.
//!
//! It shares nothing with the solver but the rules engine (forward moves only): no symmetry
//! reduction, no combinatorial ranking, no un-moves. A board is a base-3 number
//! (`t[mover] + 2 * t[opponent]`, with `t[mask]` the mask's bits read in base 3), and every
//! hand pair `(m, o)` (mover's hand, opponent's hand) of the domain is a layer, a dense byte
//! array over all base-3 codes of the board.
//!
//! The domain: both sides with at least three pieces (board + hand) and at most their pieces,
//! and hands that alternate (`m == o` or `m == o + 1`) under separate phases, or any hands
//! under lasker phases. The rules the brute force knows itself are the domain and the
//! terminals: a side below three pieces has lost, a full board is a terminal draw under
//! `full_board = draw`, a side without moves has lost. Moves come from the engine's forward
//! generator.
//!
//! Layers form units: a move keeps both hands and passes the turn, so it leads from layer
//! `(m, o)` to layer `(o, m)`; a placement lowers the mover's hand, from `(m, o)` to
//! `(o, m - 1)`. A unit is the pair `{(m, o), (o, m)}` (those of its layers in the domain);
//! placements lead to a unit of a smaller hand sum, so the units are solved by hand sum, the
//! smallest first. A unit where nobody can move (separate phases with a hand: placements
//! only) is solved by one forward pass over the solved units below. Any other unit (the
//! moving phase, and every unit under lasker phases) is cyclic: it is solved by a retrograde
//! analysis whose predecessor lists are built explicitly from forward moves (a CSR of
//! reversed edges inside the unit), with a counter of unresolved children per position, and
//! the children in units below entering as events at the level of their depth (a loss below
//! at depth d: a win at d + 1 unless a shorter one comes first; the wins below: counted off
//! at the level after the deepest); levels are processed in order so that wins come out
//! shortest and losses longest. Whatever is unresolved at the end is a draw.
//!
//! Byte encoding of a value: a depth `d <= 253` (odd: Win, even: Loss), 255 a draw,
//! 254 outside the domain.

use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU8, Ordering::Relaxed};

use morris::rules::{generate, play};
use morris::rules::{FullBoard, Phases};
use morris::{PointSet, Position, Variant};
use rayon::prelude::*;

/// Byte of a position outside the domain.
const OUTSIDE: u8 = 254;
/// Byte of a draw (and, while solving a cyclic unit, of a position not yet resolved).
const DRAW: u8 = 255;
/// The largest depth a byte holds.
const MAX_DEPTH: u32 = 253;

/// The value of a position for the side to move; the number is the plies to the end.
#[allow(dead_code)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(u32),
    Loss(u32),
    Draw,
}

#[allow(dead_code)]
impl Outcome {
    /// Whether this is a draw.
    pub fn is_draw(self) -> bool {
        self == Outcome::Draw
    }
}

/// Counts of a solved domain, for reports.
#[allow(dead_code)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub positions: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub max_win: u32,
    pub max_loss: u32,
}

/// Every position of a variant's domain with its value.
#[allow(dead_code)]
pub struct BruteForce {
    variant: Variant,
    /// Pieces per side.
    pieces: u32,
    /// Every point of the board.
    all: u32,
    /// Lasker phases: any hands, and a side with pieces in hand may move.
    lasker: bool,
    /// A full board is a terminal draw.
    full_draw: bool,
    /// `tern[mask]`: the mask's bits read as base-3 digits.
    tern: Vec<u32>,
    /// `layers[m * (pieces + 1) + o]`: the dense array of hand pair `(m, o)`, indexed by
    /// base-3 code; empty when the pair is outside the domain.
    layers: Vec<Vec<u8>>,
    /// Positions in the domain.
    len: u64,
}

#[inline]
fn decode(b: u8) -> Option<Outcome> {
    match b {
        OUTSIDE => None,
        DRAW => Some(Outcome::Draw),
        d if d % 2 == 1 => Some(Outcome::Win(d as u32)),
        d => Some(Outcome::Loss(d as u32)),
    }
}

#[inline]
fn encode_depth(d: u32) -> u8 {
    assert!(
        d <= MAX_DEPTH,
        "brute force: depth {d} does not fit the byte encoding (max {MAX_DEPTH})"
    );
    d as u8
}

fn atomic_bytes(n: usize, v: u8) -> Vec<AtomicU8> {
    (0..n).map(|_| AtomicU8::new(v)).collect()
}

fn into_bytes(v: Vec<AtomicU8>) -> Vec<u8> {
    v.into_iter().map(AtomicU8::into_inner).collect()
}

/// The value byte of a position from its children's bytes (`children` yields them; a child
/// with fewer than three pieces must be given as 0, a Loss at depth 0).
#[inline]
fn combine(children: impl Iterator<Item = u8>) -> u8 {
    let mut min_loss = u32::MAX;
    let mut max_win: Option<u32> = None;
    let mut draw = false;
    for b in children {
        match b {
            OUTSIDE => panic!("brute force: a child lies outside the domain"),
            DRAW => draw = true,
            d if d.is_multiple_of(2) => min_loss = min_loss.min(d as u32),
            d => max_win = Some(max_win.unwrap_or(0).max(d as u32)),
        }
    }
    if min_loss != u32::MAX {
        encode_depth(min_loss + 1)
    } else if draw {
        DRAW
    } else {
        match max_win {
            Some(w) => encode_depth(w + 1),
            None => 0,
        }
    }
}

/// What pass 1 of a cyclic unit learns about a position, to be applied at a level.
#[derive(Clone, Copy)]
enum Event {
    /// Resolved in pass 1 (no child inside the unit) at this depth.
    Resolved(u32),
    /// A child below the unit is a loss: a win at this depth unless a shorter one comes first.
    Win(u32),
    /// This many children below the unit are wins, the deepest one ply above this level.
    Wins(u32, u16),
}

/// What the children of a position below its unit (solved already) say together.
#[derive(Default)]
struct Below {
    min_loss: Option<u32>,
    max_win: Option<u32>,
    wins: u16,
    draw: bool,
}

impl Below {
    fn add(&mut self, b: u8) {
        match b {
            OUTSIDE => panic!("brute force: a child lies outside the domain"),
            DRAW => self.draw = true,
            d if d.is_multiple_of(2) => {
                self.min_loss = Some(self.min_loss.map_or(d as u32, |l| l.min(d as u32)))
            }
            d => {
                self.max_win = Some(self.max_win.map_or(d as u32, |w| w.max(d as u32)));
                self.wins += 1;
            }
        }
    }

    /// The value when these are all the children.
    fn value(&self) -> u8 {
        match (self.min_loss, self.draw, self.max_win) {
            (Some(l), _, _) => encode_depth(l + 1),
            (None, true, _) => DRAW,
            (None, false, Some(w)) => encode_depth(w + 1),
            (None, false, None) => 0,
        }
    }
}

#[allow(dead_code)]
impl BruteForce {
    /// Solves every position of the domain.
    pub fn solve(variant: &Variant) -> BruteForce {
        let n = variant.board().len();
        assert!(n <= 19, "brute force: boards of up to 19 points only");
        let size = 3usize.pow(n as u32);
        assert!(2 * size < u32::MAX as usize);
        let mut tern = vec![0u32; 1 << n];
        for mask in 1..(1usize << n) {
            let low = mask.trailing_zeros();
            tern[mask] = tern[mask & (mask - 1)] + 3u32.pow(low);
        }
        let pieces = variant.pieces() as u32;
        let rules = variant.rules();
        let mut bf = BruteForce {
            variant: variant.clone(),
            pieces,
            all: variant.board().all().bits(),
            lasker: rules.phases == Phases::Lasker,
            full_draw: rules.full_board == FullBoard::Draw,
            tern,
            layers: vec![Vec::new(); ((pieces + 1) * (pieces + 1)) as usize],
            len: 0,
        };
        let verbose = std::env::var_os("BRUTE_VERBOSE").is_some();
        let t = std::time::Instant::now();
        // The numbering of a cyclic unit's positions (see solve_cyclic), allocated once.
        let mut scratch: Option<Vec<u32>> = None;
        for sum in 0..=2 * pieces {
            for m in sum.div_ceil(2)..=sum.min(pieces) {
                let o = sum - m;
                if o > pieces {
                    continue;
                }
                let mut unit = vec![(m, o)];
                if m != o {
                    unit.push((o, m));
                }
                unit.retain(|&(a, b)| bf.hands_in_domain(a, b));
                if unit.is_empty() {
                    continue;
                }
                let cyclic = unit.iter().any(|&(a, _)| bf.may_move(a));
                let solved = if cyclic {
                    bf.solve_cyclic(&unit, size, &mut scratch)
                } else {
                    unit.iter().map(|&h| bf.solve_forward(h, size)).collect()
                };
                for (&(a, b), layer) in unit.iter().zip(solved) {
                    let i = bf.layer_index(a, b);
                    bf.layers[i] = layer;
                }
                if verbose {
                    eprintln!(
                        "brute {}: unit {unit:?} ({}) at {:.2?}",
                        variant.name(),
                        if cyclic { "cyclic" } else { "forward" },
                        t.elapsed()
                    );
                }
            }
        }
        let mut len = 0u64;
        for (m, o) in bf.domain_hands() {
            len += bf
                .layer_movers(m)
                .par_iter()
                .map(|&mv| {
                    let mut k = 0u64;
                    bf.for_each_opponent(o, mv, |_| k += 1);
                    k
                })
                .sum::<u64>();
        }
        bf.len = len;
        bf
    }

    /// The value of a position; None when outside the domain.
    pub fn value(&self, pos: &Position) -> Option<Outcome> {
        if !self.in_domain(pos) {
            return None;
        }
        let layer = &self.layers[self.layer_index(pos.mover_hand as u32, pos.opponent_hand as u32)];
        decode(layer[self.code(pos.mover.bits(), pos.opponent.bits())])
    }

    /// Calls f for every position of the domain with its value (any order).
    pub fn for_each(&self, mut f: impl FnMut(Position, Outcome)) {
        for (m, o) in self.domain_hands() {
            let layer = &self.layers[self.layer_index(m, o)];
            for mv in self.layer_movers(m) {
                self.for_each_opponent(o, mv, |op| {
                    let pos = Position {
                        mover: PointSet::from_bits(mv),
                        opponent: PointSet::from_bits(op),
                        mover_hand: m as u8,
                        opponent_hand: o as u8,
                    };
                    let v = decode(layer[self.code(mv, op)])
                        .expect("brute force: a domain position is stored as outside");
                    f(pos, v);
                });
            }
        }
    }

    /// Number of positions in the domain.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Counts of wins, losses and draws, and the longest win and loss.
    pub fn stats(&self) -> Stats {
        let mut s = Stats::default();
        self.for_each(|_, v| {
            s.positions += 1;
            match v {
                Outcome::Win(d) => {
                    s.wins += 1;
                    s.max_win = s.max_win.max(d);
                }
                Outcome::Loss(d) => {
                    s.losses += 1;
                    s.max_loss = s.max_loss.max(d);
                }
                Outcome::Draw => s.draws += 1,
            }
        });
        s
    }

    /// Whether `pos` is in the domain: a legal arrangement with three to `pieces` pieces a
    /// side (board + hand) and hands the phases allow.
    pub fn in_domain(&self, pos: &Position) -> bool {
        let (mv, op) = (pos.mover.bits(), pos.opponent.bits());
        let (m, o) = (pos.mover_hand as u32, pos.opponent_hand as u32);
        let p = self.pieces;
        mv & op == 0
            && (mv | op) & !self.all == 0
            && (3..=p).contains(&(mv.count_ones() + m))
            && (3..=p).contains(&(op.count_ones() + o))
            && self.hands_in_domain(m, o)
    }

    /// Whether a full board is a terminal draw here and `pos` has one.
    pub fn is_full_board_draw(&self, pos: &Position) -> bool {
        self.full_draw && (pos.mover.bits() | pos.opponent.bits()) == self.all
    }

    /// Whether the hands `(mover, opponent)` occur in the domain.
    fn hands_in_domain(&self, m: u32, o: u32) -> bool {
        m <= self.pieces && o <= self.pieces && (self.lasker || m == o || m == o + 1)
    }

    /// Whether a mover with `hand` pieces in hand may move a piece on the board.
    fn may_move(&self, hand: u32) -> bool {
        hand == 0 || self.lasker
    }

    /// Every hand pair of the domain.
    fn domain_hands(&self) -> Vec<(u32, u32)> {
        let p = self.pieces;
        (0..=p)
            .flat_map(|m| (0..=p).map(move |o| (m, o)))
            .filter(|&(m, o)| self.hands_in_domain(m, o))
            .collect()
    }

    #[inline]
    fn layer_index(&self, m: u32, o: u32) -> usize {
        (m * (self.pieces + 1) + o) as usize
    }

    #[inline]
    fn code(&self, mover: u32, opponent: u32) -> usize {
        (self.tern[mover as usize] + 2 * self.tern[opponent as usize]) as usize
    }

    /// The mover's boards with hand `m`: at least three and at most `pieces` pieces with it.
    fn layer_movers(&self, m: u32) -> Vec<u32> {
        let p = self.pieces;
        (0..=self.all)
            .filter(|&mv| mv & !self.all == 0)
            .filter(|&mv| (3..=p).contains(&(mv.count_ones() + m)))
            .collect()
    }

    /// Calls `f` with every opponent board with hand `o` next to the mover's board `mv`.
    #[inline]
    fn for_each_opponent(&self, o: u32, mv: u32, mut f: impl FnMut(u32)) {
        let comp = self.all & !mv;
        let mut s = 0u32;
        loop {
            let b = s.count_ones() + o;
            if (3..=self.pieces).contains(&b) {
                f(s);
            }
            s = s.wrapping_sub(comp) & comp;
            if s == 0 {
                break;
            }
        }
    }

    /// The byte of a child from a solved layer (a child below three pieces: a Loss at 0).
    #[inline]
    fn solved_byte(&self, child: &Position) -> u8 {
        if child.mover_pieces() < 3 {
            return 0;
        }
        let layer =
            &self.layers[self.layer_index(child.mover_hand as u32, child.opponent_hand as u32)];
        assert!(
            !layer.is_empty(),
            "brute force: a child's layer {}/{} is not solved yet",
            child.mover_hand,
            child.opponent_hand
        );
        layer[self.code(child.mover.bits(), child.opponent.bits())]
    }

    fn position(mv: u32, op: u32, (m, o): (u32, u32)) -> Position {
        Position {
            mover: PointSet::from_bits(mv),
            opponent: PointSet::from_bits(op),
            mover_hand: m as u8,
            opponent_hand: o as u8,
        }
    }

    /// A layer where nobody moves (placements only), by one forward pass over solved layers.
    fn solve_forward(&self, hands: (u32, u32), size: usize) -> Vec<u8> {
        let out = atomic_bytes(size, OUTSIDE);
        self.layer_movers(hands.0).par_iter().for_each(|&mv| {
            self.for_each_opponent(hands.1, mv, |op| {
                let pos = Self::position(mv, op, hands);
                let b = if self.is_full_board_draw(&pos) {
                    DRAW
                } else {
                    let moves = generate(&self.variant, &pos);
                    combine(moves.iter().map(|&m| self.solved_byte(&play(&pos, m))))
                };
                out[self.code(mv, op)].store(b, Relaxed);
            });
        });
        into_bytes(out)
    }

    /// A cyclic unit (one or two layers), by retrograde analysis over explicit reverse edges.
    ///
    /// Every position of the unit has a number, the index of its value, counter and
    /// predecessor list. Where the unit fills a good part of its layers, the number is
    /// `slot * size + code` (`slot` the layer's place in `unit`), as dense as the layers.
    /// Elsewhere it is the position's place in enumeration order, and `map`, a scratch array
    /// over every `slot * size + code`, takes a position to its number: it is written for
    /// every position of the unit before it is read, so it is never cleared between units.
    fn solve_cyclic(
        &self,
        unit: &[(u32, u32)],
        size: usize,
        map: &mut Option<Vec<u32>>,
    ) -> Vec<Vec<u8>> {
        let verbose = std::env::var_os("BRUTE_VERBOSE").is_some();
        let t0 = std::time::Instant::now();
        // Every position of the unit: (slot, mover board, opponent board).
        let mut list: Vec<(u8, u32, u32)> = Vec::new();
        for (s, &(m, o)) in unit.iter().enumerate() {
            for mv in self.layer_movers(m) {
                self.for_each_opponent(o, mv, |op| list.push((s as u8, mv, op)));
            }
        }
        assert!(list.len() < u32::MAX as usize);
        let dense = list.len() * 8 >= unit.len() * size;
        let map: &[u32] = if dense {
            &[]
        } else {
            let map = map.get_or_insert_with(|| vec![0u32; 2 * size]);
            for (j, &(s, mv, op)) in list.iter().enumerate() {
                map[s as usize * size + self.code(mv, op)] = j as u32;
            }
            map
        };
        // The number of the position at (slot, code).
        let number = |s: usize, code: usize| -> usize {
            if dense {
                s * size + code
            } else {
                map[s * size + code] as usize
            }
        };
        let n = if dense { unit.len() * size } else { list.len() };
        let values = atomic_bytes(n, OUTSIDE);
        // Unresolved children per position; `off` first counts in-edges, then holds offsets.
        let counters: Vec<AtomicU16> = (0..n).map(|_| AtomicU16::new(0)).collect();
        let off: Vec<AtomicU32> = (0..=n).map(|_| AtomicU32::new(0)).collect();
        // The number of a child inside the unit, if it is inside.
        let inside = |c: &Position| -> Option<usize> {
            if c.mover_pieces() < 3 {
                return None; // lost: a Loss at 0, outside the domain
            }
            let hands = (c.mover_hand as u32, c.opponent_hand as u32);
            let s = unit.iter().position(|&h| h == hands)?;
            Some(number(s, self.code(c.mover.bits(), c.opponent.bits())))
        };

        // Pass 1: terminals, values of positions that need no child in the unit (none there, or
        // a child below already lost at 0: a win at 1, the shortest there is), counters,
        // events from the children below the unit, in-degrees.
        let events: Vec<(u32, Event)> = list
            .par_iter()
            .fold(
                || (Vec::new(), Vec::new()),
                |(mut ev, mut kids), &(s, mv, op)| {
                    let i = number(s as usize, self.code(mv, op));
                    let pos = Self::position(mv, op, unit[s as usize]);
                    if self.is_full_board_draw(&pos) {
                        values[i].store(DRAW, Relaxed);
                        return (ev, kids);
                    }
                    let moves = generate(&self.variant, &pos);
                    let mut below = Below::default();
                    kids.clear();
                    for &m in &moves {
                        let c = play(&pos, m);
                        match inside(&c) {
                            Some(ci) => kids.push(ci),
                            None => below.add(self.solved_byte(&c)),
                        }
                    }
                    if kids.is_empty() || below.min_loss == Some(0) {
                        let b = below.value();
                        values[i].store(b, Relaxed);
                        if b != DRAW {
                            ev.push((i as u32, Event::Resolved(b as u32)));
                        }
                        return (ev, kids);
                    }
                    for &ci in &kids {
                        off[ci].fetch_add(1, Relaxed);
                    }
                    values[i].store(DRAW, Relaxed);
                    let k = u16::try_from(moves.len()).expect("brute force: too many moves");
                    counters[i].store(k, Relaxed);
                    if let Some(l) = below.min_loss {
                        ev.push((i as u32, Event::Win(l + 1)));
                    }
                    if let Some(w) = below.max_win {
                        ev.push((i as u32, Event::Wins(w + 1, below.wins)));
                    }
                    (ev, kids)
                },
            )
            .map(|(ev, _)| ev)
            .reduce(Vec::new, |mut a, mut b| {
                a.append(&mut b);
                a
            });
        if verbose {
            eprintln!(
                "brute: {} positions, pass 1 at {:.2?}",
                list.len(),
                t0.elapsed()
            );
        }

        // Inclusive prefix sums: off[c] = end of c's list.
        let mut total = 0u64;
        for a in off.iter().take(n) {
            total += a.load(Relaxed) as u64;
            assert!(total < u32::MAX as u64, "brute force: too many edges");
            a.store(total as u32, Relaxed);
        }
        off[n].store(total as u32, Relaxed);
        // Pass 2: fill, moving each end back to the start: list of c = off[c]..off[c + 1].
        let edges: Vec<AtomicU32> = (0..total).map(|_| AtomicU32::new(0)).collect();
        list.par_iter().for_each(|&(s, mv, op)| {
            let i = number(s as usize, self.code(mv, op));
            if counters[i].load(Relaxed) == 0 {
                return; // resolved in pass 1, or a terminal: no child in the unit
            }
            let pos = Self::position(mv, op, unit[s as usize]);
            for &m in &generate(&self.variant, &pos) {
                if let Some(ci) = inside(&play(&pos, m)) {
                    let slot = off[ci].fetch_sub(1, Relaxed) - 1;
                    edges[slot as usize].store(i as u32, Relaxed);
                }
            }
        });
        if verbose {
            eprintln!(
                "brute: {total} edges, {} events, filled at {:.2?}",
                events.len(),
                t0.elapsed()
            );
        }

        // Events by level.
        let level = |e: Event| match e {
            Event::Resolved(d) | Event::Win(d) | Event::Wins(d, _) => d,
        };
        let last = events.iter().map(|&(_, e)| level(e)).max().unwrap_or(0);
        let mut by_level: Vec<Vec<(u32, Event)>> = vec![Vec::new(); last as usize + 1];
        for (i, e) in events {
            by_level[level(e) as usize].push((i, e));
        }

        // Level-by-level propagation: `frontier` holds the positions resolved at depth d.
        let mut frontier: Vec<u32> = Vec::new();
        let mut d = 0u32;
        while !frontier.is_empty() || d <= last {
            for &(i, e) in by_level.get(d as usize).map_or(&[][..], |v| &v[..]) {
                let iu = i as usize;
                match e {
                    Event::Resolved(_) => frontier.push(i),
                    Event::Win(_) => {
                        if values[iu]
                            .compare_exchange(DRAW, encode_depth(d), Relaxed, Relaxed)
                            .is_ok()
                        {
                            frontier.push(i);
                        }
                    }
                    Event::Wins(_, k) => {
                        if values[iu].load(Relaxed) == DRAW
                            && counters[iu].fetch_sub(k, Relaxed) == k
                        {
                            values[iu].store(encode_depth(d), Relaxed);
                            frontier.push(i);
                        }
                    }
                }
            }
            let next_byte = encode_depth(d + 1);
            let child_loses = d.is_multiple_of(2);
            frontier = frontier
                .par_iter()
                .fold(Vec::new, |mut acc, &c| {
                    let c = c as usize;
                    let (s, e) = (off[c].load(Relaxed), off[c + 1].load(Relaxed));
                    for slot in s..e {
                        let p = edges[slot as usize].load(Relaxed) as usize;
                        if child_loses {
                            if values[p]
                                .compare_exchange(DRAW, next_byte, Relaxed, Relaxed)
                                .is_ok()
                            {
                                acc.push(p as u32);
                            }
                        } else if values[p].load(Relaxed) == DRAW
                            && counters[p].fetch_sub(1, Relaxed) == 1
                        {
                            values[p].store(next_byte, Relaxed);
                            acc.push(p as u32);
                        }
                    }
                    acc
                })
                .reduce(Vec::new, |mut a, mut b| {
                    a.append(&mut b);
                    a
                });
            d += 1;
        }
        if verbose {
            eprintln!("brute: {d} levels at {:.2?}", t0.elapsed());
        }
        // Into one dense layer per slot.
        if dense {
            let mut bytes = into_bytes(values);
            let mut out = Vec::with_capacity(unit.len());
            for s in (0..unit.len()).rev() {
                out.push(bytes.split_off(s * size));
            }
            out.reverse();
            out
        } else {
            let mut out = vec![vec![OUTSIDE; size]; unit.len()];
            for (&(s, mv, op), b) in list.iter().zip(values) {
                out[s as usize][self.code(mv, op)] = b.into_inner();
            }
            out
        }
    }
}
