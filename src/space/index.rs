//! Symmetry-reduced index: canonical position ↔ rank within its sector.
//!
//! The mover's set is ranked among the symmetry orbits of sets of its size (a table over all
//! 2^n masks gives each mask's orbit rank and the symmetry that maps it to the orbit's smallest
//! mask, its representative); the opponent's set, squeezed onto the points the mover leaves
//! free, is ranked in colex order. When the representative has a non-trivial stabiliser, the
//! smallest opponent rank among its images is canonical and the other slots are unused.

use std::sync::{Arc, OnceLock};

use super::sector::Sector;
use crate::kernel::pext;
use crate::rules::Position;
use crate::rules::Variant;
use crate::rules::{Point, PointSet};

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
/// Entry layout: orbit rank << RANK_SHIFT | STABILISED flag | symmetry id.
const SYM_MASK: u32 = 0x3F;
const STABILISED: u32 = 0x40;
const RANK_SHIFT: u32 = 7;

/// What the orbit table says of one mover set: its orbit's rank, the symmetry that maps it to
/// the orbit's representative, and whether the representative has a non-trivial stabiliser.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry(u32);

impl Entry {
    /// The rank of the set's orbit: its row in a sector whose mover set it is.
    #[inline]
    pub(crate) fn rank(self) -> usize {
        (self.0 >> RANK_SHIFT) as usize
    }

    #[inline]
    fn sym(self) -> usize {
        (self.0 & SYM_MASK) as usize
    }

    /// Whether the representative has a non-trivial stabiliser: only then can two different
    /// positions with this mover set be symmetric to each other.
    #[inline]
    pub(crate) fn stabilised(self) -> bool {
        self.0 & STABILISED != 0
    }
}

/// Orbits of point sets under a board's symmetry group, shared by every sector of a variant.
pub struct Orbits {
    points: u32,
    syms: Vec<SymTable>,
    /// For each symmetry, the index of its inverse.
    inverse: Vec<u8>,
    /// The tables of each set size, built on first use: a run over few pieces never pays for
    /// (or holds) the tables of many.
    sizes: Vec<OnceLock<SizeTable>>,
    binom: [[u64; 33]; 33],
    /// Colex ranks by table, for boards of at most 24 points.
    table: Option<ColexTable>,
}

/// Colex ranks of sets of up to 24 points in two table loads: the terms of the low 12
/// points, which depend on those points alone, and the terms of the high 12, which depend on
/// them and on how many low points come before them (the rank of a point's index among the
/// set's points). 229 KB, which stays in the cache.
struct ColexTable {
    low: Box<[u32]>,
    high: Box<[u32]>,
}

impl ColexTable {
    const BITS: u32 = 12;
    const SIZE: usize = 1 << Self::BITS;

    fn new(binom: &[[u64; 33]; 33]) -> ColexTable {
        let terms = |x: u32, shift: usize, before: usize| -> u32 {
            colex_terms(binom, x, before + 1, |p| p as usize + shift) as u32
        };
        let low = (0..Self::SIZE as u32).map(|x| terms(x, 0, 0)).collect();
        let high = (0..=Self::BITS as usize)
            .flat_map(|before| {
                (0..Self::SIZE as u32).map(move |x| terms(x, Self::BITS as usize, before))
            })
            .collect();
        ColexTable { low, high }
    }

    /// The colex rank of `x` (below 2^24) among the sets of its size.
    #[inline]
    fn rank(&self, x: u32) -> u64 {
        debug_assert!(x >> (2 * Self::BITS) == 0);
        let low = x & (Self::SIZE as u32 - 1);
        let before = low.count_ones() as usize;
        (self.low[low as usize] + self.high[before * Self::SIZE + (x >> Self::BITS) as usize])
            as u64
    }
}

/// The orbits of the sets of one size.
struct SizeTable {
    /// For each set, by its colex rank: orbit rank, stabiliser flag and the symmetry mapping
    /// it to the representative.
    entry: Vec<u32>,
    /// Representatives in increasing order (the rank is the position).
    reps: Vec<u32>,
    /// The non-identity symmetries fixing each representative; empty for most.
    stabilisers: Vec<Vec<u8>>,
}

