//! Points of a board and sets of points as bitboards.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub};

/// The most points a board may have: a set of points is one `u32`.
pub const MAX_POINTS: usize = 32;

/// One place on the board, numbered in notation order (top rank first, left to right).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Point(u8);

impl Point {
    /// The point numbered `n` (from 0, in notation order) on its board.
    #[inline]
    pub const fn new(n: u8) -> Point {
        Point(n)
    }

    /// The point's number on its board.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The set holding only this point.
    #[inline]
    pub const fn set(self) -> PointSet {
        PointSet(1 << self.0)
    }
}

/// A set of points of one board, one bit per point.
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PointSet(u32);

impl PointSet {
    /// The empty set.
    pub const EMPTY: PointSet = PointSet(0);

    /// The set whose bit `i` stands for point `i`.
    #[inline]
    pub const fn from_bits(bits: u32) -> PointSet {
        PointSet(bits)
    }

    /// The set as bits: bit `i` for point `i`.
    #[inline]
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// The set of the first `n` points.
    #[inline]
    pub const fn first(n: usize) -> PointSet {
        if n >= 32 {
            PointSet(u32::MAX)
        } else {
            PointSet((1u32 << n) - 1)
        }
    }

    /// How many points the set holds.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds `p`.
    #[inline]
    pub const fn contains(self, p: Point) -> bool {
        self.0 & (1 << p.0) != 0
    }

    /// Whether every point of `other` is in this set.
    #[inline]
    pub const fn is_superset(self, other: PointSet) -> bool {
        self.0 & other.0 == other.0
    }

    /// The set with `p` added.
    #[inline]
    #[must_use]
    pub const fn with(self, p: Point) -> PointSet {
        PointSet(self.0 | (1 << p.0))
    }

    /// The set with `p` taken out.
    #[inline]
    #[must_use]
    pub const fn without(self, p: Point) -> PointSet {
        PointSet(self.0 & !(1 << p.0))
    }

    /// The points in increasing order.
    #[inline]
    pub fn iter(self) -> PointIter {
        PointIter(self.0)
    }
}

impl fmt::Debug for PointSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PointSet({:#x})", self.0)
    }
}

impl BitAnd for PointSet {
    type Output = PointSet;
    #[inline]
    fn bitand(self, rhs: PointSet) -> PointSet {
        PointSet(self.0 & rhs.0)
    }
}

impl BitOr for PointSet {
    type Output = PointSet;
    #[inline]
    fn bitor(self, rhs: PointSet) -> PointSet {
        PointSet(self.0 | rhs.0)
    }
}

impl Sub for PointSet {
    type Output = PointSet;
    #[inline]
    fn sub(self, rhs: PointSet) -> PointSet {
        PointSet(self.0 & !rhs.0)
    }
}

impl Not for PointSet {
    type Output = PointSet;
    #[inline]
    fn not(self) -> PointSet {
        PointSet(!self.0)
    }
}

impl BitAndAssign for PointSet {
    #[inline]
    fn bitand_assign(&mut self, rhs: PointSet) {
        self.0 &= rhs.0;
    }
}

impl BitOrAssign for PointSet {
    #[inline]
    fn bitor_assign(&mut self, rhs: PointSet) {
        self.0 |= rhs.0;
    }
}

/// Iterator over the points of a set, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct PointIter(u32);

impl Iterator for PointIter {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        if self.0 == 0 {
            return None;
        }
        let p = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Point(p))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for PointIter {}

impl IntoIterator for PointSet {
    type Item = Point;
    type IntoIter = PointIter;
    fn into_iter(self) -> PointIter {
        self.iter()
    }
}
