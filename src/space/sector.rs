//! Sectors (`W-B-WF-BF` piece counts, mover-relative), the sector graph and its work units.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::str::FromStr;

use crate::invalid::InvalidInput;
use crate::rules::Position;
use crate::rules::Variant;

/// The positions with given counts: mover on board, opponent on board, mover's and opponent's hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Sector {
    /// The mover's pieces on the board.
    pub mover: u8,
    /// The opponent's pieces on the board.
    pub opponent: u8,
    /// The mover's pieces in hand.
    pub mover_hand: u8,
    /// The opponent's pieces in hand.
    pub opponent_hand: u8,
}

impl Sector {
    /// The sector holding `pos`.
    #[inline]
    pub fn of(pos: &Position) -> Sector {
        Sector {
            mover: pos.mover.len() as u8,
            opponent: pos.opponent.len() as u8,
            mover_hand: pos.mover_hand,
            opponent_hand: pos.opponent_hand,
        }
    }

    /// The sector seen from the other side (mover and opponent exchanged): the sector of the
    /// positions' [`Position::flipped`] images.
    #[inline]
    #[must_use]
    pub fn flipped(&self) -> Sector {
        Sector {
            mover: self.opponent,
            opponent: self.mover,
            mover_hand: self.opponent_hand,
            opponent_hand: self.mover_hand,
        }
    }

    /// The sector of a variant's start position.
    pub fn start(variant: &Variant) -> Sector {
        Sector::of(&Position::start(variant))
    }

    /// Whether both hands are empty (the moving phase).
    pub fn is_moving(&self) -> bool {
        self.mover_hand == 0 && self.opponent_hand == 0
    }

    /// Whether the mover has lost already: fewer than three pieces on board and in hand.
    /// Such sectors are never stored; their positions are losses at depth 0.
    pub fn is_terminal(&self) -> bool {
        self.mover as u32 + (self.mover_hand as u32) < 3
    }

    /// Checks that the counts fit the variant: pieces owned, points on the board, alternating
    /// hands.
    ///
    /// # Errors
    /// `InvalidInput::Sector` naming the problem.
    pub fn check(&self, variant: &Variant) -> Result<(), InvalidInput> {
        let fail = |why: String| {
            Err(InvalidInput::Sector {
                sector: self.to_string(),
                why,
            })
        };
        let pieces = variant.pieces();
        if self.mover as u32 + self.mover_hand as u32 > pieces as u32
            || self.opponent as u32 + self.opponent_hand as u32 > pieces as u32
        {
            return fail(format!(
                "a side has more than the {pieces} pieces of {}",
                variant.name()
            ));
        }
        if self.mover as usize + self.opponent as usize > variant.board().len() {
            return fail(format!(
                "more pieces than the {} points of the board",
                variant.board().len()
            ));
        }
        if !variant
            .rules()
            .hands_alternate(self.mover_hand, self.opponent_hand)
        {
            return fail("the mover's hand must equal the opponent's or be one more".into());
        }
        Ok(())
    }

    /// The non-terminal sectors one move leads to, seen from the new mover.
    pub fn successors(&self, variant: &Variant) -> Vec<Sector> {
        let mut out = self.successors_with_terminal(variant);
        out.retain(|s| !s.is_terminal());
        out
    }

    /// The sector a placement leads to, seen from the new mover, with `removed` of the
    /// opponent's pieces taken (0 or 1).
    pub fn after_placement(&self, removed: u8) -> Sector {
        Sector {
            mover: self.opponent - removed,
            opponent: self.mover + 1,
            mover_hand: self.opponent_hand,
            opponent_hand: self.mover_hand - 1,
        }
    }

    /// The sector a move (a slide or a fly) leads to, seen from the new mover, with `removed`
    /// of the opponent's pieces taken (0 or 1).
    pub fn after_move(&self, removed: u8) -> Sector {
        Sector {
            mover: self.opponent - removed,
            opponent: self.mover,
            mover_hand: self.opponent_hand,
            opponent_hand: self.mover_hand,
        }
    }

    /// Every sector one move leads to, seen from the new mover, the terminal ones included
    /// (the new mover below three pieces: positions lost at depth 0, which are never stored
    /// and which [`Sector::successors`] leaves out). This is the one place that knows which
    /// sectors follow which: the solver, `verify` and the plan all ask it.
    pub fn successors_with_terminal(&self, variant: &Variant) -> Vec<Sector> {
        let rules = variant.rules();
        let (w, b) = (self.mover, self.opponent);
        let mut out = Vec::with_capacity(4);
        // A placement adds a piece to the board from the hand; a move keeps both.
        let mut kinds: Vec<fn(&Sector, u8) -> Sector> = Vec::with_capacity(2);
        if rules.may_place(self.mover_hand) {
            kinds.push(Sector::after_placement);
        }
        if rules.may_move(self.mover_hand) && w > 0 {
            kinds.push(Sector::after_move);
        }
        for after in kinds {
            let plain = after(self, 0);
            // Every move needs an empty point to go to.
            if (plain.opponent + b) as usize > variant.board().len() {
                continue;
            }
            out.push(plain);
            // A mill needs three of the mover's pieces on the board, and something to remove.
            if plain.opponent >= 3 && b > 0 {
                out.push(after(self, 1));
            }
        }
        out
    }
}