impl std::fmt::Debug for Orbits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Orbits")
            .field("points", &self.points)
            .field("symmetries", &self.syms.len())
            .finish_non_exhaustive()
    }
}

impl Orbits {
    /// Prepares the orbit tables of a variant's board; each set size's table is built on
    /// first use.
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
                            .apply(PointSet::from_bits(
                                (byte as u32) << (8 * chunk) & PointSet::first(n as usize).bits(),
                            ))
                            .bits();
                    }
                }
                SymTable(t)
            })
            .collect();
        assert!(syms.len() <= SYM_MASK as usize + 1);
        let inverse: Vec<u8> = (0..syms.len())
            .map(|i| {
                (0..syms.len())
                    .find(|&j| (0..n).all(|p| syms[j].apply(syms[i].apply(1 << p)) == 1 << p))
                    .expect("a group holds every inverse") as u8
            })
            .collect();
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
            inverse,
            sizes: (0..=n).map(|_| OnceLock::new()).collect(),
            table: (n <= 2 * ColexTable::BITS).then(|| ColexTable::new(&binom)),
            binom,
        }
    }

    /// The table of sets of `size` points, built on first use.
    #[inline]
    fn size(&self, size: usize) -> &SizeTable {
        self.sizes[size].get_or_init(|| self.build(size))
    }

    fn build(&self, size: usize) -> SizeTable {
        let n = self.points as usize;
        // Stored densely by colex rank; the sets in increasing order are in colex order, so
        // the running count is each set's slot and the first set met of an orbit its smallest.
        let mut entry = vec![UNSET; self.binom[n][size] as usize];
        let mut reps = Vec::new();
        let mut stabilisers = Vec::new();
        let mut mask = PointSet::first(size).bits();
        for counter in 0..entry.len() {
            if entry[counter] == UNSET {
                let rank = reps.len() as u32;
                reps.push(mask);
                let stab: Vec<u8> = (1..self.syms.len())
                    .filter(|&j| self.syms[j].apply(mask) == mask)
                    .map(|j| j as u8)
                    .collect();
                let flag = if stab.is_empty() { 0 } else { STABILISED };
                for (j, s) in self.syms.iter().enumerate() {
                    let image = colex(&self.binom, s.apply(mask)) as usize;
                    if entry[image] == UNSET {
                        entry[image] = rank << RANK_SHIFT | flag | self.inverse[j] as u32;
                    }
                }
                stabilisers.push(stab);
            }
            mask = next_combination(mask);
        }
        SizeTable {
            entry,
            reps,
            stabilisers,
        }
    }

    /// The table entry of a mover set.
    #[inline]
    pub(crate) fn entry(&self, mover: PointSet) -> Entry {
        Entry(self.size(mover.len() as usize).entry[self.colex(mover.bits()) as usize])
    }

    /// The number of orbits of sets of `size` points.
    pub fn count(&self, size: usize) -> usize {
        self.size(size).reps.len()
    }

    /// The representative of orbit `rank` among the sets of `size` points, and whether it
    /// has a non-trivial stabiliser.
    pub(crate) fn representative(&self, size: usize, rank: usize) -> (PointSet, bool) {
        let table = self.size(size);
        (
            PointSet::from_bits(table.reps[rank]),
            !table.stabilisers[rank].is_empty(),
        )
    }

    /// A ranker of the sets `x | 1 << q` (see [`OneMore::set`]).
    pub(crate) fn one_more(&self) -> OneMore<'_> {
        OneMore {
            binom: &self.binom,
            x: 0,
            base: [0; 33],
        }
    }

    /// The colex rank of a set among the sets of its size (of a squeezed set too: places
    /// rank as points do).
    #[inline]
    pub(crate) fn colex(&self, x: u32) -> u64 {
        match &self.table {
            Some(t) => t.rank(x),
            None => colex(&self.binom, x),
        }
    }

    /// n choose k.
    #[inline]
    pub(crate) fn binomial(&self, n: u32, k: u32) -> u64 {
        if k > n {
            0
        } else {
            self.binom[n as usize][k as usize]
        }
    }

    /// The colex rank of a set of places (a squeezed set) among the sets of its size.
    #[inline]
    fn colex_of_places(&self, x: u32) -> u64 {
        match &self.table {
            Some(t) => t.rank(x),
            None => colex(&self.binom, x),
        }
    }

    /// Colex rank of `x` squeezed onto the set bits of `free` (the rank of `pext(x, free)`),
    /// without squeezing: each point's place among the free points is a population count.
    #[inline]
    fn squeezed_rank(&self, x: u32, free: u32) -> u64 {
        if let Some(t) = &self.table {
            return t.rank(pext(x, free));
        }
        // A point's place among the free points: how many free points lie below it.
        colex_terms(&self.binom, x, 1, |p| {
            (free & ((1u32 << p) - 1)).count_ones() as usize
        })
    }

    /// The set of `k` of the points of `free` whose squeezed colex rank is `rank` (the
    /// inverse of [`Orbits::squeezed_rank`]): the free points are walked from the top, each
    /// one's place among them a population count.
    #[inline]
    fn squeezed_unrank(&self, mut rank: u64, k: u32, free: u32) -> u32 {
        let mut x = 0;
        let mut rest = free;
        for i in (1..=k as usize).rev() {
            loop {
                let top = 1u32 << (31 - rest.leading_zeros());
                rest ^= top;
                let c = self.binom[rest.count_ones() as usize][i];
                if c <= rank {
                    rank -= c;
                    x |= top;
                    break;
                }
            }
        }
        x
    }
}

