//! Database format 2: damage anywhere is caught, folders shared by several processes end
//! byte-identical, and every failure exits with its documented code.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;

use common::{morris, payload_offset, rule_dir, scratch, solve_into, tables_into, text, Rng};
use morris::space::Sector;
use morris::store::Database;
use morris::{Color, Variant};

/// The sector files (and only them) of every rule-set folder, by name.
fn sector_files(db: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for dir in fs::read_dir(db).unwrap().flatten() {
        for e in fs::read_dir(dir.path()).unwrap().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with(".sec") {
                out.insert(name, fs::read(e.path()).unwrap());
            }
        }
    }
    out
}

/// Names of temporary files left in any rule-set folder.
fn temporary_files(db: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for dir in fs::read_dir(db).unwrap().flatten() {
        for e in fs::read_dir(dir.path()).into_iter().flatten().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with(".tmp") {
                out.push(name);
            }
        }
    }
    out
}

/// A position of nine's `sector` whose slot lies in payload block `block` (1-byte cells).
fn position_in_block(db: &Path, sector: Sector, block: u64) -> String {
    let v = Variant::by_name("nine").unwrap();
    let db = Database::new(db, &v).unwrap();
    let index = db.index(sector);
    let first = block << 20;
    (first..index.size())
        .find_map(|slot| index.position(slot))
        .map(|p| p.to_notation(&v, Color::White))
        .unwrap()
}

#[test]
fn damage_anywhere_in_a_file_is_caught_before_any_answer_that_reads_it() {
    let db = scratch("format-damage");
    let dbs = db.to_str().unwrap();
    solve_into("nine", &db, &["--sector", "4-4-0-0"]);
    let file = rule_dir(&db, "nine").join("4-4-0-0.sec");
    let pristine = fs::read(&file).unwrap();
    let payload = payload_offset(&pristine);
    let blocks = (pristine.len() - payload).div_ceil(1 << 20);
    assert_eq!(blocks, 4, "4-4-0-0 spans four 1 MiB blocks of 1-byte cells");
    let sector: Sector = "4-4-0-0".parse().unwrap();
    let run = |args: &[&str]| {
        let mut all = vec!["--variant", "nine"];
        all.extend(args);
        let out = morris(&all);
        (out.status.code(), text(&out))
    };
    let check = |needles: &[&str]| {
        let (code, t) = run(&["check", "--quiet", "--db", dbs]);
        assert_eq!(code, Some(1), "{t}");
        assert!(t.contains("FAULT sector 4-4-0-0: "), "{t}");
        for n in needles {
            assert!(t.contains(n), "{n}: {t}");
        }
        assert_eq!(t.matches("FAULT").count(), 1, "only the damaged file: {t}");
    };
    // (what, file bytes, the block a reader must name, if the payload was hit)
    let mut cases: Vec<(String, Vec<u8>, Option<usize>)> = Vec::new();
    let header_fields = [
        (0, "magic"),
        (9, "format version"),
        (13, "index layout"),
        (17, "header size"),
        (21, "block size"),
        (24, "variant"),
        (60, "rule-set id"),
        (185, "flying"),
        (186, "removal"),
        (192, "sector"),
        (196, "cell width"),
        (203, "slots"),
        (208, "positions"),
        (250, "raw draw"),
        (272, "max depth"),
        (281, "block count"),
        (289, "payload offset"),
        (297, "table checksum"),
        (305, "lines length"),
        (320, "board lines"),
        (1500, "header padding"),
        (4090, "header checksum"),
        (4096, "block table"),
        (4096 + 8 * blocks + 3, "table padding"),
    ];
    for (at, what) in header_fields {
        let mut bytes = pristine.clone();
        bytes[at] ^= 0x10;
        cases.push((format!("{what} (byte {at})"), bytes, None));
    }
    for b in 0..blocks {
        let mut bytes = pristine.clone();
        let at = payload + (b << 20) + 12_345 % (pristine.len() - payload - (b << 20));
        bytes[at] ^= 1;
        cases.push((format!("payload block {b}"), bytes, Some(b)));
    }
    cases.push((
        "truncation".into(),
        pristine[..pristine.len() - 1].to_vec(),
        None,
    ));
    let mut extended = pristine.clone();
    extended.push(0);
    cases.push(("extension".into(), extended, None));

    for (what, bytes, block) in &cases {
        fs::write(&file, bytes).unwrap();
        let (query_at, needle) = match block {
            Some(b) => (*b as u64, format!("block {b} (slots")),
            None => (0, "4-4-0-0.sec".to_string()),
        };
        check(&[&needle]);
        // query of a position in the damaged part fails, naming the file (and block).
        let pos = position_in_block(&db, sector, query_at);
        let (code, t) = run(&["query", "--db", dbs, &pos]);
        assert_eq!(code, Some(1), "{what}: {t}");
        assert!(
            t.contains("4-4-0-0.sec: damaged") || t.contains("4-4-0-0.sec: holds"),
            "{what}: {t}"
        );
        assert!(t.contains(&needle), "{what}: {t}");
        // stats reads headers and tables: it fails on those, and is right to ignore payloads.
        let (code, t) = run(&["stats", "--db", dbs]);
        if block.is_some() {
            assert_eq!(code, Some(0), "{what}: {t}");
        } else {
            assert_eq!(code, Some(1), "{what}: {t}");
            assert!(t.contains("4-4-0-0.sec"), "{what}: {t}");
        }
        if block == &Some(1) || what.starts_with("max depth") || what == "truncation" {
            let (code, t) = run(&["verify", "--quiet", "--db", dbs, "--sector", "4-4-0-0"]);
            assert_eq!(code, Some(1), "{what}: {t}");
            assert!(t.contains("FAULT sector 4-4-0-0"), "{what}: {t}");
            assert!(t.contains(&needle), "{what}: {t}");
        }
    }
    // solve finds a damaged child block before it reads it, names it, moves the file aside,
    // solves the child's unit again (to the same bytes), then the unit it was asked for.
    fs::write(&file, &cases.iter().find(|c| c.2 == Some(2)).unwrap().1).unwrap();
    let (code, t) = run(&["solve", "--quiet", "--db", dbs, "--sector", "5-4-0-0"]);
    assert_eq!(code, Some(0), "{t}");
    assert!(t.contains("4-4-0-0.sec: damaged: block 2 (slots"), "{t}");
    assert!(t.contains("moved aside as 4-4-0-0.sec.damaged"), "{t}");
    assert_eq!(fs::read(&file).unwrap(), pristine);
    assert!(rule_dir(&db, "nine").join("5-4-0-0.sec").exists());
    assert!(temporary_files(&db).is_empty());
    // Everything holds again.
    let (code, t) = run(&["check", "--quiet", "--db", dbs]);
    assert_eq!(code, Some(0), "{t}");
    assert!(t.contains("all hold"), "{t}");
}

