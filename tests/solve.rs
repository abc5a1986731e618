//! The solver: sector graph, index, published values, resuming after SIGKILL, and bad input.

mod common;

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;

use common::{morris, scratch, solve_into, text, variant};
use morris::rules::{generate, play};
use morris::space::{plan, Sector};
use morris::space::{Orbits, SectorIndex};
use morris::store::Database;
use morris::{Position, Value, Variant};

fn published() -> BTreeMap<String, String> {
    include_str!("../data/published.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (k, v) = l.split_once('\t').unwrap();
            (k.to_string(), v.to_string())
        })
        .collect()
}

#[test]
fn nine_has_318_reachable_sectors_and_plans_list_them() {
    let p = published();
    let v = variant("nine", None, None);
    let units = plan(&v, &[Sector::start(&v)]);
    let sectors: usize = units.iter().map(|u| u.sectors.len()).sum();
    assert_eq!(sectors.to_string(), p["sectors/nine"]);
    // Dependencies first: every successor outside a unit was planned before it.
    let mut done = HashSet::new();
    for u in &units {
        for s in &u.sectors {
            for c in s.successors(&v) {
                assert!(done.contains(&c) || u.sectors.contains(&c), "{s} needs {c}");
            }
        }
        done.extend(u.sectors.iter().copied());
        let twins = u.sectors.len() == 2 && u.sectors[0].mover == u.sectors[1].opponent;
        assert!(u.sectors.len() == 1 || twins, "{:?}", u.sectors);
        assert_eq!(u.cyclic, u.sectors[0].is_moving());
    }
    let out = morris(&["solve", "--plan"]);
    assert!(out.status.success());
    let last = text(&out)
        .lines()
        .find(|l| l.contains("work units"))
        .unwrap()
        .to_string();
    assert!(last.contains("318 sectors"), "{last}");
    let endgame = morris(&["solve", "--plan", "--max-pieces", "5"]);
    assert!(
        text(&endgame).contains("6 work units, 9 sectors"),
        "{}",
        text(&endgame)
    );
}

/// Burnside: the number of orbits of (mover set, opponent set) pairs with the given sizes is
/// the average over the group of the pairs each symmetry fixes; a fixed pair is a choice of
/// whole cycles for each side.
fn burnside(v: &Variant, w: usize, b: usize) -> u64 {
    let n = v.board().len();
    let mut total = 0u64;
    for s in v.symmetries() {
        let mut seen = vec![false; n];
        let mut cycles = Vec::new();
        for start in 0..n {
            let mut len = 0;
            let mut p = start;
            while !seen[p] {
                seen[p] = true;
                p = s.map(morris::Point::new(p as u8)).index();
                len += 1;
            }
            if len > 0 {
                cycles.push(len);
            }
        }
        // ways[i][j]: choices of cycles so far covering i mover and j opponent points.
        let mut ways = vec![vec![0u64; b + 1]; w + 1];
        ways[0][0] = 1;
        for len in cycles {
            let mut next = ways.clone();
            for i in 0..=w {
                for j in 0..=b {
                    if ways[i][j] == 0 {
                        continue;
                    }
                    if i + len <= w {
                        next[i + len][j] += ways[i][j];
                    }
                    if j + len <= b {
                        next[i][j + len] += ways[i][j];
                    }
                }
            }
            ways = next;
        }
        total += ways[w][b];
    }
    total / v.symmetries().len() as u64
}

