//! An independent brute-force solver, used only by the tests to check the real solver.
//!
//! It shares nothing with the solver but the rules engine (forward moves only): no symmetry
//! reduction, no combinatorial ranking, no un-moves. A board is a base-3 number
//! (`t[mover] + 2 * t[opponent]`, with `t[mask]` the mask's bits read in base 3), and every
//! hand pair is a layer, a dense byte array over all base-3 codes of the board.
//!
//! The hands `(m, o)` of the domain alternate (`m == o` or `m == o + 1`), so the layer of a
//! position is `m + o` and its hands follow from that: `m = (h + 1) / 2`, `o = h / 2`.
//! A move of layer `h > 0` (a placement) leads to layer `h - 1`, so those layers are acyclic
//! and each is solved by one forward pass once the layer below it is known. Layer 0 (both
//! hands empty, the moving phase) is cyclic: it is solved by a retrograde analysis whose
//! predecessor lists are built explicitly from forward moves (a CSR of reversed edges), with
//! a counter of unresolved edges per position, processed level by level so that wins come
//! out shortest and losses longest. Whatever is unresolved at the end is a draw.
//!
//! Byte encoding of a value: a depth `d <= 253` (odd: Win, even: Loss), 255 a draw,
//! 254 outside the domain.

use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU8, Ordering::Relaxed};

use morris::movegen::{generate, play};
use morris::{PointSet, Position, Variant};
use rayon::prelude::*;

/// Byte of a position outside the domain.
const OUTSIDE: u8 = 254;
/// Byte of a draw (and, while solving layer 0, of a position not yet resolved).
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
    /// `tern[mask]`: the mask's bits read as base-3 digits.
    tern: Vec<u32>,
    /// One dense array per layer `m + o`, indexed by base-3 code.
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