/// The colex ranks of a squeezed set with one more place (see [`OneMore::set`]).
#[derive(Debug)]
pub(crate) struct OneMore<'a> {
    binom: &'a [[u64; 33]; 33],
    x: u32,
    base: [u64; 33],
}

impl OneMore<'_> {
    /// Prepares the ranks of `x | 1 << q`, for the places `q` outside `x`.
    #[inline]
    pub(crate) fn set(&mut self, x: u32) {
        // base[j] is the rank without the added place's own term, when j points of x lie
        // below it: those keep their index i, the ones above move to i + 1.
        let binom = self.binom;
        self.base[0] = colex_terms(binom, x, 2, |p| p as usize);
        let mut y = x;
        let mut j = 1;
        while y != 0 {
            let e = y.trailing_zeros() as usize;
            self.base[j] = self.base[j - 1] + binom[e][j] - binom[e][j + 1];
            j += 1;
            y &= y - 1;
        }
        self.x = x;
    }

    /// The colex rank of `x | 1 << q`; `q` must be a place outside `x`.
    #[inline]
    pub(crate) fn rank(&self, q: u32) -> u64 {
        debug_assert_eq!(self.x & 1 << q, 0);
        let j = (self.x & ((1u32 << q) - 1)).count_ones() as usize;
        self.base[j] + self.binom[q as usize][j + 1]
    }
}

/// One row of a sector, for ranking the opponent sets of positions with one mover set: the
/// mover set's symmetry maps each opponent set into the row ([`RowRank::map`], which is
/// additive, so the image of a set plus a point is the union of their images), and
/// [`RowRank::slot`] ranks the image.
pub(crate) struct RowRank<'a> {
    orbits: &'a Orbits,
    sym: &'a SymTable,
    /// Each free point's place among the free points (a population count, tabled once).
    place: [u8; 32],
    /// The free points: those the representative of the mover set leaves.
    free: u32,
    stabiliser: &'a [u8],
    base: u64,
}

impl std::fmt::Debug for RowRank<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RowRank")
            .field("base", &self.base)
            .field("stabiliser", &self.stabiliser)
            .finish_non_exhaustive()
    }
}

