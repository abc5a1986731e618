//! `solve --compact`: a solve that turns each sector into its tables as soon as no unit still
//! to solve reads it ends with exactly the tables that `tables` builds from a plain solve's
//! database (every file byte for byte, every value equal), and a compact run killed at any
//! moment resumes to the same bytes.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

mod common;
mod prerequisite;

use common::{morris, scratch, solve_into, text, Rng};
use morris::rules::{Phases, RuleOverrides};
use morris::store::Database;
use morris::Variant;

/// The files of a rule set's folder by name: tables, sector files and the record of planned
/// sectors, lock files left out (a solve leaves them for the next).
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| !e.file_name().to_string_lossy().ends_with(".lock"))
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (name, fs::read(e.path()).unwrap())
        })
        .collect()
}

/// Asserts that two folders hold the same files, byte for byte.
fn same_files(expected: &Path, got: &Path, what: &str) {
    let (a, b) = (files(expected), files(got));
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "{what}"
    );
    for (name, bytes) in &a {
        assert!(b[name] == *bytes, "{what}: {name} differs");
    }
}

/// Solves `variant` (with `extra` arguments) plainly into `DIR/plain` and builds its tables
/// into `DIR/tables` (the report of `tables --json` in `DIR/report.json`); returns the
/// rule-set folders of both.
fn plain_and_tables(dir: &Path, variant: &str, extra: &[&str]) -> (Database, std::path::PathBuf) {
    let (plain, tables) = (dir.join("plain"), dir.join("tables"));
    solve_into(variant, &plain, extra);
    let mut args = vec!["--variant", variant, "tables", "-q", "--json"];
    args.extend(rules_of(extra));
    args.extend(["--db", plain.to_str().unwrap()]);
    args.extend(["--out", tables.to_str().unwrap()]);
    let out = morris(&args);
    assert!(out.status.success(), "{}", text(&out));
    fs::write(dir.join("report.json"), &out.stdout).unwrap();
    let v = game(variant, extra);
    let db = Database::new(&plain, &v).unwrap();
    let table_dir = tables.join(morris::store::rule_set_folder(&v));
    (db, table_dir)
}

/// The rule switches among a solve's extra arguments (each a `--switch value` pair).
fn rules_of<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut out = Vec::new();
    for pair in extra.chunks(2) {
        if pair[0] == "--phases" {
            out.extend(pair);
        }
    }
    out
}

/// The variant of `name` under the rule switches of `extra`.
fn game(name: &str, extra: &[&str]) -> Variant {
    let lasker = extra.windows(2).any(|w| w == ["--phases", "lasker"]);
    let v = Variant::by_name(name).unwrap();
    if lasker {
        v.with_overrides(RuleOverrides {
            phases: Some(Phases::Lasker),
            ..RuleOverrides::default()
        })
    } else {
        v
    }
}

/// Every value of every sector of `plain` equals what the compact folder holds: its tables
/// decoded whole, cell by cell.
fn every_value_equal(plain: &Database, compact: &Database) -> u64 {
    let mut compared = 0;
    for s in plain.present() {
        let (a, b) = (plain.rows(s).unwrap(), compact.rows(s).unwrap());
        let slots = a.header().slots;
        assert_eq!(slots, b.header().slots, "{s}");
        for i in 0..slots {
            assert_eq!(a.cell(i).unwrap(), b.cell(i).unwrap(), "{s} slot {i}");
        }
        compared += slots;
    }
    compared
}

