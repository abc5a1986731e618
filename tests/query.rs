//! `query` and `verify` from the command line: answers, JSON, and damage that is always caught.

use std::fs;
use std::process::Output;

mod common;

use common::{morris, payload_offset, rule_dir, run_morris, solved, text};

#[test]
fn gassers_deepest_3_3_position_is_a_loss_in_26_for_black() {
    let db = solved("query-nine", "nine", &["--sector", "3-3-0-0"]);
    let position = ".WW/.../.B./B....B/.../.../..W b 0 0";
    let out = morris(&["query", "--json", "--db", db.to_str().unwrap(), position]);
    assert!(out.status.success(), "{}", text(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["variant"], "nine");
    assert_eq!(json["position"], position);
    assert_eq!(json["value"], "loss");
    assert_eq!(json["depth"], 26);
    let moves = json["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    assert_eq!(moves[0]["value"], "loss");
    assert_eq!(moves[0]["depth"], 26);
    for m in moves {
        assert_eq!(m["value"], "loss");
        assert!(m["depth"].as_u64().unwrap() <= 26);
        assert!(m["move"].as_str().unwrap().contains('-'));
    }
    // The text form: a diagram, the verdict in words, a table.
    let out = morris(&["query", "--db", db.to_str().unwrap(), position]);
    let t = text(&out);
    assert!(t.contains("Black to move loses in 26 plies"), "{t}");
    assert!(t.contains(" 7  .     W     W\n 6    .   .   .\n"), "{t}");
    assert!(t.contains("move"), "{t}");
    // A finished position: loss at depth 0, no moves.
    let out = morris(&[
        "query",
        "--json",
        "--db",
        db.to_str().unwrap(),
        "WWW/.../.B./B...../.../.../... b 0 0",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["value"], "loss");
    assert_eq!(json["depth"], 0);
    assert_eq!(json["moves"].as_array().unwrap().len(), 0);
}

#[test]
fn batch_query_answers_json_lines_and_unsolved_sectors_name_the_command() {
    let db = solved("query-batch", "nine", &["--sector", "3-3-0-0"]);
    let dbs = db.to_str().unwrap();
    let input =
        ".WW/.../.B./B....B/.../.../..W b 0 0\nnonsense\n.../.../.../....../.../.../... w 9 9\n";
    let out = run_morris(&["query", "--db", dbs, "-"], input);
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["depth"], 26);
    assert!(lines[1]["error"]
        .as_str()
        .unwrap()
        .contains("expected 4 fields"));
    let missing = lines[2]["error"].as_str().unwrap();
    assert!(
        missing.contains("sector 0-0-9-9 is not solved"),
        "{missing}"
    );
    assert!(missing.contains("morris solve --variant nine"), "{missing}");
    assert_eq!(out.status.code(), Some(2));
    let out = morris(&["query", "--db", dbs, ".../.../.../....../.../.../... w 9 9"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("--sector 0-0-9-9"), "{}", text(&out));
}

#[test]
fn verify_passes_on_a_sound_database_and_names_a_changed_position() {
    let db = solved("verify-flip", "five", &[]);
    let dbs = db.to_str().unwrap();
    let out = morris(&["--variant", "five", "verify", "--quiet", "--db", dbs]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("all hold"), "{}", text(&out));

    // Change one win's depth in the middle of 3-3-0-0.
    let file = rule_dir(&db, "five").join("3-3-0-0.sec");
    let mut bytes = fs::read(&file).unwrap();
    let payload = payload_offset(&bytes);
    let at = (payload..bytes.len())
        .skip((bytes.len() - payload) / 2)
        .find(|&i| bytes[i] % 2 == 1 && bytes[i] < 200)
        .unwrap();
    bytes[at] += 2;
    fs::write(&file, &bytes).unwrap();
    let out = morris(&["--variant", "five", "verify", "--quiet", "--db", dbs]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let t = text(&out);
    assert!(
        t.contains("FAULT sector 3-3-0-0: ")
            && t.contains("block 0 (slots 0..")
            && t.contains("fails its checksum"),
        "{t}"
    );
    let slot = at - payload;
    let line = t
        .lines()
        .find(|l| l.contains(&format!("slot {slot}:")))
        .unwrap_or_else(|| panic!("{t}"));
    assert!(line.starts_with("FAULT sector 3-3-0-0 position "), "{line}");
    assert!(
        line.contains(&format!(
            "stored win in {}, its children prove win in {}",
            bytes[at],
            bytes[at] - 2
        )),
        "{line}"
    );
    // query never answers from the damaged file.
    let out = morris(&[
        "--variant",
        "five",
        "query",
        "--db",
        dbs,
        "WWW/.../.BB./.../.B. b 0 0",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("3-3-0-0.sec: damaged: block 0 (slots 0.."),
        "{}",
        text(&out)
    );
    // verify --sector checks just that sector.
    let out = verify_five_sector(dbs, "4-4-0-0");
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("checked 1 sectors"), "{}", text(&out));
    // Without --quiet, each sector recomputed gets a log line on stderr: its counts, its
    // time and what was found.
    let loud = |extra: &[&str]| {
        let mut args = vec!["--variant", "five", "verify", "--db", dbs];
        args.extend_from_slice(extra);
        morris(&args)
    };
    let out = loud(&["--sector", "4-4-0-0"]);
    let log = String::from_utf8_lossy(&out.stderr).to_string();
    let line = log
        .lines()
        .find(|l| l.starts_with("sector 4-4-0-0: "))
        .unwrap_or_else(|| panic!("{log}"));
    let positions = positions_checked(&String::from_utf8_lossy(&out.stdout));
    assert!(
        line.starts_with(&format!("sector 4-4-0-0: {positions} positions, "))
            && line.ends_with(", sound"),
        "{line}"
    );
    // Every sector is proved and logged, but those that read the damaged 3-3-0-0: they are
    // not proved from damaged cells, and their faults name it as the cause.
    let out = loud(&["--max-faults", "1000"]);
    let log = String::from_utf8_lossy(&out.stderr).to_string();
    let faults = String::from_utf8_lossy(&out.stdout).to_string();
    let blamed = faults
        .lines()
        .filter(|l| l.contains("cannot be proved: its dependency 3-3-0-0 has damaged blocks"))
        .count();
    assert!(blamed > 0, "{faults}");
    assert_eq!(
        log.lines().filter(|l| l.starts_with("sector ")).count() + blamed,
        40,
        "{log}"
    );
    assert!(
        faults.starts_with("FAULT sector 3-3-0-0: "),
        "the damaged file is named first: {faults}"
    );
    let damaged = log
        .lines()
        .find(|l| l.starts_with("sector 3-3-0-0: "))
        .unwrap_or_else(|| panic!("{log}"));
    assert!(
        damaged.ends_with(" faults") && !damaged.ends_with(" 0 faults"),
        "{damaged}"
    );
}

#[test]
fn truncated_foreign_and_missing_files_are_reported() {
    let db = solved("verify-damage", "three", &[]);
    let dbs = db.to_str().unwrap();
    let dir = rule_dir(&db, "three");
    let file = dir.join("3-3-0-0.sec");
    // `verify` and `query` of a 3-3-0-0 position each exit as told, saying what is wrong.
    let expect = |verify_code: i32, query_code: i32, query: &str, needles: &[&str]| {
        for (args, code) in [
            (
                vec!["--variant", "three", "verify", "--quiet", "--db", dbs],
                verify_code,
            ),
            (
                vec!["--variant", "three", "query", "--db", dbs, query],
                query_code,
            ),
        ] {
            let out = morris(&args);
            assert_eq!(out.status.code(), Some(code), "{args:?}: {}", text(&out));
            for needle in needles {
                assert!(text(&out).contains(needle), "{args:?}: {}", text(&out));
            }
        }
    };
    // Truncated.
    let original = fs::read(&file).unwrap();
    fs::write(&file, &original[..original.len() - 1]).unwrap();
    expect(
        1,
        1,
        "WWW/B.B/.B. b 0 0",
        &["3-3-0-0.sec: damaged:", "the header promises"],
    );
    // A header of another variant (three-diag's file under three's name).
    let other = solved("verify-damage-other", "three-diag", &[]);
    fs::copy(rule_dir(&other, "three-diag").join("3-3-0-0.sec"), &file).unwrap();
    expect(
        1,
        1,
        "WWW/B.B/.B. b 0 0",
        &["holds variant three-diag, not three"],
    );
    // A missing dependency: verify names it; a query whose moves lead there names the command.
    fs::remove_file(&file).unwrap();
    let out = morris(&["--variant", "three", "verify", "--quiet", "--db", dbs]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).contains("dependency sector 3-3-0-0 is missing"),
        "{}",
        text(&out)
    );
    let out = morris(&[
        "--variant",
        "three",
        "query",
        "--db",
        dbs,
        "W.B/.WW/.B. b 0 1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).contains("sector 3-3-0-0 is not solved"),
        "{}",
        text(&out)
    );
}

/// `verify --sector SECTOR` of five's database `dbs`.
fn verify_five_sector(dbs: &str, sector: &str) -> Output {
    morris(&[
        "--variant",
        "five",
        "verify",
        "--quiet",
        "--db",
        dbs,
        "--sector",
        sector,
    ])
}

/// The files of `dir` whose names end in `suffix`.
fn count_files(dir: &std::path::Path, suffix: &str) -> usize {
    fs::read_dir(dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(suffix)
        })
        .count()
}

/// The positions a `verify` summary says it recomputed.
fn positions_checked(t: &str) -> u64 {
    let l = t.lines().find(|l| l.starts_with("checked ")).unwrap();
    let n = l
        .split(", ")
        .nth(1)
        .unwrap()
        .strip_suffix(" positions")
        .unwrap();
    n.parse().unwrap()
}

#[test]
fn verify_resume_records_proofs_and_recomputes_only_what_changed() {
    let db = solved("verify-resume", "five", &[]);
    let dbs = db.to_str().unwrap();
    let dir = rule_dir(&db, "five");
    let sectors = count_files(&dir, ".sec");
    let resume = [
        "--variant",
        "five",
        "verify",
        "--quiet",
        "--resume",
        "--db",
        dbs,
    ];
    // A first run proves and records every sector.
    let out = morris(&resume);
    assert!(out.status.success(), "{}", text(&out));
    assert!(!text(&out).contains("proved before"), "{}", text(&out));
    assert_eq!(count_files(&dir, ".proved"), sectors);
    let record = fs::read_to_string(dir.join("4-4-0-0.proved")).unwrap();
    // The sector itself, then what it reads: itself (moves) and 3-4-0-0 (removals).
    assert!(record.starts_with("morris proof 1\n4-4-0-0 "), "{record}");
    assert!(
        record.lines().count() == 3 && record.contains("\n3-4-0-0 "),
        "{record}"
    );

    // As if interrupted after all but two: only those are recomputed.
    fs::remove_file(dir.join("4-4-0-0.proved")).unwrap();
    fs::write(dir.join("3-3-0-0.proved"), "morris proof 1\n3-3-0-0 0\n").unwrap();
    let out = morris(&resume);
    assert!(out.status.success(), "{}", text(&out));
    let t = text(&out);
    assert!(
        t.contains(&format!("{} sectors proved before", sectors - 2)),
        "{t}"
    );
    // Recounting positions shows what was recomputed: a run of just those two sectors.
    let both: u64 = ["3-3-0-0", "4-4-0-0"]
        .iter()
        .map(|s| positions_checked(&text(&verify_five_sector(dbs, s))))
        .sum();
    assert_eq!(positions_checked(&t), both, "{t}");
    let out = morris(&resume);
    assert!(text(&out).contains(&format!("{sectors} sectors proved before")));

    // A changed file is proved again even with a matching record: its block fails.
    let file = dir.join("3-3-0-0.sec");
    let mut bytes = fs::read(&file).unwrap();
    let payload = payload_offset(&bytes);
    let at = (payload..bytes.len())
        .find(|&i| bytes[i] % 2 == 1 && bytes[i] < 200)
        .unwrap();
    bytes[at] += 2;
    fs::write(&file, &bytes).unwrap();
    let out = morris(&resume);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("FAULT sector 3-3-0-0: "),
        "{}",
        text(&out)
    );
}

/// A child marked unused is named from its parent (which move, which slot of which sector),
/// and an unused slot given a value is caught in slot order.
#[test]
fn verify_names_a_child_without_a_value_and_an_unused_slot_with_one() {
    let db = solved("verify-unused", "five", &[]);
    let dbs = db.to_str().unwrap();
    let file = rule_dir(&db, "five").join("3-3-0-0.sec");
    let original = fs::read(&file).unwrap();
    let payload = payload_offset(&original);
    const UNUSED: u8 = 254;
    // A used slot in the middle of the sector, marked unused.
    let used = (payload..original.len())
        .skip((original.len() - payload) / 2)
        .find(|&i| original[i] != UNUSED)
        .unwrap();
    let mut bytes = original.clone();
    bytes[used] = UNUSED;
    fs::write(&file, &bytes).unwrap();
    let out = morris(&["--variant", "five", "verify", "--quiet", "--db", dbs]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let t = text(&out);
    let slot = used - payload;
    assert!(
        t.contains(&format!(
            "slot {slot}: a canonical position is marked unused"
        )),
        "{t}"
    );
    assert!(
        t.contains(&format!("has no stored value (slot {slot} of 3-3-0-0)")),
        "{t}"
    );
    // An unused slot given a value.
    let unused = (payload..original.len())
        .find(|&i| original[i] == UNUSED)
        .unwrap();
    let mut bytes = original.clone();
    bytes[unused] = 1;
    fs::write(&file, &bytes).unwrap();
    let out = verify_five_sector(dbs, "3-3-0-0");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains(&format!(
            "FAULT sector 3-3-0-0: slot {}: an unused slot holds a value",
            unused - payload
        )),
        "{}",
        text(&out)
    );
}

/// The chance that an opponent moving at random loses within `depth` of its moves after the
/// drawing move that led to `pos`, found the slow way: each position's analysis, every line
/// followed, nothing remembered, no budget.
fn naive_trap_chance(db: &morris::Database, pos: &morris::Position, depth: u32) -> f64 {
    use morris::rules::play;
    use morris::Value;
    let replies = db.analyse(pos).unwrap().moves;
    let mut sum = 0.0;
    for r in &replies {
        match r.value {
            Value::Loss(_) => sum += 1.0,
            Value::Draw if depth > 1 => {
                let q = play(pos, r.mv);
                sum += db
                    .analyse(&q)
                    .unwrap()
                    .moves
                    .iter()
                    .filter(|m| m.value == Value::Draw)
                    .map(|m| naive_trap_chance(db, &play(&q, m.mv), depth - 1))
                    .fold(0.0, f64::max);
            }
            _ => {}
        }
    }
    sum / replies.len() as f64
}

/// Draw quality: the traps of every drawing move of positions of six from random games, one and
/// two of the opponent's moves deep (and three for a few), equal the slow search's; a budget too
/// small for two falls back to one, which is the share of losing replies.
#[test]
fn traps_of_drawing_moves_equal_a_naive_search() {
    use morris::query::traps;
    use morris::rules::play;
    use morris::{Database, Position, Value, Variant};
    let db = solved("query-traps", "six", &[]);
    let six = Variant::by_name("six").unwrap();
    let database = Database::new(&db, &six).unwrap();
    let mut rng = common::Rng::new(45);
    let (mut checked, mut deeper_differs) = (0, 0);
    for (i, text) in common::played(&six, &mut rng, 40, 30).iter().enumerate() {
        let (pos, _) = Position::parse(&six, text).unwrap();
        let analysis = database.analyse(&pos).unwrap();
        let after: Vec<Position> = analysis
            .moves
            .iter()
            .filter(|m| m.value == Value::Draw)
            .map(|m| play(&pos, m.mv))
            .collect();
        if after.is_empty() {
            continue;
        }
        let depths: &[u32] = if i < 3 { &[1, 2, 3] } else { &[1, 2] };
        for &d in depths {
            let found = traps::at_depth(&database, &after, d, u64::MAX)
                .unwrap()
                .unwrap();
            for (p, t) in after.iter().zip(&found) {
                let naive = naive_trap_chance(&database, p, d);
                assert!((t.chance - naive).abs() < 1e-12, "{text}: {t:?} vs {naive}");
                assert_eq!(t.depth, d);
                if d == 2 && (t.chance - f64::from(t.losing) / f64::from(t.replies)).abs() > 1e-9 {
                    deeper_differs += 1;
                }
                checked += 1;
            }
        }
        // A budget of one probe is too small for two moves: one move deep, whatever it costs.
        for t in traps::deepest(&database, &after, 2, 1).unwrap() {
            assert_eq!(t.depth, 1);
            assert_eq!(t.chance, f64::from(t.losing) / f64::from(t.replies));
        }
    }
    assert!(checked > 200, "only {checked} drawing moves");
    assert!(
        deeper_differs > 20,
        "two moves deep changed only {deeper_differs} chances"
    );
}