impl RowRank<'_> {
    /// The first slot of the row.
    pub(crate) fn base(&self) -> u64 {
        self.base
    }

    /// Whether the mover set's representative has a non-trivial stabiliser: then a slot is
    /// the least rank among images ([`RowRank::slot`]), and plain colex ranks of places are
    /// not slots.
    pub(crate) fn stabilised(&self) -> bool {
        !self.stabiliser.is_empty()
    }

    /// Where each point of the board lands in the row: the place of its image among the
    /// free points (meaningless for the mover set's own points).
    pub(crate) fn places_of_points(&self) -> [u8; 32] {
        self.places_after(None)
    }

    /// [`RowRank::places_of_points`] with symmetry `then` (one fixing the representative)
    /// applied after the row's own.
    fn places_after(&self, then: Option<u8>) -> [u8; 32] {
        let mut out = [0u8; 32];
        for (p, place) in out.iter_mut().enumerate() {
            let mut image = self.sym.apply(1 << p);
            if let Some(t) = then {
                image = self.orbits.syms[t as usize].apply(image);
            }
            if image != 0 {
                *place = self.place[image.trailing_zeros() as usize];
            }
        }
        out
    }

    /// The image of a set under the symmetry that maps the mover set to its representative.
    #[inline]
    pub(crate) fn map(&self, set: PointSet) -> u32 {
        self.sym.apply(set.bits())
    }

    /// The slot of the position whose opponent set has the image `mapped`.
    #[inline]
    pub(crate) fn slot(&self, mapped: u32) -> u64 {
        let o = self.orbits;
        let mut best = self.rank(mapped);
        for &t in self.stabiliser {
            best = best.min(self.rank(o.syms[t as usize].apply(mapped)));
        }
        self.base + best
    }

    /// The squeezed colex rank of a set of free points.
    #[inline]
    fn rank(&self, x: u32) -> u64 {
        if let Some(t) = &self.orbits.table {
            return t.rank(pext(x, self.free));
        }
        colex_terms(&self.orbits.binom, x, 1, |p| {
            self.place[p as usize] as usize
        })
    }
}

/// One row of a sector, for ranking many opponent sets without a symmetry per set: each
/// point's place among the free points once the mover set's symmetry has moved it, so that an
/// opponent set's places are one load per point, and its slot their colex rank
/// ([`SectorIndex::slot_in_row`]); where the representative has a non-trivial stabiliser, the
/// same places under each of its other symmetries, the slot the least of the ranks
/// ([`SectorIndex::slot_of_set`]).
#[derive(Clone, Debug)]
pub(crate) struct RowPlaces {
    base: u64,
    places: [u8; 32],
    /// The places under each non-identity symmetry fixing the representative.
    images: Vec<[u8; 32]>,
}

impl RowPlaces {
    /// The places in the row of the points of `set`, as bits (`set` must avoid the row's
    /// mover set).
    #[inline]
    pub(crate) fn places_of(&self, set: PointSet) -> u32 {
        set.iter().fold(0, |x, p| x | self.place_of(p))
    }

    /// Whether the representative has a non-trivial stabiliser (then only
    /// [`SectorIndex::slot_of_set`] gives slots).
    #[inline]
    pub(crate) fn symmetric(&self) -> bool {
        !self.images.is_empty()
    }

    /// The place in the row of one point, as a bit.
    #[inline]
    pub(crate) fn place_of(&self, p: Point) -> u32 {
        1 << self.places[p.index()]
    }

    /// The place in the row of one point, as a number (for [`OneMore::rank`]).
    #[inline]
    pub(crate) fn place(&self, p: Point) -> u32 {
        self.places[p.index()] as u32
    }

    /// The row's first slot.
    #[inline]
    pub(crate) fn base(&self) -> u64 {
        self.base
    }

    /// How many other symmetries fix the row's set (0 where [`RowPlaces::symmetric`] is false).
    #[inline]
    pub(crate) fn image_count(&self) -> usize {
        self.images.len()
    }

    /// [`RowPlaces::places_of`] under the row's `i`-th other symmetry.
    #[inline]
    pub(crate) fn image_places_of(&self, i: usize, set: PointSet) -> u32 {
        let places = &self.images[i];
        set.iter().fold(0, |x, p| x | 1 << places[p.index()])
    }

    /// [`RowPlaces::place`] under the row's `i`-th other symmetry.
    #[inline]
    pub(crate) fn image_place(&self, i: usize, p: Point) -> u32 {
        self.images[i][p.index()] as u32
    }
}

/// The next larger number with as many set bits (Gosper's hack, without division).
#[inline]
pub(crate) fn next_combination(x: u32) -> u32 {
    if x == 0 {
        return 0;
    }
    let t = x | (x - 1);
    let u = t.wrapping_add(1);
    u | ((!t & u).wrapping_sub(1) >> (x.trailing_zeros() + 1))
}