#[test]
fn index_round_trips_and_matches_burnside_counts() {
    for (name, sizes) in [
        ("three", &[(3, 3), (2, 3), (3, 2), (1, 0), (4, 4)][..]),
        ("six", &[(3, 3), (4, 3), (5, 5), (6, 6), (0, 0), (2, 5)]),
        ("seven", &[(3, 4), (7, 7)]),
        ("nine", &[(3, 3), (4, 3), (1, 1), (2, 2)]),
    ] {
        let v = variant(name, None, None);
        let orbits = Arc::new(Orbits::new(&v));
        for &(w, b) in sizes {
            let sector = Sector {
                mover: w,
                opponent: b,
                mover_hand: 0,
                opponent_hand: 0,
            };
            let index = SectorIndex::new(orbits.clone(), sector);
            let mut used = 0u64;
            let mut raw = 0u64;
            // Walking slots in order gives what unranking each slot gives.
            let mut walked = Vec::new();
            index.for_each_slot(0, index.size(), |slot, pos| walked.push((slot, pos)));
            assert_eq!(walked.len() as u64, index.size());
            let mid = index.size() / 3;
            index.for_each_slot(mid, index.size(), |slot, pos| {
                assert_eq!(walked[slot as usize].1, pos)
            });
            for (slot, pos) in walked {
                assert_eq!(index.position(slot), pos, "{name} {sector} slot {slot}");
            }
            for slot in 0..index.size() {
                let Some(pos) = index.position(slot) else {
                    continue;
                };
                used += 1;
                assert_eq!(Sector::of(&pos), sector);
                assert_eq!(index.index(&pos), slot, "{name} {sector}");
                // Every symmetric image shares the slot.
                let mut images = HashSet::new();
                for s in v.symmetries() {
                    let image = Position {
                        mover: s.apply(pos.mover),
                        opponent: s.apply(pos.opponent),
                        ..pos
                    };
                    assert_eq!(index.index(&image), slot);
                    images.insert(image);
                }
                assert_eq!(images.len() as u64, index.images(&pos));
                raw += images.len() as u64;
            }
            assert_eq!(
                used,
                burnside(&v, w as usize, b as usize),
                "{name} {sector}"
            );
            let n = v.board().len() as u64;
            let choose = |n: u64, k: u64| (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1));
            assert_eq!(
                raw,
                choose(n, w as u64) * choose(n - w as u64, b as u64),
                "{name} {sector}"
            );
        }
    }
}

#[test]
fn nine_3_3_matches_gasser() {
    let p = published();
    let db = scratch("nine-3-3");
    solve_into("nine", &db, &["--sector", "3-3-0-0"]);
    let out = morris(&["stats", "--json", "--db", db.to_str().unwrap()]);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["variant"], "nine");
    assert!(json["start"].is_null());
    let row = json["sectors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["sector"] == "3-3-0-0")
        .unwrap();
    for key in [
        "positions",
        "win",
        "loss",
        "draw",
        "raw_positions",
        "raw_win",
        "raw_loss",
        "raw_draw",
        "max_depth",
    ] {
        assert_eq!(
            row[key].to_string(),
            p[&format!("nine/3-3-0-0/{key}")],
            "{key}"
        );
    }
    // Gasser's deepest 3-3 position: White d7 g7 g1, Black a4 g4 d5, Black to move, loses in 26.
    let v = variant("nine", None, None);
    let database = Database::new(&db, &v).unwrap();
    let (deep, _) = Position::parse(&v, ".WW/.../.B./B....B/.../.../..W b 0 0").unwrap();
    assert_eq!(database.probe(&deep).unwrap(), Value::Loss(26));
}

/// The start values that data/results publishes (`query --json start` of each whole game,
/// nine's and the compact games' solved on other machines) are those data/published.tsv cites:
/// each game's as soon as its file is published.
#[test]
fn published_start_files_have_the_cited_values() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/results");
    let mut compared = Vec::new();
    for (key, cited) in published() {
        let Some(game) = key.strip_prefix("start/") else {
            continue;
        };
        let Ok(text) = fs::read_to_string(root.join(format!("{game}-standard-start.json"))) else {
            continue;
        };
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(json["variant"], game, "{game}");
        assert_eq!(
            json["value"],
            cited.as_str(),
            "{game}: published start value"
        );
        compared.push(game.to_string());
    }
    assert!(compared.len() >= 5, "{compared:?}");
}

fn start_value(v: &str, db: &Path) -> Value {
    let var = variant(v, None, None);
    Database::new(db, &var)
        .unwrap()
        .probe(&Position::start(&var))
        .unwrap()
}

