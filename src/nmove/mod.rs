//! Rule-aware values: what the N-move rule (a draw after N quiet plies in a row) leaves of each
//! win and loss, for a fresh move counter.
//!
//! A quiet ply is a slide or a fly without a removal: the moves that stay inside a work unit.
//! A placement or a removal leaves the unit and starts the count again (`data/rules.md`). So,
//! with `r` quiet plies left before the draw, the side to move wins when it can force, within
//! `r`, a move out of the unit into a position lost for the opponent with a fresh counter (or
//! a finished one); it loses when the opponent can. A game finished by the rules (no legal
//! move) is lost even when the count has run out.
//!
//! For each position the analysis finds the *budget*: the fewest quiet plies left with which
//! the mover still wins (or the opponent still wins, for a loss), at most N. A win with budget
//! `b` is a win under the rule from every counter that leaves at least `b` plies; a position
//! with no budget is a draw under the rule from every counter. The budgets come from a
//! retrograde analysis of each unit in levels, like the solver's but with one more kind of
//! final position: the positions whose best move leaves the unit are known before the first
//! level, whichever their count. Level `k` resolves the positions of budget `k`: a loss at `k`
//! makes its quiet predecessors wins at `k + 1`; a win at `k` counts down its predecessors'
//! unresolved quiet children, and a predecessor left with none, every move out of the unit
//! leading to the opponent's win, becomes a loss at `k + 1`. Levels stop at N.
//!
//! Win, cursed win, draw, blessed loss and loss then compare the budget, for a fresh counter
//! (N plies left), with the game-theoretic value of the database: a cursed win is a win that
//! the rule spoils, a blessed loss a loss that it saves. Every win under the rule must be a win
//! of the database (the rule only adds draws): the analysis checks that, position by
//! position, and refuses a database that disagrees.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;

use crate::error::Error;
use crate::progress::{go_on, Progress};
use crate::rules::{
    for_each_move, for_each_unmove_with, play, too_few_pieces, value_without_moves, Move, Outcome,
    Position, Value, Variant,
};
use crate::space::{plan, Sector, SectorIndex, WorkUnit};
use crate::store::Database;

/// The most plies the rule may allow: budgets are held in 15 bits.
pub const MAX_N: u16 = 30_000;

/// A cell's flag for a loss; the low bits hold the budget.
const LOSS: u16 = 0x8000;
/// A cell without a budget: a draw under the rule, unresolved, or an unused slot.
const NONE: u16 = 0x7FFF;

/// What the N-move rule leaves of a position's value for a fresh move counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuleValue {
    /// A win the rule does not spoil.
    Win,
    /// A win without the rule, a draw with it: the winner needs more quiet plies than it allows.
    CursedWin,
    /// A draw with and without the rule.
    Draw,
    /// A loss without the rule, a draw with it.
    BlessedLoss,
    /// A loss the rule does not save.
    Loss,
}

impl RuleValue {
    /// Every rule value, wins first.
    pub const ALL: [RuleValue; 5] = [
        RuleValue::Win,
        RuleValue::CursedWin,
        RuleValue::Draw,
        RuleValue::BlessedLoss,
        RuleValue::Loss,
    ];

    /// `win`, `cursed-win`, `draw`, `blessed-loss` or `loss` (the JSON's names).
    pub fn name(self) -> &'static str {
        match self {
            RuleValue::Win => "win",
            RuleValue::CursedWin => "cursed-win",
            RuleValue::Draw => "draw",
            RuleValue::BlessedLoss => "blessed-loss",
            RuleValue::Loss => "loss",
        }
    }

    /// The rule value of a position of game-theoretic outcome `game` whose outcome under the
    /// rule, with a fresh counter, is `ruled`; `None` when the two contradict (a win or a loss
    /// under the rule that is not one without it).
    pub fn of(game: Outcome, ruled: Outcome) -> Option<RuleValue> {
        match (game, ruled) {
            (Outcome::Win, Outcome::Win) => Some(RuleValue::Win),
            (Outcome::Win, Outcome::Draw) => Some(RuleValue::CursedWin),
            (Outcome::Draw, Outcome::Draw) => Some(RuleValue::Draw),
            (Outcome::Loss, Outcome::Draw) => Some(RuleValue::BlessedLoss),
            (Outcome::Loss, Outcome::Loss) => Some(RuleValue::Loss),
            _ => None,
        }
    }
}