/// The points of a squeezed set: place `i` stands for the point `point_of_place[i]`.
#[inline]
pub(crate) fn spread(x: u32, point_of_place: &[u8; 32]) -> PointSet {
    let mut set = 0u32;
    let mut y = x;
    while y != 0 {
        set |= 1 << point_of_place[y.trailing_zeros() as usize];
        y &= y - 1;
    }
    PointSet::from_bits(set)
}

/// The colex rank of a set among the sets of its size.
#[inline]
fn colex(binom: &[[u64; 33]; 33], x: u32) -> u64 {
    colex_terms(binom, x, 1, |p| p as usize)
}

/// The sum of the colex rank's terms: `binom[place(p)][first + k]` over the points `p` of `x`
/// in increasing order, `k` counting from 0. Every colex rank of the index is this loop with
/// its own idea of a point's place (its number, its place among the free points, shifted).
#[inline(always)]
fn colex_terms(
    binom: &[[u64; 33]; 33],
    mut x: u32,
    first: usize,
    place: impl Fn(u32) -> usize,
) -> u64 {
    let mut rank = 0;
    let mut i = first;
    while x != 0 {
        rank += binom[place(x.trailing_zeros())][i];
        i += 1;
        x &= x - 1;
    }
    rank
}

/// The index of one sector: canonical positions ↔ slots `0..size()`.
#[derive(Clone, Debug)]
pub struct SectorIndex {
    orbits: Arc<Orbits>,
    sector: Sector,
    /// Opponent sets per mover orbit: C(n - W, B).
    stride: u64,
    size: u64,
}

/// The slot of `pos` in its own sector: what [`SectorIndex::index`] answers, from borrowed
/// orbit tables without making an index (readers probing from many threads at once would
/// otherwise all count references to the one table).
#[inline]
pub(crate) fn slot_of(orbits: &Orbits, pos: &Position) -> u64 {
    let free = orbits.points - pos.mover.len();
    let stride = orbits.binomial(free, pos.opponent.len());
    rank(orbits, stride, pos, orbits.entry(pos.mover))
}

