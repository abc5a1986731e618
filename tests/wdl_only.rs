//! Win/draw/loss tables without their depth files (`tables --wdl-only`, a WDL-only set) answer
//! every value of six as the database does and never a depth: probes refuse wins' and losses'
//! depths, `query --json` gives `depth` null and `"metric": null`, a folder that lacks some
//! depth files answers with depths wherever it can (a finished position, lost at depth 0, reads
//! no file at all), `stats` and `check` read the set, `verify`
//! refuses it, and a later whole `tables` run fills the depth files in.

use std::fs;
use std::path::{Path, PathBuf};

mod common;

use common::{output_text, rule_dir, run_morris, scratch, Rng};
use morris::query::{Answer, MoveOutcome, OutcomeAnalysis};
use morris::rules::{generate, play};
use morris::store::{Database, READER_CACHE_BYTES};
use morris::{Color, Error, Position, Sector, Value, Variant};

/// `morris ARGS` on six, which must succeed; its standard output.
fn six(args: &[&str], stdin: &str) -> String {
    let mut all = vec!["--variant", "six"];
    all.extend(args);
    let out = run_morris(&all, stdin);
    assert!(out.status.success(), "{args:?}: {}", output_text(&out));
    String::from_utf8(out.stdout).unwrap()
}

/// `tables --json` of six from `db` into `out` (with `extra`), parsed.
fn build(db: &Path, out: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "tables",
        "--db",
        db.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
        "--json",
    ];
    args.extend(extra);
    serde_json::from_str(&six(&args, "")).unwrap()
}

