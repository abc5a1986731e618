//! The order of work units: which are ready, which goes next, and what N workers would take.
//!
//! A plan ([`crate::space::plan`]) lists the work units dependencies first; a unit may be
//! solved once every unit it reads is done. [`Schedule`] holds that ready set and always hands
//! out the ready unit with the longest chain of work still behind it (its *tail*: its own cost
//! plus the most costly chain of units that wait for it, directly or not), ties going to the
//! earlier unit of the plan. The single-process solve, rank 0 of an MPI run and the simulation
//! all draw units from it, so they take the same decisions in the same order.
//!
//! Costs come from a [`CostModel`] (seconds per index slot, measured, by kind of unit) or from
//! recorded timings; [`simulate`] replays them for N workers and [`UnitGraph::critical_path`]
//! gives the chain of units that no number of workers shortens.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};

use super::sector::{Sector, WorkUnit};
use crate::rules::Variant;

/// Which units each unit of a plan reads, and which read it.
#[derive(Clone, Debug)]
pub struct UnitGraph {
    dependencies: Vec<Vec<usize>>,
    dependents: Vec<Vec<usize>>,
}

impl UnitGraph {
    /// The graph of a plan (dependencies first, as [`crate::space::plan`] orders it).
    ///
    /// # Panics
    /// When `units` is not a plan: a unit's move leads to a sector outside `units`, or to a
    /// unit listed after it.
    pub fn new(variant: &Variant, units: &[WorkUnit]) -> UnitGraph {
        let unit_of: BTreeMap<Sector, usize> = units
            .iter()
            .enumerate()
            .flat_map(|(i, u)| u.sectors.iter().map(move |&s| (s, i)))
            .collect();
        let mut dependencies = vec![Vec::new(); units.len()];
        let mut dependents = vec![Vec::new(); units.len()];
        for (i, unit) in units.iter().enumerate() {
            let reads: BTreeSet<usize> = unit
                .sectors
                .iter()
                .flat_map(|s| s.successors(variant))
                .map(|s| match unit_of.get(&s) {
                    Some(&j) => j,
                    None => panic!("sector {s} is reached from the plan but not in it"),
                })
                .filter(|&j| j != i)
                .collect();
            for &j in &reads {
                assert!(j < i, "unit {i} reads unit {j}, which comes after it");
                dependents[j].push(i);
            }
            dependencies[i] = reads.into_iter().collect();
        }
        UnitGraph {
            dependencies,
            dependents,
        }
    }

    /// The number of units.
    pub fn len(&self) -> usize {
        self.dependencies.len()
    }

    /// Whether the plan is empty.
    pub fn is_empty(&self) -> bool {
        self.dependencies.is_empty()
    }

    /// The units that `unit` reads, in plan order.
    pub fn dependencies(&self, unit: usize) -> &[usize] {
        &self.dependencies[unit]
    }

    /// The units that read `unit`, in plan order.
    pub fn dependents(&self, unit: usize) -> &[usize] {
        &self.dependents[unit]
    }

    /// Each unit's tail: its cost plus the costliest chain of units that wait for it.
    ///
    /// # Panics
    /// When `costs` does not have one entry per unit.
    pub fn tails(&self, costs: &[f64]) -> Vec<f64> {
        assert_eq!(costs.len(), self.len(), "one cost per unit");
        let mut tail = vec![0.0f64; self.len()];
        // Dependents come later in the plan, so a backward sweep sees them first.
        for i in (0..self.len()).rev() {
            let after = self.dependents[i]
                .iter()
                .map(|&d| tail[d])
                .fold(0.0, f64::max);
            tail[i] = costs[i] + after;
        }
        tail
    }

    /// The critical path: the costliest chain of units each of which reads the one before,
    /// first unit first, and its cost. No number of workers solves the plan faster.
    pub fn critical_path(&self, costs: &[f64]) -> (Vec<usize>, f64) {
        let tail = self.tails(costs);
        let Some(mut at) = longest(0..self.len(), &tail) else {
            return (Vec::new(), 0.0);
        };
        let total = tail[at];
        let mut path = vec![at];
        while let Some(next) = longest(self.dependents[at].iter().copied(), &tail) {
            path.push(next);
            at = next;
        }
        (path, total)
    }
}

/// The unit with the longest tail, the first one on ties.
fn longest(units: impl Iterator<Item = usize>, tail: &[f64]) -> Option<usize> {
    units.fold(None, |best, u| match best {
        Some(b) if tail[b] >= tail[u] => Some(b),
        _ => Some(u),
    })
}

