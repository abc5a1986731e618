//! Symmetries of a board, found by search over point permutations.

use super::board::Board;
use super::point::{Point, PointSet, MAX_POINTS};

/// A permutation of a board's points that maps lines to lines and mills to mills.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry {
    image: [u8; MAX_POINTS],
    len: u8,
}

impl Symmetry {
    /// The identity on a board of `len` points.
    pub fn identity(len: usize) -> Symmetry {
        let mut image = [0u8; MAX_POINTS];
        for (i, x) in image.iter_mut().enumerate() {
            *x = i as u8;
        }
        Symmetry {
            image,
            len: len as u8,
        }
    }

    /// The image of a point.
    #[inline]
    pub fn map(&self, p: Point) -> Point {
        Point::new(self.image[p.index()])
    }

    /// The image of a set of points.
    pub fn apply(&self, set: PointSet) -> PointSet {
        set.iter()
            .fold(PointSet::EMPTY, |acc, p| acc.with(self.map(p)))
    }

    /// The inverse permutation.
    pub fn inverse(&self) -> Symmetry {
        let mut image = [0u8; MAX_POINTS];
        for i in 0..self.len as usize {
            image[self.image[i] as usize] = i as u8;
        }
        Symmetry {
            image,
            len: self.len,
        }
    }

    /// Every automorphism of the board (identity first): the point permutations under which
    /// each line, read in order or reversed, is again a line, and each mill again a mill.
    pub fn automorphisms(board: &Board) -> Vec<Symmetry> {
        let n = board.len();
        let mut found = Vec::new();
        let mut image = [u8::MAX; MAX_POINTS];
        let mut used = PointSet::EMPTY;
        search(board, 0, &mut image, &mut used, &mut found);
        let identity = Symmetry::identity(n);
        found.sort_by_key(|s| s != &identity);
        found
    }

    fn preserves_structure(&self, board: &Board) -> bool {
        let lines_ok = board.lines().iter().all(|line| {
            let mapped: Vec<Point> = line.iter().map(|&p| self.map(p)).collect();
            board.lines().iter().any(|l| {
                l.len() == mapped.len() && (l == &mapped || l.iter().rev().eq(mapped.iter()))
            })
        });
        lines_ok
            && board
                .mills()
                .iter()
                .all(|&m| board.mills().contains(&self.apply(m)))
    }
}

/// Backtracking over point images, pruned by adjacency (which any line-preserving map keeps).
fn search(
    board: &Board,
    next: usize,
    image: &mut [u8; MAX_POINTS],
    used: &mut PointSet,
    found: &mut Vec<Symmetry>,
) {
    let n = board.len();
    if next == n {
        let sym = Symmetry {
            image: *image,
            len: n as u8,
        };
        if sym.preserves_structure(board) {
            found.push(sym);
        }
        return;
    }
    let p = Point::new(next as u8);
    for candidate in board.all() - *used {
        let consistent = (0..next).all(|q| {
            let q = Point::new(q as u8);
            board.adjacent(p).contains(q)
                == board
                    .adjacent(candidate)
                    .contains(Point::new(image[q.index()]))
        });
        if consistent && board.adjacent(p).len() == board.adjacent(candidate).len() {
            image[next] = candidate.index() as u8;
            *used = used.with(candidate);
            search(board, next + 1, image, used, found);
            *used = used.without(candidate);
            image[next] = u8::MAX;
        }
    }
}
