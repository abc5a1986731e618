//! What solving a missing sector costs (`solve_cost` in `GET /api/explore`), worked out once.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::sync::Mutex;
use std::time::SystemTime;

use super::answer::{solve_command, whole_game_command};
use crate::error::Missing;
use crate::query::wire::{CheaperSolveJson, SolveCostJson};
use crate::space::{endgame_roots, plan, CostModel, Sector, WorkUnit};
use crate::store::Database;

/// The most modelled seconds a `cheaper` solve may take: about what someone waits for.
const CHEAPER_SECONDS: f64 = 60.0;

/// The costs worked out for one rule set, by sector, each with the stamp of the rule set's
/// folder when it was worked out.
///
/// A plan of nine is a few hundred units, and `cheaper` plans the game once per piece count:
/// milliseconds, too many for every click of the explorer. A cost stays until the folder's
/// modification time changes, which it does when a solve adds a sector file (by rename).
#[derive(Debug, Default)]
pub(super) struct SolveCosts {
    known: Mutex<HashMap<Sector, (Option<SystemTime>, SolveCostJson)>>,
}

impl SolveCosts {
    /// What solving `m.sector` of `db` costs, from the cache while the folder is unchanged.
    pub(super) fn of(&self, db: &Database, m: &Missing) -> SolveCostJson {
        // No folder yet (nothing solved) is a stamp too: creating it changes it.
        let stamp = fs::metadata(db.dir()).and_then(|d| d.modified()).ok();
        let known = |k: &HashMap<Sector, (Option<SystemTime>, SolveCostJson)>| {
            k.get(&m.sector)
                .filter(|(s, _)| *s == stamp)
                .map(|(_, c)| c.clone())
        };
        if let Some(c) = known(&self.lock()) {
            return c;
        }
        // Worked out without the lock: two first asks at once both work, neither waits.
        let cost = solve_cost(db, m);
        self.lock().insert(m.sector, (stamp, cost.clone()));
        cost
    }

    fn lock(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<Sector, (Option<SystemTime>, SolveCostJson)>> {
        self.known.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Work units still to solve, their index slots and modelled seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Remaining {
    units: usize,
    slots: u64,
    seconds: f64,
}

/// The units of `units` not all of whose sectors are `present`, as `morris solve` would solve
/// them: slots as `solve --plan` counts them, seconds by the reference machine's model.
fn remaining(db: &Database, units: &[WorkUnit], present: &HashSet<Sector>) -> Remaining {
    let model = CostModel::reference();
    let mut r = Remaining {
        units: 0,
        slots: 0,
        seconds: 0.0,
    };
    for u in units {
        if u.sectors.iter().all(|s| present.contains(s)) {
            continue;
        }
        let slots: u64 = u.sectors.iter().map(|&s| db.index(s).size()).sum();
        r.units += 1;
        r.slots += slots;
        r.seconds += model.seconds(db.variant(), u, slots);
    }
    r
}

/// Seconds to a tenth: the model is not finer, and the JSON reads better.
fn tenths(seconds: f64) -> f64 {
    (seconds * 10.0).round() / 10.0
}

/// The cost of solving `m.sector` and, where it is over a minute, of the largest endgames that
/// fit one.
fn solve_cost(db: &Database, m: &Missing) -> SolveCostJson {
    let present: HashSet<Sector> = db.present().into_iter().collect();
    let r = remaining(db, &plan(db.variant(), &[m.sector]), &present);
    SolveCostJson {
        sector: m.sector.to_string(),
        command: solve_command(m),
        units: r.units,
        slots: r.slots,
        // One byte per slot: the cell of a sector whose depths fit one byte.
        bytes: r.slots,
        seconds: tenths(r.seconds),
        cheaper: match r.seconds > CHEAPER_SECONDS {
            true => cheaper(db, m, &present),
            false => None,
        },
    }
}

/// The largest `--max-pieces K` (3 ≤ K < the sector's pieces a side) whose remaining units
/// take at most a minute; `None` when there is none, or when it leaves nothing to solve.
fn cheaper(db: &Database, m: &Missing, present: &HashSet<Sector>) -> Option<CheaperSolveJson> {
    let variant = db.variant();
    let s = m.sector;
    let pieces = (s.mover + s.mover_hand).max(s.opponent + s.opponent_hand);
    let (k, r) = (3..pieces).rev().find_map(|k| {
        let r = remaining(db, &plan(variant, &endgame_roots(variant, k)), present);
        (r.seconds <= CHEAPER_SECONDS).then_some((k, r))
    })?;
    if r.units == 0 {
        return None;
    }
    Some(CheaperSolveJson {
        max_pieces: k,
        command: format!("{} --max-pieces {k}", whole_game_command(m)),
        units: r.units,
        slots: r.slots,
        bytes: r.slots,
        seconds: tenths(r.seconds),
    })
}
