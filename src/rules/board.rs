//! Boards: points with coordinates and the straight lines through them.

use super::point::{Point, PointSet, MAX_POINTS};
use crate::invalid::InvalidInput;

/// A board: points, lines, and the adjacency and mills derived from the lines.
///
/// Neighbours on a line are adjacent; every three consecutive points of a line form a mill.
/// Points are numbered in notation order: top rank first, each rank left to right.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    name: String,
    /// (file, rank) of each point, both from 0.
    coords: Vec<(u8, u8)>,
    names: Vec<String>,
    lines: Vec<Vec<Point>>,
    mills: Vec<PointSet>,
    adjacent: [PointSet; MAX_POINTS],
    /// The mills through each point.
    mills_at: Vec<Vec<PointSet>>,
    /// The points of each rank, top rank first, for the position notation.
    ranks: Vec<Vec<Point>>,
}

impl Board {
    /// Builds a board from its lines, each written as points joined by `-`, e.g. `a7-d7-g7`.
    ///
    /// # Errors
    /// A malformed coordinate, a line of fewer than two points, a point twice on one line, or
    /// more points than a `PointSet` holds.
    pub fn from_lines(name: &str, lines: &[&str]) -> Result<Board, InvalidInput> {
        let bad = |why: String| InvalidInput::Board {
            board: name.to_string(),
            why,
        };
        let coord_lines = lines
            .iter()
            .map(|line| parse_line(line).map_err(bad))
            .collect::<Result<Vec<_>, _>>()?;
        // Notation order: rank descending, then file ascending.
        let mut coords: Vec<(u8, u8)> = coord_lines.iter().flatten().copied().collect();
        coords.sort_by_key(|&(f, r)| (std::cmp::Reverse(r), f));
        coords.dedup();
        if coords.len() > MAX_POINTS {
            return Err(bad(format!(
                "{} points, at most {MAX_POINTS}",
                coords.len()
            )));
        }
        let point_of = |c: (u8, u8)| Point::new(coords.iter().position(|&x| x == c).unwrap() as u8);
        let lines: Vec<Vec<Point>> = coord_lines
            .iter()
            .map(|l| l.iter().map(|&c| point_of(c)).collect())
            .collect();
        let (adjacent, mills) = adjacency_and_mills(&lines);
        let mills_at = (0..coords.len())
            .map(|p| {
                mills
                    .iter()
                    .copied()
                    .filter(|m| m.contains(Point::new(p as u8)))
                    .collect()
            })
            .collect();
        let mut ranks: Vec<Vec<Point>> = Vec::new();
        for (i, &(_, r)) in coords.iter().enumerate() {
            match ranks.last_mut() {
                Some(rank) if coords[rank[0].index()].1 == r => rank.push(Point::new(i as u8)),
                _ => ranks.push(vec![Point::new(i as u8)]),
            }
        }
        let names = coords.iter().map(|&c| coord_name(c)).collect();
        Ok(Board {
            name: name.to_string(),
            coords,
            names,
            lines,
            mills,
            adjacent,
            mills_at,
            ranks,
        })
    }

    /// The board's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How many points the board has.
    #[inline]
    pub fn len(&self) -> usize {
        self.coords.len()
    }

    /// Whether the board has no points (never true of a built board).
    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    /// Every point of the board.
    #[inline]
    pub fn all(&self) -> PointSet {
        PointSet::first(self.len())
    }

    /// The lines, each as its points in order.
    pub fn lines(&self) -> &[Vec<Point>] {
        &self.lines
    }

    /// The mills, each as a set of three points.
    pub fn mills(&self) -> &[PointSet] {
        &self.mills
    }

    /// The points adjacent to `p`.
    #[inline]
    pub fn adjacent(&self, p: Point) -> PointSet {
        self.adjacent[p.index()]
    }

    /// Whether `set` holds a whole mill through `p`.
    #[inline]
    pub fn in_mill(&self, set: PointSet, p: Point) -> bool {
        self.mills_at[p.index()].iter().any(|&m| set.is_superset(m))
    }