impl RuleValue {
    /// The outcome under the rule: a win, a loss, or a draw for the three values between.
    pub fn outcome(self) -> Outcome {
        match self {
            RuleValue::Win => Outcome::Win,
            RuleValue::Loss => Outcome::Loss,
            _ => Outcome::Draw,
        }
    }
}

impl fmt::Display for RuleValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A position's budget under the rule: the fewest quiet plies left before the draw with which
/// the side to move wins, or the opponent wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Budget {
    /// The mover wins from every counter leaving at least this many quiet plies (1 or more).
    Win(u16),
    /// The mover loses from every counter leaving at least this many quiet plies (0: the
    /// game is over, lost).
    Loss(u16),
    /// A draw under the rule from every counter.
    Draw,
}

impl Budget {
    /// The outcome under the rule with `left` quiet plies left before the draw.
    pub fn outcome_with(self, left: u16) -> Outcome {
        match self {
            Budget::Win(b) if b <= left => Outcome::Win,
            Budget::Loss(b) if b <= left => Outcome::Loss,
            _ => Outcome::Draw,
        }
    }

    fn from_cell(cell: u16) -> Budget {
        match cell {
            NONE => Budget::Draw,
            c if c & LOSS != 0 => Budget::Loss(c & !LOSS),
            c => Budget::Win(c),
        }
    }
}

/// How many positions of a sector have each rule value: canonical positions, and with their
/// symmetric images (`raw`), as `stats` counts them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleCounts {
    /// Canonical positions of each rule value, in the order of [`RuleValue::ALL`].
    pub positions: [u64; 5],
    /// Positions of each rule value counting every symmetric image.
    pub raw: [u64; 5],
}

impl RuleCounts {
    fn add(&mut self, other: &RuleCounts) {
        for k in 0..5 {
            self.positions[k] += other.positions[k];
            self.raw[k] += other.raw[k];
        }
    }

    /// The canonical positions of rule value `v`.
    pub fn of(&self, v: RuleValue) -> u64 {
        self.positions[v as usize]
    }
}

/// What an analysis keeps of each sector once its unit is done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// The counts and the positions the rule spoils: a few bytes per sector beyond the unit
    /// at work, whatever the game's size.
    Counts,
    /// Every position's budget as well (two bytes a slot) in the work units of the roots, for
    /// [`RuleAnalysis::budget`] and [`RuleAnalysis::move_value`].
    Budgets,
}

/// A position's values under an N-move rule for a fresh counter: its own and each move's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuledAnswer {
    /// The rule's N, in plies.
    pub n: u16,
    /// The position's value under the rule.
    pub value: RuleValue,
    /// The value under the rule of each move asked, in the order asked.
    pub moves: Vec<RuleValue>,
}

/// An N-move rule's analysis kept between answers, of the last N asked: what a front-end
/// holds per database (the command line's batch, the server, the Python and C handles), each
/// answer analysing only what the ones before it did not. Calls from several threads wait for
/// each other's analysis.
#[derive(Debug, Default)]
pub struct RuleCache(Mutex<Option<RuleAnalysis>>);

impl RuleCache {
    /// The values under the `n`-move rule of `pos` and of its legal `moves`, analysing first
    /// what the kept analysis lacks of the unit of `pos` and the units it leads to (a new
    /// analysis where none is kept, or one of another N).
    ///
    /// # Errors
    /// As [`RuleAnalysis::run`] and [`RuleAnalysis::move_value`].
    pub fn answer(
        &self,
        db: &Database,
        n: u16,
        pos: &Position,
        moves: &[Move],
        progress: &dyn Progress,
    ) -> Result<RuledAnswer, Error> {
        let roots = [Sector::of(pos)];
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let r = match &mut *kept {
            Some(r) if r.n == n => {
                r.extend(db, &roots, Keep::Budgets, progress)?;
                r
            }
            _ => kept.insert(RuleAnalysis::run(db, n, &roots, Keep::Budgets, progress)?),
        };
        let moves = moves
            .iter()
            .map(|&mv| r.move_value(db, pos, mv))
            .collect::<Result<_, _>>()?;
        Ok(RuledAnswer {
            n,
            value: r.rule_value(db, pos)?,
            moves,
        })
    }