#[test]
fn small_games_have_their_published_values() {
    let p = published();
    for v in ["three", "three-diag", "five", "six", "six-diag", "seven"] {
        let db = scratch(&format!("start-{v}"));
        let out = solve_into(v, &db, &[]);
        assert!(out.contains("start position: "), "{out}");
        let value = start_value(v, &db);
        assert_eq!(value.name(), p[&format!("start/{v}")], "{v}");
        // Every database the solver writes is proved by verify.
        let out = morris(&[
            "--variant",
            v,
            "verify",
            "--quiet",
            "--db",
            db.to_str().unwrap(),
        ]);
        assert!(
            out.status.success() && text(&out).contains("all hold"),
            "{v}: {}",
            text(&out)
        );
        if v == "seven" {
            // Only the centre wins; every other first placement loses.
            let var = variant(v, None, None);
            let database = Database::new(&db, &var).unwrap();
            let start = Position::start(&var);
            for mv in generate(&var, &start) {
                let after = database.probe(&play(&start, mv)).unwrap();
                let name = mv.to_notation(var.board());
                if name == "c3" {
                    assert!(matches!(after, Value::Loss(_)), "c3 leads to {after:?}");
                } else {
                    assert!(matches!(after, Value::Win(_)), "{name} leads to {after:?}");
                }
            }
        }
    }
}

fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in fs::read_dir(dir).unwrap().flatten() {
        if e.path().is_dir() {
            for (k, v) in files(&e.path()) {
                out.insert(format!("{}/{k}", e.file_name().to_string_lossy()), v);
            }
        } else if e.path().extension().is_some_and(|x| x == "sec") {
            out.insert(
                e.file_name().to_string_lossy().to_string(),
                fs::read(e.path()).unwrap(),
            );
        }
    }
    out
}

