//! Symmetry-reduced index: canonical position ↔ rank within its sector.
//!
//! The mover's set is ranked among the symmetry orbits of sets of its size (a table over all
//! 2^n masks gives each mask's orbit rank and the symmetry that maps it to the orbit's smallest
//! mask, its representative); the opponent's set, squeezed onto the points the mover leaves
//! free, is ranked in colex order. When the representative has a non-trivial stabiliser, the
//! smallest opponent rank among its images is canonical and the other slots are unused.

use std::sync::Arc;

use crate::point::PointSet;
use crate::position::Position;
use crate::sector::Sector;
use crate::variant::Variant;

/// A symmetry as four byte-indexed lookup tables, so applying it costs four loads.
#[derive(Clone)]
struct SymTable([[u32; 256]; 4]);

impl SymTable {
    #[inline]
    fn apply(&self, set: u32) -> u32 {
        self.0[0][(set & 0xFF) as usize]
            | self.0[1][((set >> 8) & 0xFF) as usize]
            | self.0[2][((set >> 16) & 0xFF) as usize]
            | self.0[3][(set >> 24) as usize]
    }
}

const UNSET: u32 = u32::MAX;
const SYM_BITS: u32 = 6;

/// Orbits of point sets under a board's symmetry group, shared by every sector of a variant.
pub struct Orbits {
    points: u32,
    syms: Vec<SymTable>,
    /// For each mask: orbit rank (within its size) << SYM_BITS | the symmetry mapping it to the
    /// representative.
    entry: Vec<u32>,
    /// Representatives by size, in increasing order (the rank is the position).
    reps: Vec<Vec<u32>>,
    /// The non-identity symmetries fixing each representative, by size and rank; empty for most.
    stabilisers: Vec<Vec<Vec<u8>>>,
    binom: [[u64; 33]; 33],
}

impl Orbits {
    /// Builds the orbit tables of a variant's board (2^n entries).
    pub fn new(variant: &Variant) -> Orbits {
        let n = variant.board().len() as u32;
        let syms: Vec<SymTable> = variant
            .symmetries()
            .iter()
            .map(|s| {
                let mut t = [[0u32; 256]; 4];
                for (chunk, table) in t.iter_mut().enumerate() {
                    for (byte, out) in table.iter_mut().enumerate() {
                        *out = s
                            .apply(PointSet(
                                (byte as u32) << (8 * chunk) & PointSet::first(n as usize).0,
                            ))
                            .0;
                    }
                }
                SymTable(t)
            })
            .collect();
        assert!(syms.len() < 1 << SYM_BITS);
        let inverse: Vec<u8> = (0..syms.len())
            .map(|i| {
                (0..syms.len())
                    .find(|&j| (0..n).all(|p| syms[j].apply(syms[i].apply(1 << p)) == 1 << p))
                    .expect("a group holds every inverse") as u8
            })
            .collect();
        let mut entry = vec![UNSET; 1usize << n];
        let mut reps = vec![Vec::new(); n as usize + 1];
        let mut stabilisers = vec![Vec::new(); n as usize + 1];
        for mask in 0..(1u32 << n) {
            if entry[mask as usize] != UNSET {
                continue;
            }
            // The first mask of an orbit met in increasing order is its smallest.
            let size = mask.count_ones() as usize;
            let rank = reps[size].len() as u32;
            reps[size].push(mask);
            let mut stab = Vec::new();
            for (j, s) in syms.iter().enumerate() {
                let image = s.apply(mask);
                if image == mask && j != 0 {
                    stab.push(j as u8);
                }
                if entry[image as usize] == UNSET {
                    entry[image as usize] = rank << SYM_BITS | inverse[j] as u32;
                }
            }
            stabilisers[size].push(stab);
        }
        let mut binom = [[0u64; 33]; 33];
        for i in 0..33 {
            binom[i][0] = 1;
            for j in 1..=i {
                binom[i][j] = binom[i - 1][j - 1] + if j < i { binom[i - 1][j] } else { 0 };
            }
        }
        Orbits {
            points: n,
            syms,
            entry,
            reps,
            stabilisers,
            binom,
        }
    }

    /// The number of orbits of sets of `size` points.
    pub fn count(&self, size: usize) -> usize {
        self.reps[size].len()
    }

    /// n choose k.
    #[inline]
    pub fn binomial(&self, n: u32, k: u32) -> u64 {
        if k > n {
            0
        } else {
            self.binom[n as usize][k as usize]
        }
    }

    /// Colex rank of the set bits of `x` among sets of the same size.
    #[inline]
    fn colex_rank(&self, mut x: u32) -> u64 {
        let mut rank = 0;
        let mut i = 1;
        while x != 0 {
            let p = x.trailing_zeros();
            rank += self.binom[p as usize][i];
            i += 1;
            x &= x - 1;
        }
        rank
    }

    /// The set of `k` points with colex rank `rank`.
    #[inline]
    fn colex_unrank(&self, mut rank: u64, k: u32) -> u32 {
        let mut x = 0;
        let mut p = self.points;
        for i in (1..=k as usize).rev() {
            p -= 1;
            while self.binom[p as usize][i] > rank {
                p -= 1;
            }
            rank -= self.binom[p as usize][i];
            x |= 1 << p;
        }
        x
    }
}