/// Morabaraba's and Lasker Morris's endgames of up to five pieces a side, and five under
/// Lasker's phases whole (its cyclic units hold pieces in hand), solved compact: no sector
/// file is left, the tables are those `tables` builds from a plain solve, byte for byte, every
/// value equals the plain database's, and `check`, `stats` and a rerun of the solve read the
/// folder as a whole.
#[test]
fn a_compact_solve_ends_with_the_tables_of_the_plain_database() {
    let cases: [(&str, &[&str]); 3] = [
        ("morabaraba", &["--max-pieces", "5"]),
        ("lasker", &["--max-pieces", "5"]),
        ("five", &["--phases", "lasker"]),
    ];
    for (variant, extra) in cases {
        let dir = scratch(&format!("compact-{variant}"));
        let (plain, table_dir) = plain_and_tables(&dir, variant, extra);
        let compact = dir.join("compact");
        let mut args = extra.to_vec();
        args.push("--compact");
        // Not quiet: the log's lines give the folder's size, and the last its peak.
        let mut loud = vec![
            "--variant",
            variant,
            "solve",
            "--db",
            compact.to_str().unwrap(),
        ];
        loud.extend(&args);
        let out = morris(&loud);
        assert!(out.status.success(), "{}", text(&out));
        let log = text(&out);
        let v = game(variant, extra);
        let compact_dir = compact.join(morris::store::rule_set_folder(&v));
        same_files(&table_dir, &compact_dir, variant);
        folder_sizes_logged(&log, &compact_dir, &dir.join("plain"), variant);
        assert!(
            !files(&compact_dir).keys().any(|k| k.ends_with(".sec")),
            "{variant}: a sector file is left"
        );
        let c = Database::tables(&compact, &v, 0).unwrap();
        let compared = every_value_equal(&plain, &c);
        assert!(compared > 1_000_000, "{variant}: {compared} slots");
        let mut rules = vec!["--variant", variant];
        rules.extend(rules_of(extra));
        let run = |more: &[&str]| {
            let mut args = rules.clone();
            args.extend(more);
            let out = morris(&args);
            assert!(out.status.success(), "{more:?}: {}", text(&out));
            text(&out)
        };
        let compact_arg = compact.to_str().unwrap();
        assert!(run(&["check", "-q", "--tables", compact_arg]).contains("all hold"));
        assert_eq!(
            run(&["stats", "--json", "--tables", compact_arg]),
            run(&[
                "stats",
                "--json",
                "--db",
                dir.join("plain").to_str().unwrap()
            ]),
            "{variant}"
        );
        let depths =
            |flag: &str, dir: &Path| run(&["stats", "--depths", "-q", flag, dir.to_str().unwrap()]);
        assert_eq!(
            depths("--tables", &compact),
            depths("--db", &dir.join("plain")),
            "{variant}: stats --depths"
        );
        // The published manifest: from the folder alone (the database's size from the headers)
        // it is the one `tables --json`'s report and the plain database's files give.
        if let Some(python) = prerequisite::python_with("tables_manifest", &["hashlib"]) {
            let manifest = |args: &[&Path]| {
                let args: Vec<&std::ffi::OsStr> = std::iter::once("make".as_ref())
                    .chain(args.iter().map(|a| a.as_os_str()))
                    .collect();
                prerequisite::run_script(&python, "tables_manifest.py", &args)
            };
            let from_headers = manifest(&[&compact_dir]);
            assert_eq!(
                from_headers,
                manifest(&[&dir.join("report.json"), &table_dir]),
                "{variant}: manifest"
            );
            assert!(
                from_headers.contains("\"database_bytes\""),
                "{from_headers}"
            );
        }
        // A rerun finds every unit solved and changes nothing.
        let again = solve_into(variant, &compact, &args);
        assert!(again.contains("(0 solved now"), "{again}");
        same_files(&table_dir, &compact_dir, variant);
        assert!(log.contains("work units"), "{log}");
    }
}

/// Megabytes or gigabytes as the solve's log prints them.
fn bytes_of(text: &str) -> f64 {
    let (number, unit) = text.trim().split_once(' ').unwrap();
    let scale = match unit {
        "GB" => 1e9,
        "MB" => 1e6,
        _ => panic!("{text}"),
    };
    number.parse::<f64>().unwrap() * scale
}

/// The bytes of the files in `dir`.
fn bytes_in(dir: &Path) -> u64 {
    fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.metadata().unwrap().len())
        .sum()
}

/// Every unit's and turned sector's line of a compact solve's `log` gives the folder's size,
/// and the last line the largest of them as the peak and the folder as it is left; the peak
/// is below what the plain database of `plain` takes.
fn folder_sizes_logged(log: &str, folder: &Path, plain: &Path, variant: &str) {
    let sizes: Vec<f64> = log
        .lines()
        .filter(|l| l.starts_with("solved ") || l.starts_with("turned "))
        .map(|l| bytes_of(l.rsplit_once("; folder ").expect(l).1))
        .collect();
    let units = log.lines().filter(|l| l.starts_with("solved ")).count();
    assert!(sizes.len() > units && units >= 5, "{variant}: {log}");
    let line = log.lines().find(|l| l.starts_with("disk: ")).expect(log);
    let rest = line.strip_prefix("disk: the folder held at most ").unwrap();
    let (peak, rest) = rest.split_once(" after a unit").unwrap();
    let now = rest
        .rsplit_once(", ")
        .unwrap()
        .1
        .strip_suffix(" now")
        .unwrap();
    let largest = sizes.iter().cloned().fold(0.0, f64::max);
    assert_eq!(bytes_of(peak), largest, "{variant}: {line}");
    let left = bytes_in(folder) as f64;
    assert!(
        (bytes_of(now) - left).abs() <= 0.05e6 + left * 0.005,
        "{variant}: {line}, {left} bytes"
    );
    let database = bytes_in(&plain.join(folder.file_name().unwrap())) as f64;
    assert!(
        largest >= left && largest < database,
        "{variant}: peak {largest}, left {left}, plain database {database}"
    );
}