/// Where a unit stands in a [`Schedule`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitState {
    /// Some unit it reads is not done.
    Waiting,
    /// Everything it reads is done; it may be handed out.
    Ready,
    /// Handed out, not yet done.
    Running,
    /// Solved (now or by an earlier run).
    Done,
}

/// The ready set of a plan: hands out units whose dependencies are done, longest tail first.
#[derive(Clone, Debug)]
pub struct Schedule {
    dependents: Vec<Vec<usize>>,
    /// Dependencies not yet done, per unit.
    missing: Vec<usize>,
    state: Vec<UnitState>,
    /// Tails as ordered bits (costs are finite and non-negative, so the bits of an `f64`
    /// order as its value), largest first, then plan order.
    key: Vec<Reverse<u64>>,
    ready: BTreeSet<(Reverse<u64>, usize)>,
    done: usize,
}

impl Schedule {
    /// A schedule of every unit of `graph`, none done yet, with each unit's cost (any unit of
    /// time; only the order they imply matters).
    ///
    /// # Panics
    /// When `costs` does not have one finite, non-negative entry per unit.
    pub fn new(graph: &UnitGraph, costs: &[f64]) -> Schedule {
        assert!(
            costs.iter().all(|c| c.is_finite() && *c >= 0.0),
            "costs must be finite and non-negative"
        );
        let key = graph
            .tails(costs)
            .into_iter()
            .map(|t| Reverse(t.to_bits()))
            .collect::<Vec<_>>();
        let missing: Vec<usize> = graph.dependencies.iter().map(Vec::len).collect();
        let mut state = vec![UnitState::Waiting; graph.len()];
        let mut ready = BTreeSet::new();
        for (i, &m) in missing.iter().enumerate() {
            if m == 0 {
                state[i] = UnitState::Ready;
                ready.insert((key[i], i));
            }
        }
        Schedule {
            dependents: graph.dependents.clone(),
            missing,
            state,
            key,
            ready,
            done: 0,
        }
    }

    /// The ready unit with the longest tail, now running; `None` when no unit is ready (all
    /// done, or every remaining one waits for a running one).
    pub fn next_unit(&mut self) -> Option<usize> {
        let (_, unit) = self.ready.pop_first()?;
        self.state[unit] = UnitState::Running;
        Some(unit)
    }

    /// Marks `unit` done, whatever its state (a unit found solved on disk may be waiting or
    /// ready), and readies the units that waited only for it. Marking it again does nothing.
    pub fn done(&mut self, unit: usize) {
        match self.state[unit] {
            UnitState::Done => return,
            UnitState::Ready => {
                self.ready.remove(&(self.key[unit], unit));
            }
            UnitState::Waiting | UnitState::Running => {}
        }
        self.state[unit] = UnitState::Done;
        self.done += 1;
        for &d in &self.dependents[unit] {
            self.missing[d] -= 1;
            if self.missing[d] == 0 && self.state[d] == UnitState::Waiting {
                self.state[d] = UnitState::Ready;
                self.ready.insert((self.key[d], d));
            }
        }
    }

    /// Where `unit` stands.
    pub fn state(&self, unit: usize) -> UnitState {
        self.state[unit]
    }

    /// How many units are done.
    pub fn done_count(&self) -> usize {
        self.done
    }

    /// How many units are ready to be handed out.
    pub fn ready_count(&self) -> usize {
        self.ready.len()
    }

    /// Whether every unit is done.
    pub fn is_finished(&self) -> bool {
        self.done == self.state.len()
    }
}

/// What `workers` identical workers take to solve a plan of units with `costs`, each worker
/// taking the next unit of the [`Schedule`] as soon as it is free (ties: lower worker first;
/// units finishing together are marked done in plan order).
///
/// # Panics
/// When `workers` is 0, or as [`Schedule::new`].
pub fn simulate(graph: &UnitGraph, costs: &[f64], workers: usize) -> f64 {
    assert!(workers > 0, "at least one worker");
    let mut schedule = Schedule::new(graph, costs);
    let mut now = 0.0f64;
    // (finish time, unit) of the running units.
    let mut running: Vec<(f64, usize)> = Vec::with_capacity(workers);
    loop {
        while running.len() < workers {
            match schedule.next_unit() {
                Some(u) => running.push((now + costs[u], u)),
                None => break,
            }
        }
        let Some(first) = running.iter().map(|r| r.0).reduce(f64::min) else {
            break;
        };
        now = first;
        let mut finished: Vec<usize> = running
            .iter()
            .filter(|r| r.0 == first)
            .map(|r| r.1)
            .collect();
        finished.sort_unstable();
        running.retain(|r| r.0 != first);
        for u in finished {
            schedule.done(u);
        }
    }
    debug_assert!(schedule.is_finished());
    now
}