/// The slot of `pos` whose mover set has the table entry `e`, `stride` slots a row.
#[inline]
fn rank(o: &Orbits, stride: u64, pos: &Position, e: Entry) -> u64 {
    let sym = &o.syms[e.sym()];
    let rep = sym.apply(pos.mover.bits());
    let free = !rep & PointSet::first(o.points as usize).bits();
    let opp = sym.apply(pos.opponent.bits());
    let mut best = o.squeezed_rank(opp, free);
    if e.stabilised() {
        for &t in &o.size(pos.mover.len() as usize).stabilisers[e.rank()] {
            best = best.min(o.squeezed_rank(o.syms[t as usize].apply(opp), free));
        }
    }
    e.rank() as u64 * stride + best
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
        self.index_with(pos, self.orbits.entry(pos.mover))
    }

    /// [`SectorIndex::index`] with the mover's table entry already loaded.
    #[inline]
    pub(crate) fn index_with(&self, pos: &Position, e: Entry) -> u64 {
        debug_assert_eq!(Sector::of(pos), self.sector);
        debug_assert_eq!(e, self.orbits.entry(pos.mover));
        rank(&self.orbits, self.stride, pos, e)
    }

    /// The slots of one row: the opponent sets of one mover orbit.
    pub fn stride(&self) -> u64 {
        self.stride
    }

    /// The row of the positions whose mover set is `mover`, for ranking many opponent sets
    /// with that mover set (see [`RowRank`]).
    #[inline]
    pub(crate) fn row_of(&self, mover: PointSet) -> RowRank<'_> {
        debug_assert_eq!(mover.len(), self.sector.mover as u32);
        let o = &*self.orbits;
        let e = o.entry(mover);
        let sym = &o.syms[e.sym()];
        let free = !sym.apply(mover.bits()) & PointSet::first(o.points as usize).bits();
        let mut place = [0u8; 32];
        for (i, p) in PointSet::from_bits(free).iter().enumerate() {
            place[p.index()] = i as u8;
        }
        RowRank {
            orbits: o,
            sym,
            place,
            free,
            stabiliser: if e.stabilised() {
                &o.size(self.sector.mover as usize).stabilisers[e.rank()]
            } else {
                &[]
            },
            base: e.rank() as u64 * self.stride,
        }
    }

    /// The row of `mover` as [`RowPlaces`].
    pub(crate) fn row_places(&self, mover: PointSet) -> RowPlaces {
        let row = self.row_of(mover);
        RowPlaces {
            base: row.base(),
            places: row.places_of_points(),
            images: row
                .stabiliser
                .iter()
                .map(|&t| row.places_after(Some(t)))
                .collect(),
        }
    }

    /// The slot in `row` (not [`RowPlaces::symmetric`]) of the position whose opponent set
    /// has the places `places` ([`RowPlaces::places_of`]).
    #[inline]
    pub(crate) fn slot_in_row(&self, row: &RowPlaces, places: u32) -> u64 {
        debug_assert!(!row.symmetric());
        row.base + self.orbits.colex_of_places(places)
    }

    /// The slot in `row` of the position whose opponent set is `set`, the least rank among
    /// its images where the row is symmetric.
    #[inline]
    pub(crate) fn slot_of_set(&self, row: &RowPlaces, set: PointSet) -> u64 {
        let o = &*self.orbits;
        let mut best = o.colex_of_places(row.places_of(set));
        for i in 0..row.image_count() {
            best = best.min(o.colex_of_places(row.image_places_of(i, set)));
        }
        row.base + best
    }

    /// The orbit tables.
    pub(crate) fn orbits(&self) -> &Orbits {
        &self.orbits
    }

    /// The canonical position in `slot`, or `None` for an unused slot.
    #[inline]
    pub fn position(&self, slot: u64) -> Option<Position> {
        debug_assert!(slot < self.size);
        let o = &*self.orbits;
        let rank = (slot / self.stride) as usize;
        let k = slot % self.stride;
        let table = o.size(self.sector.mover as usize);
        let rep = table.reps[rank];
        let free = !rep & PointSet::first(o.points as usize).bits();
        let opp = o.squeezed_unrank(k, self.sector.opponent as u32, free);
        for &t in &table.stabilisers[rank] {
            if o.squeezed_rank(o.syms[t as usize].apply(opp), free) < k {
                return None;
            }
        }
        Some(Position {
            mover: PointSet::from_bits(rep),
            opponent: PointSet::from_bits(opp),
            mover_hand: self.sector.mover_hand,
            opponent_hand: self.sector.opponent_hand,
        })
    }

    /// Calls `f(slot, position)` for every slot of `start..end` in order (`None` for an unused
    /// slot), faster than [`SectorIndex::position`] slot by slot: consecutive slots of one mover
    /// orbit step the opponent's set to its colex successor.
    pub fn for_each_slot(&self, start: u64, end: u64, mut f: impl FnMut(u64, Option<Position>)) {
        let mut slot = start;
        while slot < end {
            let row = self.walk_row(slot);
            let orbit_end = row.slots.end.min(end);
            let mut k = slot - row.slots.start;
            let mut squeezed = row.squeezed_first(k);
            loop {
                f(slot, row.position(squeezed, k));
                slot += 1;
                k += 1;
                if slot >= orbit_end {
                    break;
                }
                squeezed = next_combination(squeezed);
            }
        }
    }

    /// The row of `slot`, prepared for a walk through its slots.
    #[inline]
    fn walk_row(&self, slot: u64) -> WalkRow<'_> {
        let o = &*self.orbits;
        let rank = (slot / self.stride) as usize;
        let table = o.size(self.sector.mover as usize);
        let rep = table.reps[rank];
        let free = !rep & PointSet::first(o.points as usize).bits();
        // The free points by place, so that a squeezed set spreads onto the board.
        let mut point_of_place = [0u8; 32];
        for (place, p) in PointSet::from_bits(free).iter().enumerate() {
            point_of_place[place] = p.index() as u8;
        }
        WalkRow {
            index: self,
            slots: rank as u64 * self.stride..(rank as u64 + 1) * self.stride,
            rep,
            free,
            point_of_place,
            stabiliser: &table.stabilisers[rank],
        }
    }

    /// The squeezed set (bits 0.. standing for the free points in order) of colex rank `k`.
    fn squeezed_first(&self, k: u64, b: u32, free: u32) -> u32 {
        let all = PointSet::first(free.count_ones() as usize).bits();
        self.orbits.squeezed_unrank(k, b, all)
    }

    /// How many distinct boards are symmetric images of `pos` (the group size over the size of
    /// the position's stabiliser).
    pub fn images(&self, pos: &Position) -> u64 {
        let o = &*self.orbits;
        let fixed = o
            .syms
            .iter()
            .filter(|s| {
                s.apply(pos.mover.bits()) == pos.mover.bits()
                    && s.apply(pos.opponent.bits()) == pos.opponent.bits()
            })
            .count();
        (o.syms.len() / fixed) as u64
    }

    /// Whether the mover's set of a canonical position has only the trivial stabiliser (so
    /// the position has `group size` images without checking).
    #[inline]
    fn free_orbit(&self, slot: u64) -> bool {
        self.orbits.size(self.sector.mover as usize).stabilisers[(slot / self.stride) as usize]
            .is_empty()
    }

    /// The size of the symmetry group.
    pub fn group_size(&self) -> u64 {
        self.orbits.syms.len() as u64
    }
}