/// The state a killed compact run left: sector files, win/draw/loss tables, temporaries.
fn census(dir: &Path) -> (usize, usize, usize) {
    let names: Vec<String> = fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    let count = |f: &dyn Fn(&str) -> bool| names.iter().filter(|n| f(n)).count();
    (
        count(&|n| n.ends_with(".sec")),
        count(&|n| n.ends_with(".wdl")),
        count(&|n| n.ends_with(".tmp")),
    )
}

/// A compact solve of six under Lasker's phases, killed (SIGKILL) at moments drawn at random
/// again and again, each time resumed, ends with the tables of the plain database byte for
/// byte: a unit, a table and a removed sector file are each whole or absent.
#[test]
fn a_compact_solve_killed_at_random_moments_resumes_to_the_same_tables() {
    let extra = ["--phases", "lasker"];
    let dir = scratch("compact-kill");
    let (_, table_dir) = plain_and_tables(&dir, "six", &extra);
    let compact = dir.join("compact");
    let v = game("six", &extra);
    let compact_dir = compact.join(morris::store::rule_set_folder(&v));
    let mut rng = Rng::new(0x6b11);
    let mut mixed = 0;
    let mut kills = 0;
    for _ in 0..12 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_morris"))
            .args(["--variant", "six", "solve", "--quiet", "--compact"])
            .args(extra)
            .args(["--db", compact.to_str().unwrap()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(200 + rng.below(1800)));
        let finished = child.try_wait().unwrap().is_some();
        child.kill().unwrap(); // SIGKILL on Unix
        child.wait().unwrap();
        if finished {
            break;
        }
        kills += 1;
        let (sec, wdl, _) = census(&compact_dir);
        mixed += usize::from(sec > 0 && wdl > 0);
    }
    assert!(
        kills >= 3 && mixed >= 2,
        "{kills} kills, {mixed} of them between sector files and tables: the test proves little"
    );
    let out = solve_into("six", &compact, &["--phases", "lasker", "--compact"]);
    assert!(out.contains("start position:"), "{out}");
    same_files(
        &table_dir,
        &compact_dir,
        "six under Lasker's phases, killed and resumed",
    );
    assert_eq!(census(&compact_dir), (0, files(&table_dir).len() / 2, 0));
}

/// `solve --plan` states the peak disk of both ways of storing and the peak working memory.
#[test]
fn the_plan_states_peak_disk_and_memory() {
    let out = morris(&["--variant", "nine", "solve", "--plan"]);
    assert!(out.status.success(), "{}", text(&out));
    let t = text(&out);
    assert!(
        t.contains("peak disk: 27.8 GB of sector files; with --compact about "),
        "{t}"
    );
    assert!(t.contains("peak memory: 3.3 GB of working state"), "{t}");
}

/// `solve --plan` over a folder that holds solved units says how many, and what is left of the
/// run: nothing in a fresh folder, the units of the endgames solved, all of them at the end.
#[test]
fn the_plan_of_a_resumed_run_says_what_is_left() {
    let db = scratch("plan-resumed");
    let dbs = db.to_str().unwrap();
    let plan = |extra: &[&str]| {
        let mut args = vec![
            "--variant",
            "five",
            "solve",
            "--compact",
            "--plan",
            "--db",
            dbs,
        ];
        args.extend(extra);
        let out = morris(&args);
        assert!(out.status.success(), "{}", text(&out));
        text(&out)
    };
    let units = |t: &str| -> usize {
        let line = t.lines().find(|l| l.contains(" work units, ")).expect(t);
        line.split(' ').next().unwrap().parse().unwrap()
    };
    let whole = plan(&[]);
    assert!(!whole.contains("already solved"), "{whole}");
    let (all, endgames) = (units(&whole), units(&plan(&["--max-pieces", "4"])));
    assert!(endgames > 0 && endgames < all, "{all} {endgames}");
    solve_into("five", &db, &["--compact", "--max-pieces", "4"]);
    let resumed = plan(&[]);
    let line = resumed
        .lines()
        .find(|l| l.starts_with("already solved in "))
        .expect(&resumed);
    assert!(
        line.contains(&format!(": {endgames} of {all} units (")),
        "{line}"
    );
    assert!(!line.contains("left: 0.00 s"), "{line}");
    solve_into("five", &db, &["--compact"]);
    let done = plan(&[]);
    assert!(
        done.contains(&format!(
            ": {all} of {all} units ({0} of {0} slots); left: 0.00 s for one process, and 0.00 s with --compact",
            done.lines()
                .find(|l| l.contains(" index slots"))
                .and_then(|l| l.split(' ').rev().nth(2))
                .unwrap()
        )),
        "{done}"
    );
}