    /// How many slots [`RuleCache::answer`] would analyse before answering `pos` under the
    /// `n`-move rule: the measure of its work (a solve's worth per slot), for a front-end that
    /// bounds it.
    pub fn cost(&self, db: &Database, n: u16, pos: &Position) -> u64 {
        let roots = [Sector::of(pos)];
        match &*self.0.lock().unwrap_or_else(|e| e.into_inner()) {
            Some(r) if r.n == n => slots(db, &r.units_to_run(db, &roots, Keep::Budgets)),
            _ => slots(db, &plan(db.variant(), &roots)),
        }
    }
}

/// The rule values of every position of some sectors under an N-move rule, with their counts,
/// and, when kept, their budgets.
#[derive(Debug)]
pub struct RuleAnalysis {
    n: u16,
    sectors: BTreeMap<Sector, AnalysedSector>,
}

/// One sector's counts, the slots the rule spoils, and its budgets when kept.
struct AnalysedSector {
    index: SectorIndex,
    counts: RuleCounts,
    /// The slots, in increasing order, of the cursed wins and blessed losses: the positions
    /// whose outcome for a fresh counter is a draw though their game value is not.
    spoiled: Vec<u64>,
    cells: Option<Vec<u16>>,
}

impl fmt::Debug for AnalysedSector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AnalysedSector")
            .field("sector", &self.index.sector())
            .field("counts", &self.counts)
            .field("spoiled", &self.spoiled.len())
            .finish_non_exhaustive()
    }
}

impl RuleAnalysis {
    /// Analyses `roots` and every sector they lead to under the `n`-move rule, reading their
    /// game-theoretic values from `db` (which must hold them all), keeping what `keep` says.
    /// Memory: five bytes a slot of the largest work unit, plus two a slot of every sector
    /// with [`Keep::Budgets`].
    ///
    /// # Errors
    /// `Error::Input` for an `n` outside 1 to [`MAX_N`]; a sector `db` lacks or cannot read;
    /// `Error::RuleContradiction` where a value under the rule is not the database's;
    /// `Error::Cancelled` when `progress` asks to stop.
    pub fn run(
        db: &Database,
        n: u16,
        roots: &[Sector],
        keep: Keep,
        progress: &dyn Progress,
    ) -> Result<RuleAnalysis, Error> {
        check_n(n)?;
        let mut analysis = RuleAnalysis {
            n,
            sectors: BTreeMap::new(),
        };
        analysis.extend(db, roots, keep, progress)?;
        Ok(analysis)
    }

    /// Analyses what `roots` lead to that this analysis lacks: the sectors not analysed yet,
    /// and with [`Keep::Budgets`] the roots' units again where their budgets were not kept.
    ///
    /// # Errors
    /// As [`RuleAnalysis::run`].
    pub fn extend(
        &mut self,
        db: &Database,
        roots: &[Sector],
        keep: Keep,
        progress: &dyn Progress,
    ) -> Result<(), Error> {
        let units = self.units_to_run(db, roots, keep);
        progress.phase(&format!("{}-move rule", self.n), slots(db, &units));
        for unit in &units {
            let root = roots.iter().any(|r| unit.sectors.contains(r));
            let kept = if root { keep } else { Keep::Counts };
            self.run_unit(db, unit, kept, progress)?;
            go_on(progress)?;
        }
        Ok(())
    }

    /// The units of `roots` and those they lead to that [`RuleAnalysis::extend`] would run.
    fn units_to_run(&self, db: &Database, roots: &[Sector], keep: Keep) -> Vec<WorkUnit> {
        let wanted = |unit: &WorkUnit| {
            let root = roots.iter().any(|r| unit.sectors.contains(r));
            unit.sectors.iter().any(|s| match self.sectors.get(s) {
                None => true,
                Some(a) => root && keep == Keep::Budgets && a.cells.is_none(),
            })
        };
        plan(db.variant(), roots)
            .into_iter()
            .filter(|u| wanted(u))
            .collect()
    }

