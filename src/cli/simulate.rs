//! `solve --simulate-workers`: the plan's units replayed for N workers through the schedule.

use std::collections::BTreeMap;
use std::process::ExitCode;

use morris::space::{CostModel, UnitGraph};
use morris::{Database, WorkUnit};

use super::args::SolveArgs;
use super::output::{bad_input, Failure, Out};
use super::units::{slots, solve_options};

/// `solve --plan --simulate-workers N,...`: the critical path, then the wall time of each
/// number of workers, replaying the units' costs through the schedule every solve follows.
pub fn simulate(db: &Database, units: &[WorkUnit], args: &SolveArgs) -> Result<ExitCode, Failure> {
    let variant = db.variant();
    let model = CostModel::reference();
    let mut costs = model.costs(variant, units, |s| db.index(s).size());
    if let Some(options) = solve_options(args).compact {
        // Each unit's sectors are turned into tables by a worker, after their last reader.
        for (c, u) in costs.iter_mut().zip(units) {
            *c += model.turning_seconds(slots(db, u), options.depth_level);
        }
    }
    let mut recorded = 0;
    let mut source = String::new();
    if let Some(path) = &args.unit_times {
        let text = std::fs::read(path)
            .map_err(|e| bad_input(format!("--unit-times {}: {e}", path.display())))?;
        let times = recorded_times(&String::from_utf8_lossy(&text));
        for (i, u) in units.iter().enumerate() {
            if let Some(&t) = times.get(&u.to_string()) {
                costs[i] = t;
                recorded += 1;
            }
        }
        source = format!("{recorded} from {}, ", path.display());
    }
    let graph = UnitGraph::new(variant, units);
    let total: f64 = costs.iter().sum();
    let (path, critical) = graph.critical_path(&costs);
    let all_slots: u64 = units.iter().map(|u| slots(db, u)).sum();
    let mut out = Out::new();
    out.line(format_args!(
        "simulated {} work units, {all_slots} index slots; unit costs: {source}{} from the cost model ({})",
        units.len(),
        units.len() - recorded,
        model.source
    ))?;
    out.line(format_args!(
        "total work {}; critical path {} units, {} ({:.1}% of the work), which no number of workers shortens:",
        human(total),
        path.len(),
        human(critical),
        100.0 * critical / total.max(f64::MIN_POSITIVE)
    ))?;
    out.line(format_args!(
        "  {:>10}  {:>14}  {:<8}  unit",
        "cost", "slots", "kind"
    ))?;
    for &u in &path {
        out.line(format_args!(
            "  {:>10}  {:>14}  {:<8}  {}",
            human(costs[u]),
            slots(db, &units[u]),
            if units[u].cyclic { "cyclic" } else { "forward" },
            units[u]
        ))?;
    }
    out.line(format_args!(
        "{:>7}  {:>10}  {:>8}  {:>10}",
        "workers", "wall", "speed-up", "efficiency"
    ))?;
    for &n in &args.simulate_workers {
        let wall = morris::space::simulate(&graph, &costs, n);
        let speedup = total / wall.max(f64::MIN_POSITIVE);
        out.line(format_args!(
            "{n:>7}  {:>10}  {speedup:>8.2}  {:>9.1}%",
            human(wall),
            100.0 * speedup / n as f64
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Seconds for people: `12.3 s`, `45.6 min`, `4.53 h`.
pub fn human(seconds: f64) -> String {
    if seconds < 100.0 {
        format!("{seconds:.2} s")
    } else if seconds < 6000.0 {
        format!("{:.1} min", seconds / 60.0)
    } else {
        format!("{:.2} h", seconds / 3600.0)
    }
}

/// The seconds per unit that a log of `solve` records in its [`solved_line`]s, by the unit's
/// sectors (the last line of a unit wins); other lines are skipped. Lines may carry a prefix
/// (`[rank 2 +3.1s] solved ...`).
fn recorded_times(log: &str) -> BTreeMap<String, f64> {
    log.lines()
        .filter_map(|line| {
            let rest = &line[line.find("solved ")? + "solved ".len()..];
            let (name, rest) = rest.split_once(" (")?;
            let (_, rest) = rest.split_once(" slots) in ")?;
            let (time, _) = rest.split_once(':')?;
            Some((name.to_string(), parse_duration(time)?))
        })
        .collect()
}

/// Seconds of a duration as `{:.2?}` prints it: `464.54ms`, `2.24s`, `12.00µs`, `900ns`.
fn parse_duration(text: &str) -> Option<f64> {
    let split = text.find(|c: char| !(c.is_ascii_digit() || c == '.'))?;
    let (number, unit) = text.split_at(split);
    let scale = match unit {
        "s" => 1.0,
        "ms" => 1e-3,
        "µs" | "us" => 1e-6,
        "ns" => 1e-9,
        _ => return None,
    };
    Some(number.parse::<f64>().ok()? * scale)
}
