//! The schedule every solve follows: dependencies first, longest tail first, the same order
//! in one process as in the simulation; the simulation's bounds; `solve --simulate-workers`.

mod common;

use std::fs;
use std::sync::Mutex;

use common::{output_text, run_morris, scratch};
use morris::solve::unit_costs;
use morris::space::{disk_peak, simulate, CostModel, Schedule, UnitGraph, UnitState};
use morris::space::{plan, Sector, WorkUnit};
use morris::store::Database;
use morris::Variant;
use morris::{solve, Progress, UnitTimes};

fn whole_plan(name: &str) -> (Variant, Vec<WorkUnit>) {
    let v = Variant::by_name(name).unwrap();
    let units = plan(&v, &[Sector::start(&v)]);
    (v, units)
}

/// Costs from the model, with index sizes from a database of the variant.
fn model_costs(v: &Variant, units: &[WorkUnit]) -> Vec<f64> {
    let db = Database::new(&scratch(&format!("costs-{}", v.name())), v).unwrap();
    unit_costs(&db, units)
}

/// Draws every unit from a fresh schedule, one at a time, as a single process does.
fn order(graph: &UnitGraph, costs: &[f64]) -> Vec<usize> {
    let mut s = Schedule::new(graph, costs);
    let mut out = Vec::new();
    while let Some(u) = s.next_unit() {
        assert_eq!(s.state(u), UnitState::Running);
        out.push(u);
        s.done(u);
    }
    assert!(s.is_finished());
    out
}

#[test]
fn every_unit_comes_once_after_its_dependencies_in_the_same_order_every_time() {
    for name in ["nine", "lasker", "morabaraba", "six", "three"] {
        let (v, units) = whole_plan(name);
        let graph = UnitGraph::new(&v, &units);
        let costs = model_costs(&v, &units);
        let first = order(&graph, &costs);
        assert_eq!(first.len(), units.len(), "{name}");
        let mut seen = vec![false; units.len()];
        for &u in &first {
            assert!(!seen[u], "{name}: unit {u} twice");
            for &d in graph.dependencies(u) {
                assert!(seen[d], "{name}: unit {u} before its dependency {d}");
            }
            seen[u] = true;
        }
        assert_eq!(first, order(&graph, &costs), "{name}: not deterministic");
        // Dependencies and dependents mirror each other.
        for u in 0..graph.len() {
            for &d in graph.dependencies(u) {
                assert!(graph.dependents(d).contains(&u));
            }
        }
    }
}

#[test]
fn the_ready_unit_with_the_longest_tail_goes_first_and_done_units_release_theirs() {
    let (v, units) = whole_plan("nine");
    let graph = UnitGraph::new(&v, &units);
    let costs = model_costs(&v, &units);
    let tails = graph.tails(&costs);
    let mut s = Schedule::new(&graph, &costs);
    // Only 3-3-0-0 reads nothing.
    assert_eq!(s.ready_count(), 1);
    let first = s.next_unit().unwrap();
    assert_eq!(units[first].sectors[0].to_string(), "3-3-0-0");
    assert_eq!(s.next_unit(), None, "everything else waits for 3-3-0-0");
    s.done(first);
    // Whenever several are ready, the one handed out has the longest tail.
    let mut handed = 0;
    while !s.is_finished() {
        let mut ready = Vec::new();
        while let Some(u) = s.next_unit() {
            ready.push(u);
        }
        for w in ready.windows(2) {
            assert!(
                tails[w[0]] > tails[w[1]] || (tails[w[0]] == tails[w[1]] && w[0] < w[1]),
                "{:?} before {:?}",
                units[w[0]].sectors,
                units[w[1]].sectors
            );
        }
        handed += ready.len();
        for u in ready {
            s.done(u);
        }
    }
    assert_eq!(handed + 1, units.len());

    // A unit found solved on disk counts as done whatever its state, once.
    let mut s = Schedule::new(&graph, &costs);
    let last = units.len() - 1;
    s.done(last);
    s.done(last);
    assert_eq!(s.done_count(), 1);
    assert_eq!(s.state(last), UnitState::Done);
    assert_eq!(order(&graph, &costs).len(), units.len());
}