    /// The rule's N, in plies.
    pub fn n(&self) -> u16 {
        self.n
    }

    /// The sectors analysed, in increasing order.
    pub fn sectors(&self) -> impl Iterator<Item = Sector> + '_ {
        self.sectors.keys().copied()
    }

    /// The counts of rule values in `sector`, `None` when it was not analysed.
    pub fn counts(&self, sector: Sector) -> Option<RuleCounts> {
        self.sectors.get(&sector).map(|s| s.counts)
    }

    /// The counts of every sector analysed together.
    pub fn total(&self) -> RuleCounts {
        let mut all = RuleCounts::default();
        for s in self.sectors.values() {
            all.add(&s.counts);
        }
        all
    }

    /// The budget of `pos` (any position of a sector analysed, canonical or not); a position
    /// with too few pieces is a loss at 0.
    ///
    /// # Errors
    /// `Error::Input` when its sector was not analysed, or analysed without its budgets.
    pub fn budget(&self, pos: &Position) -> Result<Budget, Error> {
        if too_few_pieces(pos) {
            return Ok(Budget::Loss(0));
        }
        let s = self.analysed(pos)?;
        let cells = s.cells.as_ref().ok_or_else(|| {
            Error::Input(crate::InvalidInput::Request(format!(
                "sector {} was analysed under the {}-move rule without its budgets",
                s.index.sector(),
                self.n
            )))
        })?;
        Ok(Budget::from_cell(cells[s.index.index(pos) as usize]))
    }

    /// The rule value of `pos` for a fresh counter, from its value in `db` and whether the rule
    /// spoils it.
    ///
    /// # Errors
    /// `Error::Input` when its sector was not analysed; as [`Database::probe_outcome`].
    pub fn rule_value(&self, db: &Database, pos: &Position) -> Result<RuleValue, Error> {
        let game = db.probe_outcome(pos)?;
        if too_few_pieces(pos) {
            return Ok(RuleValue::Loss);
        }
        let s = self.analysed(pos)?;
        // A draw is never spoiled: no search of the spoiled slots.
        Ok(match game {
            Outcome::Draw => RuleValue::Draw,
            Outcome::Win if self.is_spoiled(s, pos) => RuleValue::CursedWin,
            Outcome::Win => RuleValue::Win,
            Outcome::Loss if self.is_spoiled(s, pos) => RuleValue::BlessedLoss,
            Outcome::Loss => RuleValue::Loss,
        })
    }

    /// The outcome of `pos` under the rule with `left` quiet plies left: from its budget when
    /// kept, else (for a fresh counter only) from its rule value.
    ///
    /// # Errors
    /// As [`RuleAnalysis::budget`] (for `left` other than N) and [`RuleAnalysis::rule_value`].
    pub fn outcome_with(&self, db: &Database, pos: &Position, left: u16) -> Result<Outcome, Error> {
        if left != self.n || self.analysed(pos).is_ok_and(|s| s.cells.is_some()) {
            return Ok(self.budget(pos)?.outcome_with(left));
        }
        Ok(self.rule_value(db, pos)?.outcome())
    }

    /// The rule value, for the side to move at `pos` with a fresh counter, of playing `mv`:
    /// the opponent's value after it, with a fresh counter after a placement or a removal,
    /// with one ply fewer after a slide or a fly without one.
    ///
    /// # Errors
    /// As [`RuleAnalysis::budget`] (for the budgets of the unit of `pos`) and
    /// [`RuleAnalysis::rule_value`].
    pub fn move_value(&self, db: &Database, pos: &Position, mv: Move) -> Result<RuleValue, Error> {
        let child = play(pos, mv);
        let game = db.probe_outcome(&child)?.before_move();
        let left = if is_quiet(mv) { self.n - 1 } else { self.n };
        let ruled = self.outcome_with(db, &child, left)?.before_move();
        RuleValue::of(game, ruled).ok_or_else(|| contradiction(&child, self.n, ruled, game))
    }

    /// The analysed sector of `pos`.
    fn analysed(&self, pos: &Position) -> Result<&AnalysedSector, Error> {
        let sector = Sector::of(pos);
        self.sectors.get(&sector).ok_or_else(|| {
            Error::Input(crate::InvalidInput::Request(format!(
                "sector {sector} was not analysed under the {}-move rule",
                self.n
            )))
        })
    }

    /// Whether the rule spoils the value of `pos`, a position of the analysed sector `s`.
    fn is_spoiled(&self, s: &AnalysedSector, pos: &Position) -> bool {
        s.spoiled.binary_search(&s.index.index(pos)).is_ok()
    }

    /// Analyses one unit, whose exits are analysed, and keeps its sectors.
    fn run_unit(
        &mut self,
        db: &Database,
        unit: &WorkUnit,
        keep: Keep,
        progress: &dyn Progress,
    ) -> Result<(), Error> {
        let mut work = Unit::new(db, unit, self);
        let (finished, first) = work.init()?;
        work.levels(self.n, finished, first);
        let Unit { indexes, cells, .. } = work;
        let cells: Vec<u16> = cells.into_iter().map(AtomicU16::into_inner).collect();
        let mut start = 0usize;
        for index in indexes {
            let end = start + index.size() as usize;
            let sector_cells = &cells[start..end];
            let (counts, spoiled) = count(db, &index, sector_cells, self.n)?;
            progress.advance(index.size());
            self.sectors.insert(
                index.sector(),
                AnalysedSector {
                    index,
                    counts,
                    spoiled,
                    cells: (keep == Keep::Budgets).then(|| sector_cells.to_vec()),
                },
            );
            start = end;
        }
        Ok(())
    }
}