#[test]
fn a_run_killed_with_sigkill_resumes_to_identical_files() {
    let reference = scratch("kill-reference");
    solve_into("six", &reference, &["--threads", "1"]);
    let expected = files(&reference);
    assert!(expected.len() > 70);
    let mut resumed_some = false;
    for delay_ms in [300u64, 900, 1600] {
        let db = scratch(&format!("kill-{delay_ms}"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_morris"))
            .args([
                "--variant",
                "six",
                "solve",
                "--quiet",
                "--threads",
                "2",
                "--db",
                db.to_str().unwrap(),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        child.kill().unwrap(); // SIGKILL on Unix
        child.wait().unwrap();
        let before = files(&db).keys().filter(|k| k.ends_with(".sec")).count();
        resumed_some |= before > 0 && before < expected.len();
        let out = solve_into("six", &db, &[]);
        assert!(out.contains("start position: draw"), "{out}");
        let got = files(&db);
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            expected.keys().collect::<Vec<_>>()
        );
        for (k, v) in &expected {
            assert!(got[k] == *v, "{k} differs after resuming");
        }
    }
    assert!(
        resumed_some,
        "no kill landed mid-run; the test proves nothing"
    );
}

#[test]
fn bad_input_is_refused_with_exit_2_and_nothing_solved_is_damaged() {
    let db = scratch("bad-input");
    let dbs = db.to_str().unwrap();
    solve_into("three", &db, &[]);
    let before = files(&db);
    // (variant, options after `solve --db DIR`, what the message must say)
    let cases: [(&str, &[&str], &str); 9] = [
        ("ten", &[], "unknown variant"),
        ("three", &["--sector", "3-3"], "expected four counts"),
        ("three", &["--sector", "a-b-c-d"], "expected four counts"),
        ("three", &["--sector", "4-3-0-0"], "more than the 3 pieces"),
        ("three", &["--sector", "3-3-1-0"], "more than the 3 pieces"),
        ("nine", &["--sector", "3-3-2-0"], "hand must equal"),
        ("nine", &["--sector", "2-3-0-0"], "fewer than three pieces"),
        ("nine", &["--max-pieces", "2"], "at least 3"),
        ("nine", &["--threads", "0"], "at least 1"),
    ];
    for (variant, options, message) in cases {
        let mut args = vec!["--variant", variant, "solve", "--db", dbs];
        args.extend(options);
        let out = morris(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out));
        assert!(text(&out).contains(message), "{args:?}: {}", text(&out));
    }
    // The rule-set folder itself given as --db.
    let rule_dir = common::rule_dir(&db, "three");
    let out = morris(&[
        "--variant",
        "three",
        "solve",
        "--db",
        rule_dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("rule-set folder"), "{}", text(&out));
    // A folder whose files hold another rule set: the data is not what it claims (exit 1).
    let strict = variant("three", None, Some(morris::Removal::Strict));
    let strict_dir = db.join(morris::store::rule_set_folder(&strict));
    fs::create_dir_all(&strict_dir).unwrap();
    fs::copy(rule_dir.join("3-3-0-0.sec"), strict_dir.join("3-3-0-0.sec")).unwrap();
    let out = morris(&[
        "--variant",
        "three",
        "--removal",
        "strict",
        "solve",
        "--db",
        dbs,
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("holds rule set pieces-3.flying-never.removal-standard."),
        "{}",
        text(&out)
    );
    fs::remove_dir_all(&strict_dir).unwrap();
    // A regular file where the folder should be: refused at once as bad input, naming it.
    let blocked = db.join("blocked");
    fs::write(&blocked, b"not a folder").unwrap();
    let out = morris(&[
        "--variant",
        "three",
        "solve",
        "--db",
        blocked.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("blocked: not a folder"),
        "{}",
        text(&out)
    );
    fs::remove_file(&blocked).unwrap();
    // Nothing solved before was touched.
    assert_eq!(files(&db), before);
}

/// xxh3-64 over every sector file of a database, in name order: of the sector's name and the
/// file's payload (the cells: independent of the file format), and of the name and the whole
/// file.
fn determinism_hash(db: &Path) -> (String, String) {
    let mut payloads = xxhash_rust::xxh3::Xxh3::new();
    let mut whole = xxhash_rust::xxh3::Xxh3::new();
    for (name, bytes) in files(db) {
        let sector = name.rsplit('/').next().unwrap();
        payloads.update(sector.as_bytes());
        payloads.update(&bytes[common::payload_offset(&bytes)..]);
        whole.update(sector.as_bytes());
        whole.update(&bytes);
    }
    (
        format!("{:016x}", payloads.digest()),
        format!("{:016x}", whole.digest()),
    )
}

#[test]
fn files_are_identical_for_any_thread_count_and_match_the_recorded_hash() {
    let recorded: BTreeMap<&str, (&str, &str)> = include_str!("../data/determinism.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0], (f[1], f[2]))
        })
        .collect();
    let one = scratch("determinism-1");
    let two = scratch("determinism-2");
    solve_into("five", &one, &["--threads", "1"]);
    solve_into("five", &two, &["--threads", "2"]);
    let h1 = determinism_hash(&one);
    assert_eq!(h1, determinism_hash(&two));
    let (payloads, whole) = recorded["five"];
    assert_eq!(h1.0, payloads, "the values of five changed");
    assert_eq!(h1.1, whole, "the files of five changed");
}

/// With both hands empty Lasker's rules are nine's, so its endgame sectors hold nine's values;
/// and its placement-and-move sectors are solved and verified.
#[test]
fn lasker_endgames_equal_nines_and_its_mixed_sectors_verify() {
    let stats = |v: &str, db: &Path| -> serde_json::Value {
        let out = morris(&[
            "--variant",
            v,
            "stats",
            "--json",
            "--db",
            db.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", text(&out));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let nine = scratch("lasker-vs-nine-nine");
    let lasker = scratch("lasker-vs-nine-lasker");
    solve_into("nine", &nine, &["--max-pieces", "4"]);
    solve_into("lasker", &lasker, &["--max-pieces", "4"]);
    let (a, b) = (stats("nine", &nine), stats("lasker", &lasker));
    let rows = |j: &serde_json::Value| -> Vec<serde_json::Value> {
        j["sectors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                let mut s = s.clone();
                s.as_object_mut().unwrap().remove("checksum");
                s
            })
            .collect()
    };
    assert_eq!(rows(&a), rows(&b));
    assert_eq!(rows(&a).len(), 4, "3-3, 3-4, 4-3 and 4-4");
    // A sector where a side may place or move (2-3-1-0 and its twin 3-2-0-1 form one cyclic
    // unit), solved with what it needs and proved by verify.
    solve_into("lasker", &lasker, &["--sector", "3-3-1-1"]);
    let out = morris(&[
        "--variant",
        "lasker",
        "verify",
        "--quiet",
        "--db",
        lasker.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("all hold"), "{}", text(&out));
}

/// `solve --verify` proves each unit as it writes it: every unit's line reports the proof's
/// time, the files are those of a plain run, and the start's value is printed.
#[test]
fn solve_with_verify_proves_each_unit_and_writes_the_same_files() {
    let plain = scratch("solve-verify-plain");
    let proved = scratch("solve-verify-proved");
    solve_into("five", &plain, &[]);
    let out = morris(&[
        "--variant",
        "five",
        "solve",
        "--verify",
        "--db",
        proved.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let t = text(&out);
    let solved: Vec<&str> = t.lines().filter(|l| l.starts_with("solved ")).collect();
    assert_eq!(solved.len(), 37, "{t}");
    assert!(solved.iter().all(|l| l.contains(", verify ")), "{t}");
    assert!(t.contains("start position: draw"), "{t}");
    assert_eq!(determinism_hash(&plain), determinism_hash(&proved));
    // The proofs were recorded: a later `verify --resume` recomputes none of the sectors.
    let out = morris(&[
        "--variant",
        "five",
        "verify",
        "--resume",
        "--quiet",
        "--db",
        proved.to_str().unwrap(),
    ]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    let sectors: usize = t
        .split_whitespace()
        .skip_while(|w| *w != "checked")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no sector count in {t}"));
    assert!(sectors > 37, "{t}");
    assert!(
        t.contains(&format!("{sectors} sectors proved before")),
        "{t}"
    );
}

/// The published results of the small games (data/results/, written by scripts/results.sh)
/// are what this build computes: `stats --json` and `query --json start`, byte for byte,
/// `stats --depths` row for row with the histogram `scripts/depths.py` (a reader of its own)
/// counted from the database files, and `stats --n-move-rule 100` row for row.
#[test]
fn published_results_of_five_and_six_are_reproduced() {
    for game in ["five", "six"] {
        for removal in ["standard", "strict"] {
            let db = scratch(&format!("results-{game}-{removal}"));
            let dbs = db.to_str().unwrap();
            let rules = ["--variant", game, "--removal", removal];
            let run = |args: &[&str]| {
                let out = morris(&[&rules[..], args].concat());
                assert!(out.status.success(), "{}", text(&out));
                String::from_utf8(out.stdout).unwrap()
            };
            run(&["solve", "--quiet", "--db", dbs]);
            let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/results");
            let published = |name: &str| fs::read_to_string(root.join(name)).unwrap();
            assert_eq!(
                run(&["stats", "--json", "--db", dbs]),
                published(&format!("{game}-{removal}.json")),
                "{game} {removal}"
            );
            assert_eq!(
                run(&["query", "--json", "--db", dbs, "start"]),
                published(&format!("{game}-{removal}-start.json")),
                "{game} {removal}"
            );
            // The first line names the folder and how it was counted; the rows must agree.
            let rows = |text: &str| text.lines().skip(1).map(String::from).collect::<Vec<_>>();
            let depths = rows(&run(&["stats", "--depths", "--quiet", "--db", dbs]));
            assert!(depths.len() > 3, "{game} {removal}: {depths:?}");
            assert_eq!(
                depths,
                rows(&published(&format!("{game}-{removal}-depths.tsv"))),
                "{game} {removal}: stats --depths"
            );
            assert_eq!(
                rows(&run(&[
                    "stats",
                    "--n-move-rule",
                    "100",
                    "--quiet",
                    "--db",
                    dbs
                ])),
                rows(&published(&format!("{game}-{removal}-n100.tsv"))),
                "{game} {removal}: stats --n-move-rule 100"
            );
        }
    }
}

/// Progress that asks the work to stop once `after` steps were advanced.
struct StopAfter {
    steps: std::sync::atomic::AtomicU64,
    after: u64,
}

impl StopAfter {
    fn new(after: u64) -> StopAfter {
        StopAfter {
            steps: std::sync::atomic::AtomicU64::new(0),
            after,
        }
    }
}

impl morris::Progress for StopAfter {
    fn advance(&self, n: u64) {
        self.steps
            .fetch_add(n, std::sync::atomic::Ordering::Relaxed);
    }
    fn cancelled(&self) -> bool {
        self.steps.load(std::sync::atomic::Ordering::Relaxed) >= self.after
    }
}

/// Every file of the folder `dir` and its subfolders, by relative path, except records that
/// name the process or the time.
fn all_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in fs::read_dir(dir).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        if e.path().is_dir() {
            for (k, v) in all_files(&e.path()) {
                out.insert(format!("{name}/{k}"), v);
            }
        } else if !name.ends_with(".lock") {
            out.insert(name, fs::read(e.path()).unwrap());
        }
    }
    out
}

/// A solve, a proof and a build of tables asked to stop (as Python's Ctrl-C asks) end with
/// `Error::Cancelled` (the proof with its report marked cancelled) part way, leave nothing
/// half written, and a second run completes them to the same files as an uninterrupted run.
#[test]
fn work_asked_to_stop_ends_cleanly_and_resumes_to_the_same_files() {
    let v = Variant::by_name("six").unwrap();
    let roots = [Sector::start(&v)];
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let reference = scratch("cancel-reference");
    let db = Database::new(&reference, &v).unwrap();
    pool.install(|| morris::solve(&db, &roots, &morris::Silent))
        .unwrap();
    let tables_ref = reference.parent().unwrap().join("cancel-reference-tables");
    let _ = fs::remove_dir_all(&tables_ref);
    let options = morris::tables::Options::default();
    pool.install(|| morris::tables::build_tables(&db, &tables_ref, &options, &morris::Silent))
        .unwrap();
    let total: u64 = plan(&v, &roots)
        .iter()
        .flat_map(|u| u.sectors.iter())
        .map(|&s| db.index(s).size())
        .sum();

    let dir = scratch("cancel-solve");
    let stopped = Database::new(&dir, &v).unwrap();
    let stop = StopAfter::new(total / 3);
    let err = pool
        .install(|| morris::solve(&stopped, &roots, &stop))
        .unwrap_err();
    assert!(matches!(err, morris::Error::Cancelled), "{err}");
    let some = files(&dir);
    assert!(
        !some.is_empty() && some.len() < files(&reference).len(),
        "{}",
        some.len()
    );
    // What was written is whole: every file present proves sound.
    let report = morris::verify(&stopped, &stopped.present(), 10, &morris::Silent);
    assert_eq!(report.fault_count, 0, "{:?}", report.faults);
    pool.install(|| morris::solve(&stopped, &roots, &morris::Silent))
        .unwrap();
    assert!(files(&dir) == files(&reference), "resumed to other files");

    // The proof: stopped part way, marked cancelled, fewer sectors proved, no fault.
    let sectors = stopped.present();
    let stop = StopAfter::new(total / 2);
    let report = pool.install(|| morris::verify(&stopped, &sectors, 10, &stop));
    assert!(
        report.cancelled && report.sectors < sectors.len(),
        "{report:?}"
    );
    assert_eq!(report.fault_count, 0, "{:?}", report.faults);

    // Tables: stopped part way, then built to the same bytes.
    let out = dir.parent().unwrap().join("cancel-solve-tables");
    let _ = fs::remove_dir_all(&out);
    let stop = StopAfter::new(total / 2);
    let err = pool
        .install(|| morris::tables::build_tables(&stopped, &out, &options, &stop))
        .unwrap_err();
    assert!(matches!(err, morris::Error::Cancelled), "{err}");
    let left = all_files(&out);
    assert!(left.keys().all(|k| !k.ends_with(".tmp")), "{left:?}");
    pool.install(|| morris::tables::build_tables(&stopped, &out, &options, &morris::Silent))
        .unwrap();
    assert!(all_files(&out) == all_files(&tables_ref), "tables differ");
    for d in [&reference, &tables_ref, &dir, &out] {
        let _ = fs::remove_dir_all(d);
    }
}