impl fmt::Display for Sector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}-{}-{}-{}",
            self.mover, self.opponent, self.mover_hand, self.opponent_hand
        )
    }
}

impl FromStr for Sector {
    type Err = InvalidInput;
    fn from_str(s: &str) -> Result<Sector, InvalidInput> {
        let fail = || InvalidInput::Sector {
            sector: s.to_string(),
            why: "expected four counts W-B-WF-BF, e.g. 3-3-0-0".into(),
        };
        let parts: Vec<u8> = s
            .split('-')
            .map(|p| p.parse::<u8>().map_err(|_| fail()))
            .collect::<Result<_, _>>()?;
        match parts[..] {
            [mover, opponent, mover_hand, opponent_hand] => Ok(Sector {
                mover,
                opponent,
                mover_hand,
                opponent_hand,
            }),
            _ => Err(fail()),
        }
    }
}

/// Sectors that must be solved together: a strongly connected component of the sector graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkUnit {
    /// The sectors, in increasing order.
    pub sectors: Vec<Sector>,
    /// Whether moves lead from the unit back into it (then it needs retrograde analysis;
    /// otherwise one forward pass).
    pub cyclic: bool,
}

impl fmt::Display for WorkUnit {
    /// The unit's sectors separated by spaces, e.g. `3-4-0-0 4-3-0-0`: its name in logs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.sectors.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

/// The work units needed for a set of target sectors, dependencies first.
pub fn plan(variant: &Variant, roots: &[Sector]) -> Vec<WorkUnit> {
    // Everything reachable from the roots.
    let mut graph: BTreeMap<Sector, Vec<Sector>> = BTreeMap::new();
    let mut stack: Vec<Sector> = roots.iter().copied().filter(|s| !s.is_terminal()).collect();
    while let Some(s) = stack.pop() {
        if graph.contains_key(&s) {
            continue;
        }
        let succ = s.successors(variant);
        stack.extend(succ.iter().copied());
        graph.insert(s, succ);
    }
    strongly_connected(&graph)
}

/// Tarjan's algorithm; it emits each component after every component it reaches, which is
/// exactly the order in which work units must be solved.
fn strongly_connected(graph: &BTreeMap<Sector, Vec<Sector>>) -> Vec<WorkUnit> {
    struct State<'a> {
        graph: &'a BTreeMap<Sector, Vec<Sector>>,
        index: BTreeMap<Sector, usize>,
        low: BTreeMap<Sector, usize>,
        stack: Vec<Sector>,
        on_stack: BTreeSet<Sector>,
        units: Vec<WorkUnit>,
    }
    fn visit(st: &mut State, v: Sector) {
        let i = st.index.len();
        st.index.insert(v, i);
        st.low.insert(v, i);
        st.stack.push(v);
        st.on_stack.insert(v);
        for &w in &st.graph[&v] {
            if !st.index.contains_key(&w) {
                visit(st, w);
                let lw = st.low[&w];
                let lv = st.low.get_mut(&v).unwrap();
                *lv = (*lv).min(lw);
            } else if st.on_stack.contains(&w) {
                let iw = st.index[&w];
                let lv = st.low.get_mut(&v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if st.low[&v] == st.index[&v] {
            let mut sectors = Vec::new();
            loop {
                let w = st.stack.pop().unwrap();
                st.on_stack.remove(&w);
                sectors.push(w);
                if w == v {
                    break;
                }
            }
            sectors.sort();
            let cyclic = sectors.len() > 1 || st.graph[&v].contains(&v);
            st.units.push(WorkUnit { sectors, cyclic });
        }
    }
    let mut st = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        units: Vec::new(),
    };
    for &v in graph.keys() {
        if !st.index.contains_key(&v) {
            visit(&mut st, v);
        }
    }
    st.units
}

/// The moving-phase sectors reachable from the start with at most `k` pieces a side on the board.
pub fn endgame_roots(variant: &Variant, k: u8) -> Vec<Sector> {
    plan(variant, &[Sector::start(variant)])
        .into_iter()
        .flat_map(|u| u.sectors)
        .filter(|s| s.is_moving() && s.mover <= k && s.opponent <= k)
        .collect()
}