/// The slots of the sectors of `units`.
fn slots(db: &Database, units: &[WorkUnit]) -> u64 {
    units
        .iter()
        .flat_map(|u| &u.sectors)
        .map(|&s| db.index(s).size())
        .sum()
}

/// Whether `mv` adds one to the count: a slide or a fly without a removal. It is the move that
/// stays inside its work unit (hands and pieces unchanged, so the sector's twin).
pub fn is_quiet(mv: Move) -> bool {
    mv.from().is_some() && mv.removed().is_none()
}

/// Refuses an N the cells cannot hold.
fn check_n(n: u16) -> Result<(), Error> {
    if n == 0 || n > MAX_N {
        return Err(Error::Input(crate::InvalidInput::Request(format!(
            "the N-move rule takes N from 1 to {MAX_N} plies, not {n}"
        ))));
    }
    Ok(())
}

/// The error of a value under the rule that the database contradicts.
fn contradiction(pos: &Position, n: u16, ruled: Outcome, game: Outcome) -> Error {
    Error::RuleContradiction {
        sector: Sector::of(pos),
        n,
        ruled,
        game,
    }
}

/// Counts a sector's rule values, checking each against the database; returns the counts and
/// the slots the rule spoils, in increasing order.
fn count(
    db: &Database,
    index: &SectorIndex,
    cells: &[u16],
    n: u16,
) -> Result<(RuleCounts, Vec<u64>), Error> {
    const CHUNK: u64 = 1 << 14;
    let size = index.size();
    let chunks: Vec<u64> = (0..size.div_ceil(CHUNK)).collect();
    let parts: Result<Vec<(RuleCounts, Vec<u64>)>, Error> = chunks
        .par_iter()
        .map(|&c| {
            let mut counts = RuleCounts::default();
            let mut spoiled = Vec::new();
            let mut fault = None;
            let (start, end) = (c * CHUNK, ((c + 1) * CHUNK).min(size));
            index.for_each_slot(start, end, |slot, pos| {
                let Some(pos) = pos else { return };
                if fault.is_some() {
                    return;
                }
                let ruled = Budget::from_cell(cells[slot as usize]).outcome_with(n);
                let game = match db.probe_outcome(&pos) {
                    Ok(game) => game,
                    Err(e) => return fault = Some(e),
                };
                match RuleValue::of(game, ruled) {
                    Some(v) => {
                        counts.positions[v as usize] += 1;
                        counts.raw[v as usize] += index.images(&pos);
                        if matches!(v, RuleValue::CursedWin | RuleValue::BlessedLoss) {
                            spoiled.push(slot);
                        }
                    }
                    None => fault = Some(contradiction(&pos, n, ruled, game)),
                }
            });
            fault.map_or(Ok((counts, spoiled)), Err)
        })
        .collect();
    let mut all = RuleCounts::default();
    let mut spoiled = Vec::new();
    for (part, slots) in parts? {
        all.add(&part);
        spoiled.extend(slots);
    }
    Ok((all, spoiled))
}