#[test]
fn the_simulation_keeps_its_bounds() {
    for name in ["nine", "lasker", "six"] {
        let (v, units) = whole_plan(name);
        let graph = UnitGraph::new(&v, &units);
        let costs = model_costs(&v, &units);
        let total: f64 = costs.iter().sum();
        let (path, critical) = graph.critical_path(&costs);
        // The path is a chain: each unit reads the one before.
        for w in path.windows(2) {
            assert!(graph.dependencies(w[1]).contains(&w[0]), "{name}");
        }
        let sum: f64 = path.iter().map(|&u| costs[u]).sum();
        assert!((sum - critical).abs() <= 1e-9 * critical, "{name}");
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.max(1.0);
        assert!(close(simulate(&graph, &costs, 1), total), "{name}");
        // With a worker per unit, every unit starts when its last dependency ends.
        assert!(
            close(simulate(&graph, &costs, units.len()), critical),
            "{name}"
        );
        for n in [2, 3, 4, 8, 16, 64] {
            let wall = simulate(&graph, &costs, n);
            let lower = (total / n as f64).max(critical);
            // Graham's bound for list scheduling.
            let upper = total / n as f64 + critical;
            assert!(wall >= lower * (1.0 - 1e-9), "{name} {n}: {wall} < {lower}");
            assert!(wall <= upper * (1.0 + 1e-9), "{name} {n}: {wall} > {upper}");
        }
    }
}

#[test]
fn the_cost_model_charges_what_it_measured() {
    let model = CostModel::reference();
    let v = Variant::by_name("nine").unwrap();
    let unit = |text: &[&str], cyclic| WorkUnit {
        sectors: text.iter().map(|s| s.parse().unwrap()).collect(),
        cyclic,
    };
    // Nine's whole solve (data/results/nine-standard-solve-cost-model.log): 6-6-1-0, 162.9 M
    // slots forward, in 14.4 s; 7-7-0-0, 431.5 M, in 137.0 s; 8-8-0-0, 603.3 M, in 258.4 s.
    let forward = model.seconds(&v, &unit(&["6-6-1-0"], false), 162_880_536);
    assert!((12.0..17.0).contains(&forward), "{forward}");
    let cyclic = model.seconds(&v, &unit(&["7-7-0-0"], true), 431_512_224);
    assert!((110.0..140.0).contains(&cyclic), "{cyclic}");
    let eight = model.seconds(&v, &unit(&["8-8-0-0"], true), 603_332_730);
    assert!((190.0..270.0).contains(&eight), "{eight}");
    // A flying side costs more than sliding ones.
    let flying = model.seconds(&v, &unit(&["3-7-0-0", "7-3-0-0"], true), 33_460_080);
    let sliding = model.seconds(&v, &unit(&["4-7-0-0", "7-4-0-0"], true), 33_460_080);
    assert!(flying > sliding);
}

/// Records the units a solve begins, in order.
#[derive(Default)]
struct Recorder(Mutex<Vec<Vec<Sector>>>);

impl Progress for Recorder {
    fn unit(&self, unit: &WorkUnit, _: usize, _: usize, done: bool) {
        if !done {
            self.0.lock().unwrap().push(unit.sectors.clone());
        }
    }
    fn unit_solved(&self, _: &WorkUnit, _: &UnitTimes) {}
}

#[test]
fn a_single_process_solves_in_the_schedules_order() {
    let v = Variant::by_name("five").unwrap();
    let db = Database::new(&scratch("schedule-order"), &v).unwrap();
    let roots = [Sector::start(&v)];
    let units = plan(&v, &roots);
    let graph = UnitGraph::new(&v, &units);
    let expected: Vec<Vec<Sector>> = order(&graph, &unit_costs(&db, &units))
        .into_iter()
        .map(|u| units[u].sectors.clone())
        .collect();
    let recorder = Recorder::default();
    assert_eq!(solve(&db, &roots, &recorder).unwrap(), units.len());
    assert_eq!(*recorder.0.lock().unwrap(), expected);
    // A second run finds everything done.
    let again = Recorder::default();
    assert_eq!(solve(&db, &roots, &again).unwrap(), 0);
    assert!(again.0.lock().unwrap().is_empty());
}