/// How many distinct boards the canonical position of each slot stands for, for a walk
/// through a sector's slots: whether the row's mover set has a non-trivial stabiliser is
/// looked up once per row instead of once per slot (a division and a table load), and only
/// the positions of such rows are asked for and tested against the group.
pub(crate) struct ImageCounter<'a> {
    index: &'a SectorIndex,
    /// The slots of the row looked up last, and whether its orbit is free.
    row: std::ops::Range<u64>,
    free: bool,
}

impl<'a> ImageCounter<'a> {
    /// A counter for the slots of `index`.
    pub(crate) fn new(index: &'a SectorIndex) -> ImageCounter<'a> {
        ImageCounter {
            index,
            row: 0..0,
            free: false,
        }
    }

    /// The images of the canonical position in `slot`; `pos` gives it, and is called only
    /// where the row's mover set has a non-trivial stabiliser.
    #[inline]
    pub(crate) fn images(&mut self, slot: u64, pos: impl FnOnce() -> Position) -> u64 {
        if !self.row.contains(&slot) {
            let start = slot - slot % self.index.stride;
            self.row = start..start + self.index.stride;
            self.free = self.index.free_orbit(slot);
        }
        if self.free {
            self.index.group_size()
        } else {
            self.index.images(&pos())
        }
    }
}

/// One row of a sector (the slots of one mover orbit) being walked through: its
/// representative mover set, the points that set leaves free, by place, and its stabiliser.
struct WalkRow<'a> {
    index: &'a SectorIndex,
    slots: std::ops::Range<u64>,
    rep: u32,
    free: u32,
    point_of_place: [u8; 32],
    stabiliser: &'a [u8],
}

impl WalkRow<'_> {
    /// The squeezed opponent set of colex rank `k` in the row.
    #[inline]
    fn squeezed_first(&self, k: u64) -> u32 {
        self.index
            .squeezed_first(k, self.index.sector.opponent as u32, self.free)
    }

    /// The position whose opponent set, squeezed, is `squeezed` (of colex rank `k`), or `None`
    /// where a symmetric image ranks lower and the slot is unused.
    #[inline]
    fn position(&self, squeezed: u32, k: u64) -> Option<Position> {
        let o = &*self.index.orbits;
        let opp = spread(squeezed, &self.point_of_place).bits();
        let used = self
            .stabiliser
            .iter()
            .all(|&t| o.squeezed_rank(o.syms[t as usize].apply(opp), self.free) >= k);
        used.then_some(Position {
            mover: PointSet::from_bits(self.rep),
            opponent: PointSet::from_bits(opp),
            mover_hand: self.index.sector.mover_hand,
            opponent_hand: self.index.sector.opponent_hand,
        })
    }
}