/// The disk a one-process solve of a plan holds at its highest, in bytes, taking units in the
/// [`Schedule`]'s order: `bytes[u]` is what unit `u`'s sector files hold. With `compact`, the
/// ratio of a sector's tables to its file, each unit is turned into tables (and its files
/// removed) as soon as every unit that reads it is solved, its tables and files both on disk
/// while it is turned. Returns the peak and what the disk holds at the end.
///
/// # Panics
/// As [`Schedule::new`], and when `bytes` does not have one entry per unit.
pub fn disk_peak(
    graph: &UnitGraph,
    costs: &[f64],
    bytes: &[u64],
    compact: Option<f64>,
) -> (u64, u64) {
    assert_eq!(bytes.len(), graph.len(), "one size per unit");
    let mut schedule = Schedule::new(graph, costs);
    let mut readers_left: Vec<usize> = graph.dependents.iter().map(Vec::len).collect();
    let (mut raw, mut tables, mut peak) = (0u64, 0u64, 0u64);
    while let Some(u) = schedule.next_unit() {
        schedule.done(u);
        raw += bytes[u];
        peak = peak.max(raw + tables);
        let Some(ratio) = compact else {
            continue;
        };
        let mut turned = Vec::new();
        for &d in &graph.dependencies[u] {
            readers_left[d] -= 1;
            if readers_left[d] == 0 {
                turned.push(d);
            }
        }
        if readers_left[u] == 0 {
            turned.push(u);
        }
        for t in turned {
            tables += (bytes[t] as f64 * ratio).ceil() as u64;
            peak = peak.max(raw + tables);
            raw -= bytes[t];
        }
    }
    (peak, raw + tables)
}

/// Seconds per slot of turning a sector into its tables: `tables` of Morabaraba's endgames up
/// to six pieces a side, 454 MB of sector files (a byte a slot) in 50.1 s (2-core AMD EPYC VM,
/// two threads, alone on the machine; `docs/distributed.md` §5).
const TURNING_PER_SLOT: f64 = 0.110e-6;

/// The time of turning a sector into its tables with its depth blocks at zstd level `level`,
/// relative to level 12, the win/draw/loss blocks at 19: most of it is the depth blocks'
/// compression. Measured with `tables` on Morabaraba's 6-6-0-0 (163 M slots) and, at 6, 9
/// and 12, 4-10-0-0 (140 M), two threads (`docs/performance.md`, compact tables); linear
/// between the levels measured, and taken as at 19 above it.
fn turning_factor(level: i32) -> f64 {
    const MEASURED: [(i32, f64); 7] = [
        (1, 0.32),
        (3, 0.43),
        (6, 0.47),
        (9, 0.67),
        (12, 1.0),
        (15, 1.17),
        (19, 1.76),
    ];
    let (first, last) = (MEASURED[0], MEASURED[MEASURED.len() - 1]);
    if level <= first.0 {
        return first.1;
    }
    MEASURED
        .windows(2)
        .find(|w| level <= w[1].0)
        .map(|w| {
            let ((a, fa), (b, fb)) = (w[0], w[1]);
            fa + (fb - fa) * f64::from(level - a) / f64::from(b - a)
        })
        .unwrap_or(last.1)
}

/// Seconds per index slot by kind of unit, measured: the wall time of one worker (a process
/// using all its threads) on the machine the rates were measured on.
///
/// A forward-only unit (placement sectors) reads every child from another sector's file, so
/// its cost per slot hardly depends on the pieces. A cyclic unit's cost grows with the pieces
/// on the board (more retrograde levels, more of the working state out of cache) and with a
/// flying side (three pieces flying to any empty point have many more moves and un-moves).
#[derive(Clone, Debug, PartialEq)]
pub struct CostModel {
    /// What the rates are: the machine, the threads and where the numbers come from.
    pub source: &'static str,
    /// Seconds per slot of a forward-only unit.
    pub forward: f64,
    /// Seconds per slot of a cyclic unit without a flying side, by the most pieces one side
    /// has on the board (`cyclic[k]` for k pieces); the last entry serves for more pieces.
    pub cyclic: Vec<f64>,
    /// As `cyclic`, for units where a side of three pieces flies.
    pub flying: Vec<f64>,
    /// As `cyclic`, for units with pieces in hand (Lasker's rules: place or move), whose
    /// placements all lead out of the unit: their children pass is most of them, and their
    /// cost per slot grows far less with the pieces than a moving unit's.
    pub mixed: Vec<f64>,
    /// Seconds each unit costs besides its slots (opening files, starting threads).
    pub per_unit: f64,
    /// The bytes of a sector's two tables over those of its sector file, for the disk a
    /// compact solve holds.
    pub tables_ratio: f64,
    /// Seconds per slot of turning a sector into its tables (`solve --compact`).
    pub turning: f64,
}