#[test]
fn stats_json_keeps_the_documented_key_order_and_reports_each_files_checksum() {
    let db = scratch("format-stats");
    solve_into("three", &db, &[]);
    let out = morris(&[
        "--variant",
        "three",
        "stats",
        "--json",
        "--db",
        db.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let raw = String::from_utf8(out.stdout).unwrap();
    assert!(
        raw.starts_with(
            r#"{"variant":"three","start":{"value":"draw","depth":null},"sectors":[{"sector":"#
        ),
        "{raw}"
    );
    let keys = [
        "\"sector\":",
        "\"positions\":",
        "\"win\":",
        "\"loss\":",
        "\"draw\":",
        "\"raw_positions\":",
        "\"raw_win\":",
        "\"raw_loss\":",
        "\"raw_draw\":",
        "\"max_depth\":",
        "\"checksum\":",
    ];
    let from = raw.find("{\"sector\"").unwrap();
    let first = &raw[from..from + raw[from..].find('}').unwrap()];
    let places: Vec<usize> = keys.iter().map(|k| first.find(k).unwrap()).collect();
    assert!(places.windows(2).all(|w| w[0] < w[1]), "{first}");
    let json: serde_json::Value = serde_json::from_str(&raw).unwrap();
    for s in json["sectors"].as_array().unwrap() {
        let bytes =
            fs::read(rule_dir(&db, "three").join(format!("{}.sec", s["sector"].as_str().unwrap())))
                .unwrap();
        // The file's checksum is the header checksum, which covers every other byte of the
        // header (and through the table checksum, every block).
        let header = u64::from_le_bytes(bytes[4088..4096].try_into().unwrap());
        assert_eq!(header, xxhash_rust::xxh3::xxh3_64(&bytes[..4088]));
        assert_eq!(s["checksum"], format!("{header:016x}"));
    }
}

/// Starts `morris solve` of six on `db` in the background.
fn spawn_solve(db: &Path) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_morris"))
        .args([
            "--variant",
            "six",
            "solve",
            "--quiet",
            "--threads",
            "1",
            "--db",
        ])
        .arg(db)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn two_solves_sharing_a_folder_killed_at_random_end_byte_identical() {
    let reference = scratch("format-shared-reference");
    solve_into("six", &reference, &["--threads", "1"]);
    let expected = sector_files(&reference);
    let shared = scratch("format-shared");
    let mut rng = Rng::new(8);
    for round in 0..6 {
        let mut a = spawn_solve(&shared);
        std::thread::sleep(Duration::from_millis(rng.below(40)));
        let mut b = spawn_solve(&shared);
        std::thread::sleep(Duration::from_millis(50 + rng.below(500)));
        // Kill one, the other or both, at a random moment.
        let which = rng.below(3);
        if which != 1 {
            let _ = a.kill();
        }
        if which != 0 {
            let _ = b.kill();
        }
        for (name, child) in [("a", a), ("b", b)] {
            let out = child.wait_with_output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                out.status.success() || out.status.code().is_none(),
                "round {round} {name}: {err}"
            );
        }
        // Whatever is there under a final name is complete and correct.
        for (name, bytes) in sector_files(&shared) {
            assert_eq!(Some(&bytes), expected.get(&name), "round {round}: {name}");
        }
    }
    // Two runs to the end together: each unit solved once, the files those of a clean run.
    let a = spawn_solve(&shared);
    let b = spawn_solve(&shared);
    for child in [a, b] {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_eq!(sector_files(&shared), expected);
    assert_eq!(temporary_files(&shared), Vec::<String>::new());
}

#[test]
fn temporary_files_of_killed_and_interrupted_runs_do_not_survive() {
    // A leftover of a run killed with SIGKILL is removed by the next run that solves its unit.
    let db = scratch("format-leftover");
    let dir = rule_dir(&db, "three");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("3-3-0-0.sec.4242-0.tmp"), b"partial").unwrap();
    solve_into("three", &db, &[]);
    assert_eq!(temporary_files(&db), Vec::<String>::new());

    // SIGINT and SIGTERM during a write: the handler removes the file being written.
    let mut caught = 0;
    for attempt in 0..40u32 {
        let db = scratch("format-interrupted");
        let mut child = Command::new(env!("CARGO_BIN_EXE_morris"))
            .args([
                "--variant",
                "nine",
                "solve",
                "--quiet",
                "--max-pieces",
                "4",
                "--db",
            ])
            .arg(&db)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let signal = if attempt.is_multiple_of(2) {
            "-INT"
        } else {
            "-TERM"
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut sent = false;
        while Instant::now() < deadline {
            if fs::read_dir(&db).is_ok() && !temporary_files(&db).is_empty() {
                let status = Command::new("kill")
                    .args([signal, &child.id().to_string()])
                    .status()
                    .unwrap();
                sent = status.success();
                break;
            }
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
        let status = child.wait().unwrap();
        if sent && !status.success() {
            caught += 1;
            assert_eq!(status.code(), Some(130), "{signal}");
            assert_eq!(temporary_files(&db), Vec::<String>::new(), "{signal}");
        }
        if caught >= 2 {
            break;
        }
    }
    assert!(caught >= 2, "never caught a run while it wrote a file");
}

/// Runs `morris` with a time limit, so that a file that blocks readers fails the test
/// instead of hanging it.
fn morris_within(args: &[&str], limit: Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_morris"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + limit;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("morris {args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn files_of_format_1_and_things_that_are_not_files_are_refused_by_name() {
    let db = scratch("format-not-files");
    let dbs = db.to_str().unwrap();
    solve_into("three", &db, &[]);
    let dir = rule_dir(&db, "three");
    let file = dir.join("3-3-0-0.sec");
    let pristine = fs::read(&file).unwrap();
    let query = [
        "--variant",
        "three",
        "query",
        "--db",
        dbs,
        "WWW/B.B/.B. b 0 0",
    ];
    // A file of format 1 (the previous build's): refused with the way to rebuild it.
    let mut old = b"MORRISDB".to_vec();
    old.extend_from_slice(&1u32.to_le_bytes());
    old.resize(4096 + 100, 0);
    fs::write(&file, &old).unwrap();
    let out = morris_within(&query, Duration::from_secs(20));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let t = text(&out);
    assert!(
        t.contains("database format 1, this build reads format 2"),
        "{t}"
    );
    assert!(
        t.contains("delete the folder") && t.contains("morris solve --variant three"),
        "{t}"
    );
    assert!(t.contains(&format!("--db {dbs}")), "{t}");
    // A FIFO, a directory and a symlink loop: named, never waited on.
    fs::remove_file(&file).unwrap();
    let made = Command::new("mkfifo").arg(&file).status().unwrap();
    assert!(made.success());
    for (thing, make) in [
        ("a FIFO", None),
        ("a directory", Some("dir")),
        ("symbolic links", Some("loop")),
    ] {
        match make {
            Some("dir") => {
                fs::remove_file(&file).unwrap();
                fs::create_dir(&file).unwrap();
            }
            Some("loop") => {
                fs::remove_dir(&file).unwrap();
                std::os::unix::fs::symlink(&file, &file).unwrap();
            }
            _ => {}
        }
        for args in [
            &query[..],
            &["--variant", "three", "check", "--db", dbs][..],
        ] {
            let out = morris_within(args, Duration::from_secs(20));
            assert_eq!(
                out.status.code(),
                Some(1),
                "{thing} {args:?}: {}",
                text(&out)
            );
            let t = text(&out);
            assert!(
                t.contains("3-3-0-0.sec") && t.contains(thing),
                "{thing}: {t}"
            );
            assert!(!t.contains("not solved"), "{thing}: {t}");
        }
    }
    fs::remove_file(&file).unwrap();
    fs::write(&file, &pristine).unwrap();
    let out = morris_within(&query, Duration::from_secs(20));
    assert!(out.status.success(), "{}", text(&out));
}

#[test]
fn a_full_disk_and_io_errors_exit_1_naming_the_file_and_leave_nothing_behind() {
    let variant_args = [
        "--variant",
        "nine",
        "solve",
        "--quiet",
        "--sector",
        "3-3-0-0",
        "--db",
    ];
    // A file-size limit makes every write past it fail (EFBIG); SIGXFSZ is ignored, as
    // ignored signals stay ignored across exec.
    let db = scratch("format-file-size");
    let script = format!(
        "ulimit -f 64; trap '' XFSZ; exec {} {} {}",
        env!("CARGO_BIN_EXE_morris"),
        variant_args.join(" "),
        db.display()
    );
    let out = Command::new("bash").args(["-c", &script]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let t = text(&out);
    assert!(
        t.contains("File too large") && t.contains("3-3-0-0.sec"),
        "{t}"
    );
    assert_eq!(
        t.matches("File too large").count(),
        1,
        "the OS text once: {t}"
    );
    assert!(!rule_dir(&db, "nine").join("3-3-0-0.sec").exists());
    assert_eq!(temporary_files(&db), Vec::<String>::new());
    // Without the trap the limit's signal would kill the process silently, leaving its
    // temporary file: morris ignores SIGXFSZ itself, and ends as above.
    let script = format!(
        "ulimit -f 64; exec {} {} {}",
        env!("CARGO_BIN_EXE_morris"),
        variant_args.join(" "),
        db.display()
    );
    let out = Command::new("bash").args(["-c", &script]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("File too large"), "{}", text(&out));
    assert_eq!(temporary_files(&db), Vec::<String>::new());

    // A really full disk: a 64 KiB tmpfs, where this machine lets a test mount one (as root).
    let full = scratch("format-full-disk");
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
        .arg(&full)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!(
            "cannot mount a tmpfs here: the full-disk case is covered by the file-size limit"
        );
        return;
    }
    let mut args = variant_args.to_vec();
    args.push(full.to_str().unwrap());
    let out = morris(&args);
    let listing = temporary_files(&full);
    let solved = rule_dir(&full, "nine").join("3-3-0-0.sec").exists();
    let _ = Command::new("umount").arg(&full).status();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("No space left on device"),
        "{}",
        text(&out)
    );
    assert!(!solved);
    assert_eq!(listing, Vec::<String>::new());
}

/// Re-seals a sector file's header after an edit: its checksum is xxh3-64 of bytes
/// `[0, 4088)`, stored at 4088 (docs/format.md).
fn reseal(bytes: &mut [u8]) {
    let sum = xxhash_rust::xxh3::xxh3_64(&bytes[..4088]);
    bytes[4088..4096].copy_from_slice(&sum.to_le_bytes());
}

/// Adds `delta` to the `u64` statistic at `offset` of a header.
fn bump(bytes: &mut [u8], offset: usize, delta: i64) {
    let old = u64::from_le_bytes(bytes[offset..offset + 8].try_into().unwrap());
    bytes[offset..offset + 8].copy_from_slice(&old.wrapping_add(delta as u64).to_le_bytes());
}

/// A header whose statistics were changed and its checksum re-sealed: counts that no longer
/// add up are refused by every command that opens the file (`check`, `stats`, `verify`);
/// counts changed consistently still fail `verify`, which recomputes them from the payload.
#[test]
fn forged_header_statistics_are_caught() {
    let db = scratch("format-forged-stats");
    solve_into("five", &db, &[]);
    let path = rule_dir(&db, "five").join("4-4-0-0.sec");
    let whole = fs::read(&path).unwrap();
    let dbs = db.to_str().unwrap();
    // One more win than there are: the counts do not add up.
    let mut forged = whole.clone();
    bump(&mut forged, 216, 1);
    reseal(&mut forged);
    fs::write(&path, &forged).unwrap();
    for sub in ["check", "stats", "verify"] {
        let out = morris(&["--variant", "five", sub, "--db", dbs]);
        assert_eq!(out.status.code(), Some(1), "{sub}: {}", text(&out));
        assert!(
            text(&out).contains("4-4-0-0.sec") && text(&out).contains("do not add up"),
            "{sub}: {}",
            text(&out)
        );
    }
    // A win made a loss, and the deepest value deeper: the counts add up, but the payload
    // says otherwise.
    let mut forged = whole.clone();
    bump(&mut forged, 216, 1);
    bump(&mut forged, 224, -1);
    forged[272] = forged[272].wrapping_add(2);
    reseal(&mut forged);
    fs::write(&path, &forged).unwrap();
    let out = morris(&["--variant", "five", "check", "--db", dbs]);
    assert!(out.status.success(), "{}", text(&out));
    let out = morris(&["--variant", "five", "verify", "-q", "--db", dbs]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("FAULT sector 4-4-0-0: the header's statistics"),
        "{}",
        text(&out)
    );
    fs::write(&path, &whole).unwrap();
    let out = morris(&["--variant", "five", "verify", "-q", "--db", dbs]);
    assert!(out.status.success(), "{}", text(&out));
}

/// `solve` over a folder with a damaged payload block checks the blocks of the files it would
/// skip, moves the damaged file aside, solves its unit again (its dependencies are sound) to
/// the same bytes, and says so; it never reports a damaged folder as complete.
#[test]
fn solve_solves_a_damaged_sector_again() {
    let db = scratch("format-solve-damaged");
    solve_into("five", &db, &[]);
    let dir = rule_dir(&db, "five");
    let path = dir.join("3-3-0-0.sec");
    let whole = fs::read(&path).unwrap();
    let mut damaged = whole.clone();
    let at = payload_offset(&damaged) + 100;
    damaged[at] ^= 0x5A;
    fs::write(&path, &damaged).unwrap();
    let dbs = db.to_str().unwrap();
    let out = morris(&["--variant", "five", "solve", "--db", dbs]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("1 solved now"), "{}", text(&out));
    assert!(
        text(&out).contains("sector 3-3-0-0: ") && text(&out).contains("fails its checksum"),
        "{}",
        text(&out)
    );
    assert_eq!(fs::read(&path).unwrap(), whole);
    assert_eq!(fs::read(dir.join("3-3-0-0.sec.damaged")).unwrap(), damaged);
    let out = morris(&["--variant", "five", "check", "--db", dbs]);
    assert!(out.status.success(), "{}", text(&out));
}

/// `check` and `verify` compare the folder with what was solved: a sector file deleted from a
/// whole game (a dependency, or the start that nothing depends on) is a fault, with the
/// `solve` that fills it.
#[test]
fn a_deleted_sector_is_found_missing() {
    let db = scratch("format-deleted");
    solve_into("five", &db, &[]);
    let dir = rule_dir(&db, "five");
    let dbs = db.to_str().unwrap();
    for gone in ["3-3-0-0", "0-0-5-5"] {
        let path = dir.join(format!("{gone}.sec"));
        let whole = fs::read(&path).unwrap();
        fs::remove_file(&path).unwrap();
        for sub in ["check", "verify"] {
            let out = morris(&["--variant", "five", sub, "-q", "--db", dbs]);
            assert_eq!(out.status.code(), Some(1), "{sub} {gone}: {}", text(&out));
            let t = text(&out);
            assert!(t.contains(&format!("FAULT sector {gone}: ")), "{sub}: {t}");
            assert!(
                t.contains("morris solve --variant five")
                    && t.contains(&format!("--sector {gone}")),
                "{sub}: {t}"
            );
        }
        fs::write(&path, whole).unwrap();
    }
}

/// `check` and `verify` prove a folder complete from its sectors' dependencies and its record
/// of planned sectors, and the record is checked itself: with the start sector deleted (which
/// nothing depends on), a garbled, truncated or absent record is a fault, never "all hold";
/// a record naming a sector no game reaches is a fault of the record, not advice to solve it.
/// In a tables folder alike.
#[test]
fn a_folder_whose_record_of_planned_sectors_is_lost_is_not_called_complete() {
    let root = scratch("format-planned");
    let db = root.join("db");
    solve_into("five", &db, &[]);
    let tables = root.join("tables");
    let dbs = db.to_str().unwrap();
    tables_into("five", &db, &tables);
    for (folder, option, ext) in [(&db, "--db", "sec"), (&tables, "--tables", "wdl")] {
        let dir = rule_dir(folder, "five");
        let arg = folder.to_str().unwrap();
        let record = dir.join("planned");
        let sound = fs::read_to_string(&record).unwrap();
        let run = |sub: &str| morris(&["--variant", "five", sub, "-q", option, arg]);
        for sub in ["check", "verify"] {
            assert!(
                run(sub).status.success(),
                "{sub} {option}: {}",
                text(&run(sub))
            );
        }
        // The start sector, and with the depth table too for tables.
        let start = dir.join(format!("0-0-5-5.{ext}"));
        let kept = fs::read(&start).unwrap();
        fs::remove_file(&start).unwrap();
        let garbled = sound.replacen("0-0-5-5", "0-0-4-4", 1);
        let cut = sound.lines().take(3).collect::<Vec<_>>().join("\n");
        let cases: [(&str, Option<&str>, &str); 5] = [
            ("intact", Some(&sound), "FAULT sector 0-0-5-5: "),
            ("garbled", Some(&garbled), "checksum fails"),
            ("truncated", Some(&cut), "checksum line is missing"),
            ("absent", None, "the record of planned sectors is missing"),
            (
                "noise",
                Some("\u{1}\u{2}zz\n"),
                "does not begin with the line",
            ),
        ];
        for (case, content, expected) in cases {
            match content {
                Some(c) => fs::write(&record, c).unwrap(),
                None => fs::remove_file(&record).unwrap(),
            }
            for sub in ["check", "verify"] {
                let out = run(sub);
                let t = text(&out);
                assert_eq!(out.status.code(), Some(1), "{sub} {option} {case}: {t}");
                assert!(t.contains(expected), "{sub} {option} {case}: {t}");
                assert!(!t.contains("all hold"), "{sub} {option} {case}: {t}");
            }
        }
        fs::write(&start, &kept).unwrap();
        // A record naming an impossible sector (five has 5 pieces a side).
        let listed: Vec<&str> = sound
            .lines()
            .skip(1)
            .filter(|l| !l.starts_with("checksum"))
            .collect();
        let impossible = format!("morris planned sectors 1\n6-6-0-0\n{}\n", listed.join("\n"));
        fs::write(&record, impossible).unwrap();
        for sub in ["check", "verify"] {
            let out = run(sub);
            let t = text(&out);
            assert_eq!(out.status.code(), Some(1), "{sub} {option}: {t}");
            assert!(
                t.contains("line 2 names sector 6-6-0-0, which no game of five reaches"),
                "{t}"
            );
            assert!(
                !t.contains("--sector 6-6-0-0"),
                "no advice to solve it: {t}"
            );
        }
        fs::write(&record, &sound).unwrap();
        assert!(run("check").status.success());
    }
    // `solve` and `tables` write a faulty record anew.
    let dir = rule_dir(&db, "five");
    fs::write(dir.join("planned"), "garbage").unwrap();
    let out = morris(&["--variant", "five", "solve", "-q", "--db", dbs]);
    assert!(out.status.success(), "{}", text(&out));
    let out = morris(&["--variant", "five", "check", "-q", "--db", dbs]);
    assert!(out.status.success(), "{}", text(&out));
}

/// A sector forged with sound checksums (a loss made two plies longer, every checksum sealed
/// again): `verify` lists the forged sector's faults first and counts the faults of each
/// sector, dependencies first, though the sectors its wrong values mislead (placement sectors
/// among them) sort before it; from the database and from tables built from it.
#[test]
fn a_forged_sector_is_named_first_with_a_count_per_sector() {
    let root = scratch("format-forged-order");
    let db = root.join("db");
    solve_into("five", &db, &[]);
    let path = rule_dir(&db, "five").join("3-3-0-0.sec");
    let mut bytes = fs::read(&path).unwrap();
    let payload = payload_offset(&bytes);
    let max_depth = u32::from_le_bytes(bytes[272..276].try_into().unwrap()) as u8;
    let at = (payload..bytes.len())
        .find(|&i| bytes[i].is_multiple_of(2) && bytes[i] >= 2 && bytes[i] + 2 <= max_depth)
        .expect("a loss shorter than the deepest value");
    bytes[at] += 2;
    let block = (at - payload) / (1 << 20);
    let sum = xxhash_rust::xxh3::xxh3_64(
        &bytes[payload + (block << 20)..bytes.len().min(payload + ((block + 1) << 20))],
    );
    bytes[4096 + 8 * block..4096 + 8 * block + 8].copy_from_slice(&sum.to_le_bytes());
    let table = xxhash_rust::xxh3::xxh3_64(&bytes[4096..payload]);
    bytes[296..304].copy_from_slice(&table.to_le_bytes());
    reseal(&mut bytes);
    fs::write(&path, &bytes).unwrap();
    let dbs = db.to_str().unwrap();
    assert!(morris(&["--variant", "five", "check", "-q", "--db", dbs])
        .status
        .success());
    let tables = root.join("tables");
    let ts = tables.to_str().unwrap();
    tables_into("five", &db, &tables);
    for (option, arg) in [("--db", dbs), ("--tables", ts)] {
        let out = morris(&["--variant", "five", "verify", "-q", option, arg]);
        let t = text(&out);
        assert_eq!(out.status.code(), Some(1), "{option}: {t}");
        let first = t
            .lines()
            .find(|l| l.starts_with("FAULT"))
            .unwrap_or_default();
        assert!(first.starts_with("FAULT sector 3-3-0-0"), "{option}: {t}");
        let counts = t
            .lines()
            .find_map(|l| l.strip_prefix("faults by sector, dependencies first: "))
            .unwrap_or_else(|| panic!("{option}: no count per sector: {t}"));
        assert!(counts.starts_with("3-3-0-0 "), "{option}: {counts}");
        // The forged value misleads parents too, each counted.
        assert!(counts.split(", ").count() > 1, "{option}: {counts}");
        let total: u64 = counts
            .split(", ")
            .map(|c| c.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
            .sum();
        assert!(t.contains(&format!(": {total} faults")), "{option}: {t}");
    }
}