/// A table that a compact solve wrote and that was damaged since is found by the next run,
/// moved aside with its twin table, solved again and turned again: the folder ends as it was.
#[test]
fn a_damaged_table_is_moved_aside_and_its_unit_solved_and_turned_again() {
    let extra = ["--phases", "lasker", "--compact"];
    let dir = scratch("compact-damaged");
    let compact = dir.join("compact");
    solve_into("five", &compact, &extra);
    let v = game("five", &extra);
    let rule_dir = compact.join(morris::store::rule_set_folder(&v));
    let before = files(&rule_dir);
    let wdl = rule_dir.join("4-4-0-0.wdl");
    let mut bytes = fs::read(&wdl).unwrap();
    let at = bytes.len() - 3;
    bytes[at] ^= 0x5a;
    fs::write(&wdl, &bytes).unwrap();
    let out = morris(&[
        "--variant",
        "five",
        "solve",
        "--phases",
        "lasker",
        "--compact",
        "--db",
        compact.to_str().unwrap(),
    ]);
    let log = text(&out);
    assert!(out.status.success(), "{log}");
    assert!(
        log.contains("4-4-0-0.wdl: damaged")
            && log.contains("moved aside as 4-4-0-0.wdl.damaged and 4-4-0-0.dtm.damaged"),
        "{log}"
    );
    assert!(log.contains("turned 4-4-0-0 "), "{log}");
    let mut after = files(&rule_dir);
    for aside in ["4-4-0-0.wdl.damaged", "4-4-0-0.dtm.damaged"] {
        assert!(after.remove(aside).is_some(), "{aside} is not there");
    }
    assert!(
        after == before,
        "the folder differs after the unit was solved again"
    );
}

/// `solve --compact --wdl-level --depth-level` ends with the tables `tables` builds at those
/// levels from a plain solve, byte for byte (and not with the default levels' tables); the
/// plan models turning at the level given, and the levels without `--compact` are refused.
#[test]
fn a_compact_solve_at_other_levels_ends_with_the_tables_built_at_them() {
    let dir = scratch("compact-levels");
    let (plain, tables) = (dir.join("plain"), dir.join("tables"));
    solve_into("five", &plain, &[]);
    let levels = ["--wdl-level", "5", "--depth-level", "3"];
    let build = |out: &Path, extra: &[&str]| {
        let mut args = vec!["--variant", "five", "tables", "-q"];
        args.extend([
            "--db",
            plain.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        args.extend(extra);
        let o = morris(&args);
        assert!(o.status.success(), "{}", text(&o));
    };
    build(&tables, &levels);
    let defaults = dir.join("defaults");
    build(&defaults, &[]);
    let compact = dir.join("compact");
    let mut args = vec!["--compact"];
    args.extend(levels);
    solve_into("five", &compact, &args);
    let folder = morris::store::rule_set_folder(&Variant::by_name("five").unwrap());
    same_files(
        &tables.join(&folder),
        &compact.join(&folder),
        "five at levels 5 and 3",
    );
    assert!(
        files(&defaults.join(&folder)) != files(&compact.join(&folder)),
        "the levels made no difference: the test proves nothing"
    );

    let plan = |extra: &[&str]| {
        let mut args = vec!["--variant", "nine", "solve", "--plan"];
        args.extend(extra);
        let o = morris(&args);
        assert!(o.status.success(), "{}", text(&o));
        let t = text(&o);
        let line = t
            .lines()
            .find(|l| l.starts_with("modelled time: "))
            .unwrap_or_else(|| panic!("{t}"))
            .to_string();
        line
    };
    let (default, six) = (plan(&[]), plan(&["--compact", "--depth-level", "6"]));
    assert!(
        default.contains("depth blocks at zstd level 12"),
        "{default}"
    );
    assert!(six.contains("depth blocks at zstd level 6"), "{six}");
    let turning = |line: &str| {
        let after = line.split(", and ").nth(1).unwrap();
        after.split(" more").next().unwrap().to_string()
    };
    assert_ne!(turning(&default), turning(&six), "{default}\n{six}");

    let refused = morris(&["--variant", "five", "solve", "--plan", "--depth-level", "6"]);
    assert!(!refused.status.success());
    assert!(text(&refused).contains("--compact"), "{}", text(&refused));
}