/// Unranks slots met in increasing order, as a level's scan meets its pending positions: a
/// slot a little after the last one, in the same row, is reached by stepping the opponent's
/// set through its colex successors (a few instructions each) instead of unranking it anew
/// (a division and a walk down the free points).
pub(crate) struct Walker<'a> {
    index: &'a SectorIndex,
    /// The current row (none before the first).
    row: Option<WalkRow<'a>>,
    /// The last slot of the row unranked (`u64::MAX` for none), and its opponent's set
    /// squeezed onto the free points.
    slot: u64,
    squeezed: u32,
}

impl<'a> Walker<'a> {
    /// How many colex successors a step may take before unranking anew is cheaper.
    const MAX_STEPS: u64 = 32;

    /// A walker over the slots of `index`.
    pub(crate) fn new(index: &'a SectorIndex) -> Walker<'a> {
        Walker {
            index,
            row: None,
            slot: u64::MAX,
            squeezed: 0,
        }
    }

    /// What [`SectorIndex::position`] answers for `slot`.
    #[inline]
    pub(crate) fn position(&mut self, slot: u64) -> Option<Position> {
        if !self.row.as_ref().is_some_and(|r| r.slots.contains(&slot)) {
            self.row = Some(self.index.walk_row(slot));
            // Nothing of the new row unranked yet.
            self.slot = u64::MAX;
        }
        let row = self.row.as_ref().expect("set above");
        let k = slot - row.slots.start;
        if slot >= self.slot && slot - self.slot <= Self::MAX_STEPS {
            while self.slot < slot {
                self.squeezed = next_combination(self.squeezed);
                self.slot += 1;
            }
        } else {
            self.slot = slot;
            self.squeezed = row.squeezed_first(k);
        }
        row.position(self.squeezed, k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squeezed_ranks_round_trip_in_colex_order() {
        let v = Variant::by_name("three").unwrap();
        let o = Orbits::new(&v);
        for free in [0b1_1111_1111u32, 0b1_0110_1001, 0b0_1100_0110] {
            let n = free.count_ones();
            for k in 0..=n {
                let mut previous = None;
                for r in 0..o.binomial(n, k) {
                    let x = o.squeezed_unrank(r, k, free);
                    assert_eq!(x & !free, 0);
                    assert_eq!(x.count_ones(), k);
                    assert_eq!(o.squeezed_rank(x, free), r);
                    // Colex: compare by the highest differing point.
                    if let Some(p) = previous {
                        let differ: u32 = p ^ x;
                        assert!(x & (1 << (31 - differ.leading_zeros())) != 0);
                    }
                    previous = Some(x);
                }
            }
        }
    }

    #[test]
    fn one_more_ranks_equal_colex_ranks() {
        let v = Variant::by_name("nine").unwrap();
        let o = Orbits::new(&v);
        for k in 0..6 {
            let mut x = (1u32 << k) - 1;
            let mut ranks = o.one_more();
            for _ in 0..o.binomial(18, k) {
                ranks.set(x);
                for q in 0..18 {
                    if x & 1 << q == 0 {
                        assert_eq!(ranks.rank(q), colex(&o.binom, x | 1 << q), "{x:b} + {q}");
                    }
                }
                x = next_combination(x);
            }
        }
    }

    /// The walker answers what unranking each slot answers, whatever the gaps between the
    /// slots it is asked for (steps within a row, jumps, a new row).
    #[test]
    fn walker_equals_position() {
        let v = Variant::by_name("nine").unwrap();
        let o = Arc::new(Orbits::new(&v));
        for s in ["3-3-0-0", "4-5-0-0", "5-3-1-0"] {
            let index = SectorIndex::new(o.clone(), s.parse().unwrap());
            let mut walker = Walker::new(&index);
            let mut slot = 0;
            let mut gap = 1u64;
            let mut asked = 0;
            while slot < index.size() {
                assert_eq!(
                    walker.position(slot),
                    index.position(slot),
                    "{s} slot {slot}"
                );
                asked += 1;
                // Gaps of 1 to 61 slots: steps, jumps past the step limit, row ends.
                gap = gap * 7 % 61 + 1;
                slot += gap;
            }
            assert!(asked > 1000, "{s}: {asked}");
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