#[test]
fn simulate_workers_prints_the_critical_path_and_wall_times() {
    let db = scratch("simulate-cli");
    let dbs = db.to_str().unwrap();
    let out = run_morris(
        &[
            "solve",
            "--plan",
            "--simulate-workers",
            "1,2,4,8,16,64",
            "--db",
            dbs,
        ],
        "",
    );
    let text = output_text(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("simulated 297 work units"), "{text}");
    assert!(text.contains("critical path"), "{text}");
    // The path runs from the first unit of the plan to the start.
    let path: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("unit") || !l.contains("kind"))
        .skip(1)
        .take_while(|l| !l.starts_with("workers"))
        .collect();
    assert!(path[0].ends_with("3-3-0-0"), "{text}");
    assert!(path.last().unwrap().ends_with("0-0-9-9"), "{text}");
    let walls: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("workers"))
        .skip(1)
        .collect();
    assert_eq!(walls.len(), 6, "{text}");
    assert!(walls[0].contains("100.0%"), "{text}");

    // Recorded timings replace the model for the units a log lists, prefixed lines included.
    let log = db.join("run.log");
    fs::write(
        &log,
        "=== a header line\n\
         solved 3-3-0-0 (210140 slots) in 464.54ms: children 82.80ms, 27 levels 374.80ms, writing 6.94ms\n\
         [rank 2 +1.0s] solved 4-4-0-0 (3667665 slots) in 30000.00s: children 1.00s, 10 levels 1.00s, writing 1.00ms\n\
         [rank 0 +1.1s] 4-4-0-0 done by rank 2 (2/6 units done)\n",
    )
    .unwrap();
    let out = run_morris(
        &[
            "solve",
            "--max-pieces",
            "5",
            "--simulate-workers",
            "1,2",
            "--unit-times",
            log.to_str().unwrap(),
            "--db",
            dbs,
        ],
        "",
    );
    let text = output_text(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("2 from "), "{text}");
    assert!(text.contains("4 from the cost model"), "{text}");
    // 4-4-0-0 now dominates: it is on the critical path at 8.33 h.
    assert!(
        text.contains("8.33 h") && text.contains("4-4-0-0"),
        "{text}"
    );

    for bad in ["0", "x", "1,,2"] {
        let out = run_morris(&["solve", "--simulate-workers", bad, "--db", dbs], "");
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", output_text(&out));
    }
    let out = run_morris(
        &["solve", "--plan", "--unit-times", "x.log", "--db", dbs],
        "",
    );
    assert_eq!(out.status.code(), Some(2), "{}", output_text(&out));
}

#[cfg(not(feature = "mpi"))]
#[test]
fn without_the_mpi_feature_solve_mpi_says_how_to_get_it() {
    let db = scratch("no-mpi");
    let out = run_morris(
        &[
            "--variant",
            "three",
            "solve",
            "--mpi",
            "--db",
            db.to_str().unwrap(),
        ],
        "",
    );
    let text = output_text(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("--features mpi"), "{text}");
}

/// The disk a compact solve holds, recomputed the slow way at every step of a single
/// process's order (the units solved so far; those whose readers are all solved held as
/// tables, the others as sector files), bounds what `disk_peak` gives; a plain solve's peak
/// is everything, and a compact one ends with the tables alone.
#[test]
fn the_disk_peak_follows_the_units_held_at_each_step() {
    for name in ["nine", "lasker", "six"] {
        let (v, units) = whole_plan(name);
        let graph = UnitGraph::new(&v, &units);
        let costs = model_costs(&v, &units);
        let db = Database::new(&scratch(&format!("peak-{name}")), &v).unwrap();
        let bytes: Vec<u64> = units
            .iter()
            .map(|u| u.sectors.iter().map(|&s| db.index(s).size()).sum())
            .collect();
        let total: u64 = bytes.iter().sum();
        let ratio = 0.4;
        let table = |b: u64| (b as f64 * ratio).ceil() as u64;
        assert_eq!(disk_peak(&graph, &costs, &bytes, None), (total, total));
        let (peak, last) = disk_peak(&graph, &costs, &bytes, Some(ratio));
        assert_eq!(last, bytes.iter().map(|&b| table(b)).sum::<u64>(), "{name}");
        let mut done = vec![false; units.len()];
        let (mut low, mut high) = (0u64, 0u64);
        let mut tables_before = 0;
        for u in order(&graph, &costs) {
            let before = done.clone();
            done[u] = true;
            let turned = |done: &[bool], i: usize| graph.dependents(i).iter().all(|&d| done[d]);
            let (mut raw_before, mut raw_after, mut tables_after) = (0, 0, 0);
            for i in (0..units.len()).filter(|&i| done[i]) {
                if i == u || !turned(&before, i) {
                    raw_before += bytes[i];
                }
                if turned(&done, i) {
                    tables_after += table(bytes[i]);
                } else {
                    raw_after += bytes[i];
                }
            }
            low = low
                .max(raw_after + tables_after)
                .max(raw_before + tables_before);
            high = high.max(raw_before + tables_after);
            tables_before = tables_after;
        }
        assert!(
            low <= peak && peak <= high,
            "{name}: {low} <= {peak} <= {high}"
        );
        assert!(peak < total, "{name}");
    }
}