/// The files of six's rule-set folder under `root`, by name, with their bytes.
fn files(root: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = fs::read_dir(rule_dir(root, "six"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| matches!(p.extension().and_then(|x| x.to_str()), Some("wdl" | "dtm")))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// Positions of six reached by random play from the start, with the side to move: many wins
/// and losses, of every phase.
fn sample(v: &Variant, n: usize) -> Vec<(Position, Color)> {
    let mut rng = Rng::new(43);
    let mut out = Vec::new();
    while out.len() < n {
        let (mut pos, mut turn) = (Position::start(v), Color::White);
        for _ in 0..rng.below(40) {
            let moves = generate(v, &pos);
            if moves.is_empty() {
                break;
            }
            pos = play(&pos, moves[rng.below(moves.len() as u64) as usize]);
            turn = turn.other();
        }
        out.push((pos, turn));
    }
    out
}

/// What the database's analysis says without its depths: an independent ordering of the moves
/// (wins, draws, losses; ties in notation order).
fn without_depths(v: &Variant, d: &Database, pos: &Position) -> OutcomeAnalysis {
    let a = d.analyse(pos).unwrap();
    let mut moves: Vec<MoveOutcome> = (a.moves.iter())
        .map(|m| MoveOutcome {
            mv: m.mv,
            outcome: m.value.outcome(),
        })
        .collect();
    let rank = |m: &MoveOutcome| match m.outcome {
        morris::Outcome::Win => 0,
        morris::Outcome::Draw => 1,
        morris::Outcome::Loss => 2,
    };
    moves.sort_by_key(|m| (rank(m), m.mv.to_notation(v.board())));
    OutcomeAnalysis {
        outcome: a.value.outcome(),
        moves,
    }
}

#[test]
fn wdl_only_tables_answer_every_value_and_no_depth() {
    let dir = scratch("wdl-only-six");
    let (db, full, wdl) = (dir.join("db"), dir.join("full"), dir.join("wdl"));
    six(&["solve", "--quiet", "--db", db.to_str().unwrap()], "");
    let full_report = build(&db, &full, &[]);
    let report = build(&db, &wdl, &["--wdl-only"]);

    // The set is the whole build's win/draw/loss files, byte for byte, and nothing else.
    let (full_files, wdl_files) = (files(&full), files(&wdl));
    let expected: Vec<_> = (full_files.iter())
        .filter(|(n, _)| n.ends_with(".wdl"))
        .cloned()
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(
        wdl_files, expected,
        "the win/draw/loss files of a whole build"
    );
    assert_eq!(report["depth_bytes"], 0);
    assert_eq!(report["wdl_bytes"], full_report["wdl_bytes"]);
    for s in report["sectors"].as_array().unwrap() {
        assert!(
            s["depth_checksum"].is_null() && s["depth_bytes"] == 0,
            "{s}"
        );
    }
    // A rerun keeps it.
    let again = build(&db, &wdl, &["--wdl-only"]);
    assert!((again["sectors"].as_array().unwrap().iter()).all(|s| s["kept"] == true));
    // A depth file of another sector in the set: the sector is rebuilt WDL-only, the stray
    // file gone (a depth file left beside a rebuilt .wdl would refuse the whole sector).
    let (full_dir, wdl_dir) = (rule_dir(&full, "six"), rule_dir(&wdl, "six"));
    fs::copy(full_dir.join("3-3-0-0.dtm"), wdl_dir.join("4-4-0-0.dtm")).unwrap();
    let mended = build(&db, &wdl, &["--wdl-only"]);
    let rebuilt: Vec<&serde_json::Value> = (mended["sectors"].as_array().unwrap().iter())
        .filter(|s| s["kept"] == false)
        .collect();
    assert_eq!(rebuilt.len(), 1, "{mended}");
    assert_eq!(rebuilt[0]["sector"], "4-4-0-0");
    let names = |f: &[(String, Vec<u8>)]| f.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(
        names(&files(&wdl)),
        names(&expected),
        "the stray depth file is gone"
    );
    assert!(
        files(&wdl) == expected,
        "the set is whole again, byte for byte"
    );

    // Every slot: outcomes as the database's; draws answered, wins' and losses' depths refused.
    let v = Variant::by_name("six").unwrap();
    let d = Database::reader(&db, &v, READER_CACHE_BYTES).unwrap();
    let t = Database::tables(&wdl, &v, READER_CACHE_BYTES).unwrap();
    assert_eq!(t.present(), d.present());
    let (mut decided, mut draws) = (0u64, 0u64);
    for s in d.present() {
        let (ds, ts) = (d.sector(s).unwrap(), t.sector(s).unwrap());
        assert!(ds.has_distances() && !ts.has_distances(), "{s}");
        assert_eq!(ts.stats(), ds.stats(), "{s}: statistics");
        assert_eq!(ts.file_count(), 1);
        let index = d.index(s);
        index.for_each_slot(0, index.size(), |slot, pos| {
            let expected = ds.cell(slot).unwrap();
            let Some(pos) = pos else {
                assert_eq!(ts.cell(slot).unwrap(), None, "{s} slot {slot}: unused");
                return;
            };
            let value = expected.expect("a used slot");
            assert_eq!(ts.outcome_of(slot, &pos).unwrap(), value.outcome());
            match (value, ts.cell_of(slot, Some(&pos))) {
                (Value::Draw, Ok(Some(Value::Draw))) => draws += 1,
                (Value::Win(_) | Value::Loss(_), Err(Error::NoDistance { sector, .. })) => {
                    assert_eq!(sector, s);
                    decided += 1;
                }
                (value, got) => panic!("{s} slot {slot}: {value:?} read as {got:?}"),
            }
        });
    }
    assert!(decided > 1_000_000 && draws > 100_000, "{decided} {draws}");

    // query --json: the database's values, no depth anywhere, "metric": null; the moves in
    // the order of an independent sort of the database's.
    let positions = sample(&v, 600);
    let text: String = (positions.iter())
        .map(|(p, turn)| p.to_notation(&v, *turn) + "\n")
        .collect();
    let from_db = six(&["query", "--db", db.to_str().unwrap(), "-"], &text);
    let from_wdl = six(&["query", "--tables", wdl.to_str().unwrap(), "-"], &text);
    let (mut wins, mut losses) = (0, 0);
    for (((pos, _), a), b) in positions.iter().zip(from_db.lines()).zip(from_wdl.lines()) {
        let (a, b): (serde_json::Value, serde_json::Value) = (
            serde_json::from_str(a).unwrap(),
            serde_json::from_str(b).unwrap(),
        );
        if pos.mover_pieces() < 3 {
            // A finished position reads no file: lost at depth 0, known without one.
            assert_eq!(a, b);
            assert!(b["depth"] == 0 && b["moves"].as_array().unwrap().is_empty());
            continue;
        }
        assert!(a.get("metric").is_none(), "a database gives depths: {a}");
        assert!(b["metric"].is_null() && b.get("metric").is_some(), "{b}");
        assert_eq!(b["value"], a["value"], "{b}");
        assert!(b["depth"].is_null(), "{b}");
        wins += (a["value"] == "win") as u32;
        losses += (a["value"] == "loss") as u32;
        let expected = without_depths(&v, &d, pos);
        let moves = b["moves"].as_array().unwrap();
        assert_eq!(moves.len(), expected.moves.len(), "{b}");
        for (m, e) in moves.iter().zip(&expected.moves) {
            assert_eq!(m["move"], e.mv.to_notation(v.board()), "{b}");
            assert_eq!(m["value"], e.outcome.name(), "{b}");
            assert!(m["depth"].is_null(), "{b}");
        }
        assert_eq!(t.answer(pos).unwrap(), Answer::Outcomes(expected));
    }
    assert!(
        wins > 50 && losses > 20,
        "{wins} wins, {losses} losses sampled"
    );
    assert_eq!(from_wdl.lines().count(), positions.len());

    // The text says why there are no depths.
    let start = six(&["query", "--tables", wdl.to_str().unwrap(), "start"], "");
    assert!(start.contains("no distances are known"), "{start}");

    // stats: the same counts; six's start is a draw, so the same object whole.
    let stats = |flag: &str, dir: &Path| six(&["stats", flag, dir.to_str().unwrap(), "--json"], "");
    assert_eq!(stats("--tables", &wdl), stats("--db", &db));

    // check reads every block and says the set holds no distances; verify refuses, exit 2.
    let checked = six(&["check", "--tables", wdl.to_str().unwrap()], "");
    assert!(checked.contains("all hold"), "{checked}");
    assert!(checked.contains("without their depth files"), "{checked}");
    let out = run_morris(
        &[
            "--variant",
            "six",
            "verify",
            "--tables",
            wdl.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2), "{}", output_text(&out));
    assert!(output_text(&out).contains("without their depth files"));

    // A whole run over the set builds the depth files: the whole build, byte for byte.
    let filled = build(&db, &wdl, &[]);
    assert!((filled["sectors"].as_array().unwrap().iter()).all(|s| s["kept"] == false));
    assert_eq!(files(&wdl), full_files);
}

#[test]
fn a_folder_missing_some_depth_files_answers_depths_where_it_holds_them() {
    let dir = scratch("wdl-only-mixed");
    let (db, mixed) = (dir.join("db"), dir.join("mixed"));
    six(&["solve", "--quiet", "--db", db.to_str().unwrap()], "");
    build(&db, &mixed, &[]);
    // The depth files of the sectors with three pieces on the board a side or fewer go.
    let v = Variant::by_name("six").unwrap();
    let bare = |s: Sector| {
        s.to_string()
            .split('-')
            .take(2)
            .all(|n| n.parse::<u32>().unwrap() <= 3)
    };
    let mut removed = 0;
    for s in Database::reader(&db, &v, READER_CACHE_BYTES)
        .unwrap()
        .present()
    {
        if bare(s) {
            let path: PathBuf = rule_dir(&mixed, "six").join(format!("{s}.dtm"));
            fs::remove_file(path).unwrap();
            removed += 1;
        }
    }
    assert!(removed > 3);
    let d = Database::reader(&db, &v, READER_CACHE_BYTES).unwrap();
    let t = Database::tables(&mixed, &v, READER_CACHE_BYTES).unwrap();
    let (mut with, mut without) = (0, 0);
    for (pos, _) in sample(&v, 600) {
        let mut read = vec![pos];
        read.extend(generate(&v, &pos).iter().map(|&mv| play(&pos, mv)));
        let finished = |p: &Position| p.mover_pieces() < 3;
        let all_held = read.iter().all(|p| finished(p) || !bare(Sector::of(p)));
        match t.answer(&pos).unwrap() {
            Answer::Values(a) => {
                assert!(
                    all_held,
                    "{pos:?}: values read from a sector without depths"
                );
                assert_eq!(a, d.analyse(&pos).unwrap());
                with += 1;
            }
            Answer::Outcomes(a) => {
                assert!(
                    !all_held,
                    "{pos:?}: no depths though every sector holds them"
                );
                assert_eq!(a, without_depths(&v, &d, &pos));
                without += 1;
            }
        }
    }
    assert!(
        with > 50 && without > 50,
        "{with} with depths, {without} without"
    );
    // check counts one file for each sector without its depth file.
    let checked = six(&["check", "--tables", mixed.to_str().unwrap()], "");
    assert!(
        checked.contains(&format!("{removed} sectors are win/draw/loss tables")),
        "{checked}"
    );
}