    /// The points outside `set` where one more piece of `set` would close a mill (whether
    /// or not they are empty).
    #[inline]
    pub fn closing_points(&self, set: PointSet) -> PointSet {
        // Without a branch, as in `mill_points`: a mill lacks one point when what it lacks is
        // a single bit.
        let bits = self.mills.iter().fold(0u32, |acc, &m| {
            let missing = m.bits() & !set.bits();
            let single = (missing != 0 && missing & missing.wrapping_sub(1) == 0) as u32;
            acc | (missing & single.wrapping_neg())
        });
        PointSet::from_bits(bits)
    }

    /// The points of `set` that lie in a mill wholly inside `set`.
    #[inline]
    pub fn mill_points(&self, set: PointSet) -> PointSet {
        // Without a branch per mill: whether a mill is whole varies from mill to mill with no
        // pattern a predictor learns.
        let bits = self.mills.iter().fold(0u32, |acc, &m| {
            let whole = (set.bits() & m.bits() == m.bits()) as u32;
            acc | (m.bits() & whole.wrapping_neg())
        });
        PointSet::from_bits(bits)
    }

    /// The ranks, top first, each with its points left to right.
    pub fn ranks(&self) -> &[Vec<Point>] {
        &self.ranks
    }

    /// The coordinate name of a point, e.g. `d7`.
    pub fn point_name(&self, p: Point) -> &str {
        &self.names[p.index()]
    }

    /// (file, rank) of a point, both counted from 0.
    pub fn coord(&self, p: Point) -> (u8, u8) {
        self.coords[p.index()]
    }

    /// The point named `name`, if the board has it.
    pub fn point(&self, name: &str) -> Option<Point> {
        self.names
            .iter()
            .position(|n| n == name)
            .map(|i| Point::new(i as u8))
    }
}

/// The coordinates of one line's points, `a7-d7-g7`: at least two, none twice.
fn parse_line(line: &str) -> Result<Vec<(u8, u8)>, String> {
    let pts = line
        .split('-')
        .map(|s| parse_coord(s).ok_or_else(|| format!("bad point {s:?} in line {line}")))
        .collect::<Result<Vec<_>, _>>()?;
    if pts.len() < 2 {
        return Err(format!("line {line} has fewer than two points"));
    }
    let mut sorted = pts.clone();
    sorted.sort();
    sorted.dedup();
    if sorted.len() != pts.len() {
        return Err(format!("line {line} repeats a point"));
    }
    Ok(pts)
}

/// Each point's neighbours on the lines, and the mills: every three consecutive points of a
/// line, each once.
fn adjacency_and_mills(lines: &[Vec<Point>]) -> ([PointSet; MAX_POINTS], Vec<PointSet>) {
    let mut adjacent = [PointSet::EMPTY; MAX_POINTS];
    let mut mills = Vec::new();
    for line in lines {
        for w in line.windows(2) {
            adjacent[w[0].index()] = adjacent[w[0].index()].with(w[1]);
            adjacent[w[1].index()] = adjacent[w[1].index()].with(w[0]);
        }
        for w in line.windows(3) {
            let mill = w.iter().fold(PointSet::EMPTY, |s, &p| s.with(p));
            if !mills.contains(&mill) {
                mills.push(mill);
            }
        }
    }
    (adjacent, mills)
}

fn parse_coord(s: &str) -> Option<(u8, u8)> {
    let mut chars = s.chars();
    let file = chars.next()?;
    if !file.is_ascii_lowercase() {
        return None;
    }
    let rank: u8 = chars.as_str().parse().ok()?;
    if rank == 0 || rank > 26 {
        return None;
    }
    Some((file as u8 - b'a', rank - 1))
}

fn coord_name((file, rank): (u8, u8)) -> String {
    format!("{}{}", (b'a' + file) as char, rank + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_bad_lines() {
        assert!(Board::from_lines("x", &["a1-zz"]).is_err());
        assert!(Board::from_lines("x", &["a1"]).is_err());
        assert!(Board::from_lines("x", &["a1-a2-a1"]).is_err());
    }
}