impl CostModel {
    /// The rates of the current solver on the project's reference machine (a 2-core Intel Xeon
    /// virtual machine, two threads), fitted to the unit times of nine's whole standard solve
    /// (`data/results/nine-standard-solve-cost-model.log`): per kind of unit, its seconds over its
    /// slots; Lasker's mixed units from its own. Pieces beyond 9 take the rate of 9.
    /// See `docs/distributed.md` for the fit and its error.
    pub fn reference() -> CostModel {
        const US: f64 = 1e-6;
        CostModel {
            source: "the reference machine's measured rates (2-core Intel Xeon VM, 2 threads, fitted to data/results/nine-standard-solve-cost-model.log, and Lasker's units with pieces in hand to lasker-standard-compact-solve.log)",
            forward: 0.092 * US,
            // 3..=9 pieces; 3 pieces a side always fly under nine's rules, so sliding 3 takes
            // the rate of 4.
            cyclic: vec![
                0.0,
                0.0,
                0.0,
                0.045 * US,
                0.045 * US,
                0.056 * US,
                0.118 * US,
                0.272 * US,
                0.330 * US,
                0.355 * US,
            ],
            // The 3-3 unit (210 K slots) is mostly its per-unit cost; it takes the rate of 3-4.
            flying: vec![
                0.0,
                0.0,
                0.0,
                0.150 * US,
                0.150 * US,
                0.191 * US,
                0.242 * US,
                0.479 * US,
                0.542 * US,
                0.512 * US,
            ],
            // Lasker's units with pieces in hand up to 7 pieces (`solve --sector 6-7-1-0`, the
            // first sitting of its whole run: 986 M slots of 7 pieces, 777 M of 6, 124 M of 5;
            // data/results/lasker-standard-compact-solve.log), measured on a 2-core AMD EPYC VM
            // and brought to the reference machine's scale by the same sitting's moving units, which took
            // 0.80 of their times in nine's log. 3 pieces take the rate of 4; 8 and 9 grow by
            // 7's step over 6 (not measured yet).
            mixed: vec![
                0.0,
                0.0,
                0.0,
                0.238 * US,
                0.238 * US,
                0.265 * US,
                0.316 * US,
                0.358 * US,
                0.400 * US,
                0.442 * US,
            ],
            per_unit: 0.05,
            // Nine's whole tables over its database (data/results/nine-standard-tables.json:
            // 10.91 GB of 27.84 GB); seven's are 0.35, six's 0.44.
            tables_ratio: 0.392,
            turning: TURNING_PER_SLOT,
        }
    }

    /// The modelled seconds of `unit`, which has `slots` index slots, under `variant`.
    pub fn seconds(&self, variant: &Variant, unit: &WorkUnit, slots: u64) -> f64 {
        let rate = if unit.cyclic {
            let pieces = unit
                .sectors
                .iter()
                .map(|s| s.mover.max(s.opponent) as usize)
                .max()
                .unwrap_or(0);
            let rules = variant.rules();
            let flies = unit.sectors.iter().any(|s| {
                let moving = |hand: u8| rules.may_move(hand);
                (moving(s.mover_hand) && rules.flies((s.mover + s.mover_hand) as u32))
                    || (moving(s.opponent_hand)
                        && rules.flies((s.opponent + s.opponent_hand) as u32))
            });
            let table = if !unit.sectors.iter().all(Sector::is_moving) {
                &self.mixed
            } else if flies {
                &self.flying
            } else {
                &self.cyclic
            };
            table[pieces.min(table.len() - 1)]
        } else {
            self.forward
        };
        self.per_unit + rate * slots as f64
    }

    /// The modelled seconds of turning a unit of `slots` index slots into tables, its depth
    /// blocks compressed at zstd level `depth_level` (`tables --depth-level`; the model's rate
    /// is at the default, 12, with the win/draw/loss blocks at 19).
    pub fn turning_seconds(&self, slots: u64, depth_level: i32) -> f64 {
        self.turning * turning_factor(depth_level) * slots as f64
    }

    /// The modelled seconds of every unit of a plan; `slots` gives a sector's index size.
    pub fn costs(
        &self,
        variant: &Variant,
        units: &[WorkUnit],
        slots: impl Fn(Sector) -> u64,
    ) -> Vec<f64> {
        units
            .iter()
            .map(|u| self.seconds(variant, u, u.sectors.iter().map(|&s| slots(s)).sum()))
            .collect()
    }
}