/// Gathers the bits of `x` at the set bits of `mask` into the low bits (portable PEXT).
#[inline]
fn pext(x: u32, mut mask: u32) -> u32 {
    let mut out = 0;
    let mut bit = 1;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & low != 0 {
            out |= bit;
        }
        bit <<= 1;
        mask ^= low;
    }
    out
}

/// Scatters the low bits of `x` onto the set bits of `mask` (portable PDEP).
#[inline]
fn pdep(mut x: u32, mut mask: u32) -> u32 {
    let mut out = 0;
    while mask != 0 && x != 0 {
        let low = mask & mask.wrapping_neg();
        if x & 1 != 0 {
            out |= low;
        }
        x >>= 1;
        mask ^= low;
    }
    out
}

/// The index of one sector: canonical positions ↔ slots `0..size()`.
#[derive(Clone)]
pub struct SectorIndex {
    orbits: Arc<Orbits>,
    sector: Sector,
    /// Opponent sets per mover orbit: C(n - W, B).
    stride: u64,
    size: u64,
}

impl SectorIndex {
    /// The index of `sector` over shared orbit tables.
    pub fn new(orbits: Arc<Orbits>, sector: Sector) -> SectorIndex {
        let free = orbits.points - sector.mover as u32;
        let stride = orbits.binomial(free, sector.opponent as u32);
        let size = orbits.count(sector.mover as usize) as u64 * stride;
        SectorIndex {
            orbits,
            sector,
            stride,
            size,
        }
    }

    /// The sector indexed.
    pub fn sector(&self) -> Sector {
        self.sector
    }

    /// The number of slots, used or not.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The slot of `pos` (which must lie in this sector), the same for all its symmetric images.
    #[inline]
    pub fn index(&self, pos: &Position) -> u64 {
        debug_assert_eq!(Sector::of(pos), self.sector);
        let o = &*self.orbits;
        let e = o.entry[pos.mover.0 as usize];
        let rank = (e >> SYM_BITS) as usize;
        let sym = &o.syms[(e & ((1 << SYM_BITS) - 1)) as usize];
        let rep = sym.apply(pos.mover.0);
        let free = !rep & PointSet::first(o.points as usize).0;
        let opp = sym.apply(pos.opponent.0);
        let mut best = o.colex_rank(pext(opp, free));
        for &t in &o.stabilisers[self.sector.mover as usize][rank] {
            best = best.min(o.colex_rank(pext(o.syms[t as usize].apply(opp), free)));
        }
        rank as u64 * self.stride + best
    }

    /// The canonical position in `slot`, or `None` for an unused slot.
    #[inline]
    pub fn position(&self, slot: u64) -> Option<Position> {
        debug_assert!(slot < self.size);
        let o = &*self.orbits;
        let rank = (slot / self.stride) as usize;
        let k = slot % self.stride;
        let rep = o.reps[self.sector.mover as usize][rank];
        let free = !rep & PointSet::first(o.points as usize).0;
        let opp = pdep(o.colex_unrank(k, self.sector.opponent as u32), free);
        for &t in &o.stabilisers[self.sector.mover as usize][rank] {
            if o.colex_rank(pext(o.syms[t as usize].apply(opp), free)) < k {
                return None;
            }
        }
        Some(Position {
            mover: PointSet(rep),
            opponent: PointSet(opp),
            mover_hand: self.sector.mover_hand,
            opponent_hand: self.sector.opponent_hand,
        })
    }

    /// How many distinct boards are symmetric images of `pos` (the group size over the size of
    /// the position's stabiliser).
    pub fn images(&self, pos: &Position) -> u64 {
        let o = &*self.orbits;
        let fixed = o
            .syms
            .iter()
            .filter(|s| {
                s.apply(pos.mover.0) == pos.mover.0 && s.apply(pos.opponent.0) == pos.opponent.0
            })
            .count();
        (o.syms.len() / fixed) as u64
    }

    /// Whether the mover's set of a canonical position has only the trivial stabiliser (so
    /// the position has `group size` images without checking).
    #[inline]
    pub fn free_orbit(&self, slot: u64) -> bool {
        self.orbits.stabilisers[self.sector.mover as usize][(slot / self.stride) as usize]
            .is_empty()
    }

    /// The size of the symmetry group.
    pub fn group_size(&self) -> u64 {
        self.orbits.syms.len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pext_and_pdep_are_inverse() {
        let mask = 0b1011_0110_1001u32;
        for x in 0..64u32 {
            assert_eq!(pext(pdep(x, mask), mask), x);
        }
        assert_eq!(pext(0b1010, 0b1110), 0b101);
    }

    #[test]
    fn colex_round_trips() {
        let v = Variant::by_name("three").unwrap();
        let o = Orbits::new(&v);
        for k in 0..=9u32 {
            for r in 0..o.binomial(9, k) {
                let x = o.colex_unrank(r, k);
                assert_eq!(x.count_ones(), k);
                assert_eq!(o.colex_rank(x), r);
            }
        }
    }

    #[test]
    fn orbit_counts_of_nine() {
        let v = Variant::by_name("nine").unwrap();
        let o = Orbits::new(&v);
        let counts: Vec<usize> = (0..=10).map(|k| o.count(k)).collect();
        assert_eq!(
            counts,
            [1, 4, 30, 158, 757, 2830, 8774, 22188, 46879, 82880, 124124]
        );
    }
}