/// The working state of one unit: a cell and a count of unresolved quiet children per slot,
/// the unit's sectors one after another.
struct Unit<'a> {
    db: &'a Database,
    variant: &'a Variant,
    analysed: &'a RuleAnalysis,
    indexes: Vec<SectorIndex>,
    /// Where each sector's slots start.
    starts: Vec<u64>,
    cells: Vec<AtomicU16>,
    children: Vec<AtomicU16>,
    /// Positions that can never lose under the rule: a move out of the unit reaches a draw
    /// under it, or the game ends drawn.
    never_lost: Vec<bool>,
}

impl<'a> Unit<'a> {
    fn new(db: &'a Database, unit: &WorkUnit, analysed: &'a RuleAnalysis) -> Unit<'a> {
        let indexes: Vec<SectorIndex> = unit.sectors.iter().map(|&s| db.index(s)).collect();
        let mut starts = Vec::with_capacity(indexes.len());
        let mut total = 0;
        for index in &indexes {
            starts.push(total);
            total += index.size();
        }
        Unit {
            db,
            variant: db.variant(),
            analysed,
            indexes,
            starts,
            cells: (0..total).map(|_| AtomicU16::new(NONE)).collect(),
            children: (0..total).map(|_| AtomicU16::new(0)).collect(),
            never_lost: vec![false; total as usize],
        }
    }

    /// The unit's number of `pos`, or `None` when it lies outside the unit.
    #[inline]
    fn id(&self, pos: &Position) -> Option<u64> {
        let s = Sector::of(pos);
        let k = self.indexes.iter().position(|i| i.sector() == s)?;
        Some(self.starts[k] + self.indexes[k].index(pos))
    }

    /// The position numbered `id`, `None` for an unused slot.
    fn position(&self, id: u64) -> Option<Position> {
        let k = self.starts.partition_point(|&s| s <= id) - 1;
        self.indexes[k].position(id - self.starts[k])
    }

    /// Reads every position's moves: counts its distinct quiet children, and resolves what the
    /// moves out of the unit decide before any level: a loss at 0 (no move), a win at 1 (a
    /// move out reaches a loss), a loss at 1 (every move leaves the unit into a win). Returns
    /// the positions resolved at 0 and at 1.
    fn init(&mut self) -> Result<(Vec<u64>, Vec<u64>), Error> {
        let me: &Unit = self;
        let found: Result<Vec<(u64, Init)>, Error> = (0..me.cells.len())
            .into_par_iter()
            .with_min_len(1 << 12)
            .filter_map(|id| {
                let id = id as u64;
                let pos = me.position(id)?;
                Some(me.init_one(id, &pos).map(|init| (id, init)))
            })
            .filter(|found| !matches!(found, Ok((_, Init::Open))))
            .collect();
        let found = found?;
        let (mut finished, mut first) = (Vec::new(), Vec::new());
        for (id, init) in found {
            match init {
                Init::NeverLost => self.never_lost[id as usize] = true,
                Init::Finished => finished.push(id),
                Init::One => first.push(id),
                Init::NeverLostOne => {
                    self.never_lost[id as usize] = true;
                    first.push(id);
                }
                Init::Open => {}
            }
        }
        Ok((finished, first))
    }

    /// [`Unit::init`] for one position.
    fn init_one(&self, id: u64, pos: &Position) -> Result<Init, Error> {
        let mut quiet: Vec<u64> = Vec::new();
        let (mut moves, mut exit_win, mut exit_draw) = (0u32, false, false);
        let mut fault = None;
        for_each_move(self.variant, pos, |mv| {
            moves += 1;
            let child = play(pos, mv);
            if too_few_pieces(&child) {
                exit_win = true;
            } else if let Some(c) = self.id(&child) {
                quiet.push(c);
            } else if fault.is_none() {
                // The outcome for a fresh counter: units come dependencies first, so the
                // child's sector has been analysed.
                match self
                    .analysed
                    .rule_value(self.db, &child)
                    .map(RuleValue::outcome)
                {
                    Ok(Outcome::Loss) => exit_win = true,
                    Ok(Outcome::Win) => {}
                    Ok(Outcome::Draw) => exit_draw = true,
                    Err(e) => fault = Some(e),
                }
            }
        });
        if let Some(e) = fault {
            return Err(e);
        }
        quiet.sort_unstable();
        quiet.dedup();
        let i = id as usize;
        self.children[i].store(quiet.len() as u16, Ordering::Relaxed);
        if moves == 0 {
            if let Value::Loss(_) = value_without_moves(self.variant, pos) {
                self.cells[i].store(LOSS, Ordering::Relaxed);
                return Ok(Init::Finished);
            }
            return Ok(Init::NeverLost);
        }
        Ok(match (exit_win, exit_draw) {
            (true, never) => {
                self.cells[i].store(1, Ordering::Relaxed);
                if never {
                    Init::NeverLostOne
                } else {
                    Init::One
                }
            }
            (false, true) => Init::NeverLost,
            (false, false) if quiet.is_empty() => {
                self.cells[i].store(LOSS | 1, Ordering::Relaxed);
                Init::One
            }
            (false, false) => Init::Open,
        })
    }

    /// Resolves levels 1 to `n` from the positions resolved at 0 (`finished`) and those the
    /// moves out of the unit resolved at 1 (`first`): each level's positions tell their quiet
    /// predecessors, which resolves the next level.
    fn levels(&self, n: u16, finished: Vec<u64>, mut first: Vec<u64>) {
        let mut frontier = finished;
        for k in 0..n {
            let mut next: Vec<u64> = frontier
                .par_iter()
                .with_min_len(1 << 8)
                .flat_map_iter(|&id| self.tell_predecessors(id, k + 1))
                .collect();
            if k == 0 {
                next.append(&mut first);
            }
            if next.is_empty() {
                break;
            }
            frontier = next;
        }
    }

    /// Tells the quiet predecessors of position `id` (resolved at `level - 1`) what it is;
    /// returns those that it resolves at `level`.
    fn tell_predecessors(&self, id: u64, level: u16) -> Vec<u64> {
        let Some(pos) = self.position(id) else {
            return Vec::new();
        };
        let lost = self.cells[id as usize].load(Ordering::Relaxed) & LOSS != 0;
        let mut before: Vec<u64> = Vec::new();
        for_each_unmove_with(self.variant, &pos, false, |prev, _| {
            if let Some(p) = self.id(&prev) {
                before.push(p);
            }
        });
        before.sort_unstable();
        before.dedup();
        before.retain(|&p| {
            let cell = &self.cells[p as usize];
            if lost {
                cell.compare_exchange(NONE, level, Ordering::Relaxed, Ordering::Relaxed)
                    .is_ok()
            } else {
                let left = self.children[p as usize].fetch_sub(1, Ordering::Relaxed) - 1;
                left == 0
                    && !self.never_lost[p as usize]
                    && cell
                        .compare_exchange(NONE, LOSS | level, Ordering::Relaxed, Ordering::Relaxed)
                        .is_ok()
            }
        });
        before
    }
}

/// What a position's moves decide before the levels.
enum Init {
    /// Nothing yet.
    Open,
    /// Never a loss under the rule, nothing more known yet.
    NeverLost,
    /// A loss at 0: the game is over.
    Finished,
    /// Resolved at 1.
    One,
    /// A win at 1 that could never have been a loss.
    NeverLostOne,
}