/// The hands `(mover, opponent)` of layer `h`.
#[inline]
fn hands(h: usize) -> (u8, u8) {
    (h.div_ceil(2) as u8, (h / 2) as u8)
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

#[allow(dead_code)]
impl BruteForce {
    /// Solves every position of the domain.
    pub fn solve(variant: &morris::Variant) -> BruteForce {
        let n = variant.board().len();
        assert!(n <= 20, "brute force: boards of up to 20 points only");
        let size = 3usize.pow(n as u32);
        assert!(size < u32::MAX as usize);
        let mut tern = vec![0u32; 1 << n];
        for mask in 1..(1usize << n) {
            let low = mask.trailing_zeros();
            tern[mask] = tern[mask & (mask - 1)] + 3u32.pow(low);
        }
        let mut bf = BruteForce {
            variant: variant.clone(),
            pieces: variant.pieces() as u32,
            all: variant.board().all().0,
            tern,
            layers: Vec::new(),
            len: 0,
        };
        let verbose = std::env::var_os("BRUTE_VERBOSE").is_some();
        let t = std::time::Instant::now();
        let layer0 = bf.solve_moving(size);
        bf.layers.push(layer0);
        if verbose {
            eprintln!("brute {}: layer 0 at {:.2?}", variant.name(), t.elapsed());
        }
        for h in 1..=2 * bf.pieces as usize {
            let layer = bf.solve_placing(h, size);
            bf.layers.push(layer);
            if verbose {
                eprintln!("brute {}: layer {h} at {:.2?}", variant.name(), t.elapsed());
            }
        }
        bf.len = (0..bf.layers.len())
            .map(|h| {
                bf.layer_movers(h)
                    .par_iter()
                    .map(|&mv| {
                        let mut k = 0u64;
                        bf.for_each_opponent(h, mv, |_| k += 1);
                        k
                    })
                    .sum::<u64>()
            })
            .sum();
        bf
    }

    /// The value of a position; None when outside the domain.
    pub fn value(&self, pos: &morris::Position) -> Option<Outcome> {
        if pos.check(&self.variant).is_err() || pos.mover_pieces() < 3 || pos.opponent_pieces() < 3
        {
            return None;
        }
        let h = (pos.mover_hand + pos.opponent_hand) as usize;
        decode(self.layers[h][self.code(pos.mover.0, pos.opponent.0)])
    }

    /// Calls f for every position of the domain with its value (any order).
    pub fn for_each(&self, mut f: impl FnMut(morris::Position, Outcome)) {
        for h in 0..self.layers.len() {
            let (m, o) = hands(h);
            let layer = &self.layers[h];
            for mv in self.layer_movers(h) {
                self.for_each_opponent(h, mv, |op| {
                    let pos = Position {
                        mover: PointSet(mv),
                        opponent: PointSet(op),
                        mover_hand: m,
                        opponent_hand: o,
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

    #[inline]
    fn code(&self, mover: u32, opponent: u32) -> usize {
        (self.tern[mover as usize] + 2 * self.tern[opponent as usize]) as usize
    }

    /// The mover's boards of layer `h`: at least three and at most `pieces` pieces with the hand.
    fn layer_movers(&self, h: usize) -> Vec<u32> {
        let (m, _) = hands(h);
        let (p, m) = (self.pieces, m as u32);
        (0..=self.all)
            .filter(|&mv| mv & !self.all == 0)
            .filter(|&mv| {
                let a = mv.count_ones() + m;
                (3..=p).contains(&a)
            })
            .collect()
    }

    /// Calls `f` with every opponent board of layer `h` next to the mover's board `mv`.
    #[inline]
    fn for_each_opponent(&self, h: usize, mv: u32, mut f: impl FnMut(u32)) {
        let (_, o) = hands(h);
        let o = o as u32;
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

    /// The byte of a child position read from `layer` (the layer below, or layer 0 itself).
    #[inline]
    fn child_byte(&self, layer: &[u8], child: &Position) -> u8 {
        if child.mover_pieces() < 3 {
            0
        } else {
            layer[self.code(child.mover.0, child.opponent.0)]
        }
    }

    /// A placement layer `h > 0`, by one forward pass over the solved layer `h - 1`.
    fn solve_placing(&self, h: usize, size: usize) -> Vec<u8> {
        let (m, o) = hands(h);
        let below = &self.layers[h - 1];
        let out = atomic_bytes(size, OUTSIDE);
        self.layer_movers(h).par_iter().for_each(|&mv| {
            self.for_each_opponent(h, mv, |op| {
                let pos = Position {
                    mover: PointSet(mv),
                    opponent: PointSet(op),
                    mover_hand: m,
                    opponent_hand: o,
                };
                let moves = generate(&self.variant, &pos);
                let b = combine(
                    moves
                        .iter()
                        .map(|&mvv| self.child_byte(below, &play(&pos, mvv))),
                );
                out[self.code(mv, op)].store(b, Relaxed);
            });
        });
        into_bytes(out)
    }

    /// Layer 0, the moving phase, by retrograde analysis over explicit reverse edges.
    fn solve_moving(&self, size: usize) -> Vec<u8> {
        let t0 = std::time::Instant::now();
        let movers = self.layer_movers(0);
        let pos_of = |mv: u32, op: u32| Position {
            mover: PointSet(mv),
            opponent: PointSet(op),
            mover_hand: 0,
            opponent_hand: 0,
        };
        let values = atomic_bytes(size, OUTSIDE);
        // Unresolved edges per position; `off` first counts in-edges, then holds offsets.
        let counters: Vec<AtomicU16> = (0..size).map(|_| AtomicU16::new(0)).collect();
        let off: Vec<AtomicU32> = (0..=size).map(|_| AtomicU32::new(0)).collect();

        // Pass 1: seeds (blocked: Loss 0; a move leaving the opponent two pieces: Win 1),
        // edge counts, in-degrees.
        movers.par_iter().for_each(|&mv| {
            self.for_each_opponent(0, mv, |op| {
                let pos = pos_of(mv, op);
                let code = self.code(mv, op);
                let moves = generate(&self.variant, &pos);
                if moves.is_empty() {
                    values[code].store(0, Relaxed);
                    return;
                }
                if moves.iter().any(|&m| play(&pos, m).mover_pieces() < 3) {
                    values[code].store(1, Relaxed);
                    return;
                }
                values[code].store(DRAW, Relaxed);
                let k = u16::try_from(moves.len()).expect("brute force: too many moves");
                counters[code].store(k, Relaxed);
                for &m in &moves {
                    let c = play(&pos, m);
                    off[self.code(c.mover.0, c.opponent.0)].fetch_add(1, Relaxed);
                }
            });
        });

        if std::env::var_os("BRUTE_VERBOSE").is_some() {
            eprintln!("brute: pass 1 at {:.2?}", t0.elapsed());
        }
        // Inclusive prefix sums: off[c] = end of c's list.
        let mut total = 0u64;
        for a in off.iter().take(size) {
            total += a.load(Relaxed) as u64;
            assert!(total < u32::MAX as u64, "brute force: too many edges");
            a.store(total as u32, Relaxed);
        }
        off[size].store(total as u32, Relaxed);
        // Pass 2: fill, moving each end back to the start: list of c = off[c]..off[c + 1].
        let edges: Vec<AtomicU32> = (0..total).map(|_| AtomicU32::new(0)).collect();
        movers.par_iter().for_each(|&mv| {
            self.for_each_opponent(0, mv, |op| {
                let code = self.code(mv, op);
                if values[code].load(Relaxed) != DRAW {
                    return;
                }
                let pos = pos_of(mv, op);
                for &m in &generate(&self.variant, &pos) {
                    let c = play(&pos, m);
                    let slot = off[self.code(c.mover.0, c.opponent.0)].fetch_sub(1, Relaxed) - 1;
                    edges[slot as usize].store(code as u32, Relaxed);
                }
            });
        });

        let verbose = std::env::var_os("BRUTE_VERBOSE").is_some();
        if verbose {
            eprintln!("brute: {total} edges, {} positions", movers.len());
        }
        // Level-by-level propagation.
        let collect = |want: u8| -> Vec<u32> {
            (0..size as u32)
                .into_par_iter()
                .filter(|&c| values[c as usize].load(Relaxed) == want)
                .collect()
        };
        if verbose {
            eprintln!("brute: edges filled at {:.2?}", t0.elapsed());
        }
        let mut frontier = collect(0);
        let mut wins1 = collect(1);
        let mut d = 0u32;
        while !frontier.is_empty() || d == 0 {
            let next_byte = encode_depth(d + 1);
            let child_loses = d.is_multiple_of(2);
            let mut next: Vec<u32> = frontier
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
            if d == 0 {
                next.append(&mut wins1);
            }
            frontier = next;
            d += 1;
        }
        drop(edges);
        drop(off);
        drop(counters);
        into_bytes(values)
    }
}
