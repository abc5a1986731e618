//! The command line: outputs, batch mode, help, and a clear exit 2 for every malformed input.

mod common;

use std::process::Output;

use common::run_morris as morris;

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

#[test]
fn malformed_positions_exit_2_naming_the_problem() {
    let cases = [
        ("nine", "", "expected 4 fields"),
        (
            "nine",
            ".../.../.../....../.../.../... w 9",
            "expected 4 fields",
        ),
        ("nine", ".../.../.../....../.../... w 9 9", "has 7 ranks"),
        (
            "nine",
            ".../.../.../...../.../.../... w 9 9",
            "has 6 points, found 5",
        ),
        (
            "six",
            "W.B/.../.W.B/.../.... b 3 4",
            "has 3 points, found 4",
        ),
        (
            "nine",
            ".../.X./.../....../.../.../... w 9 9",
            "unexpected character 'X' at d6",
        ),
        (
            "nine",
            ".../.../.../....../.../.../... x 9 9",
            "turn must be w or b",
        ),
        (
            "nine",
            ".../.../.../....../.../.../... w nine 9",
            "White's hand must be a number",
        ),
        (
            "nine",
            ".../.../.../....../.../.../... w -1 9",
            "White's hand must be a number",
        ),
        (
            "nine",
            ".../.../.../....../.../.../... w 10 10",
            "exceeds the 9 pieces",
        ),
        (
            "nine",
            ".../.../.../....../.../.../... w 99999999999 9",
            "exceeds the 9 pieces",
        ),
        ("three", "WWW/W../... w 0 0", "more than its 3 pieces"),
        (
            "nine",
            "WWW/.../.../....../.../.../... w 7 7",
            "more than its 9 pieces",
        ),
        (
            "nine",
            ".../.../.../....../.../.../... w 9 8",
            "both hands must be equal",
        ),
        (
            "nine",
            ".../.../.../....../.../.../... b 9 9",
            "one more than White's",
        ),
        (
            "nine",
            ".../.../.../....../.../.../... b 0 2",
            "one more than White's",
        ),
    ];
    for (variant, position, message) in cases {
        for command in ["moves", "perft"] {
            let mut args = vec!["--variant", variant, command];
            if command == "perft" {
                args.extend(["--depth", "1"]);
            }
            args.push(position);
            let out = morris(&args, "");
            assert_eq!(
                out.status.code(),
                Some(2),
                "{command} {position:?}: {}",
                stderr(&out)
            );
            assert!(
                stderr(&out).contains(message),
                "{position:?}: {}",
                stderr(&out)
            );
            assert!(!stderr(&out).contains("panicked"));
        }
    }
}

#[test]
fn bad_arguments_exit_2() {
    for args in [
        &["--variant", "ten", "moves", "x"][..],
        &["--flying", "sometimes", "perft", "--depth", "1"],
        &["--removal", "loose", "perft", "--depth", "1"],
        &["--phases", "alternate", "perft", "--depth", "1"],
        &["--full-board", "win", "perft", "--depth", "1"],
        &["perft", "--depth", "many"],
        &["frobnicate"],
        &["moves"],
    ] {
        let out = morris(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!stderr(&out).is_empty(), "{args:?}");
    }
    let out = morris(&["--variant", "ten", "moves", "x"], "");
    assert!(stderr(&out).contains("unknown variant \"ten\""));
}

#[test]
fn moves_prints_sorted_moves_and_json() {
    let out = morris(
        &["--variant", "six", "moves", "W.B/.../.W.B/.../W.. b 3 4"],
        "",
    );
    assert_eq!(
        stdout(&out),
        "a3 b2 b4 c1 c2 c4 c5 d2 d3 d4 e1xa1 e1xa5 e1xb3\n"
    );
    // Without White's a1 the position cannot occur (White has lost a piece to a mill that
    // Black, with two placed, could not have formed): refused as `query` refuses it.
    let out = morris(
        &["--variant", "six", "moves", "W.B/.../.W.B/.../... b 3 4"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cannot occur in a game"),
        "{}",
        stderr(&out)
    );
    let out = morris(
        &["--variant", "three", "moves", "--json", "WW./BB./... w 1 1"],
        "",
    );
    assert_eq!(
        stdout(&out),
        "[\"a1\",\"b1\",\"c1\",\"c2\",\"c3xa2\",\"c3xb2\"]\n"
    );
    // Finished positions: the mover is blocked, or has fewer than three pieces.
    for finished in ["BBB/WWW/... b 0 0", "BB./WWW/... b 0 0"] {
        let out = morris(&["--variant", "three", "moves", finished], "");
        assert!(out.status.success());
        assert_eq!(stdout(&out), "\n", "{finished}");
    }
    let out = morris(&["--variant", "three", "moves", "BWB/WBW/... w 0 0"], "");
    assert_eq!(stdout(&out), "a2-a1 c2-c1\n");
}

#[test]
fn batch_mode_answers_one_line_per_position_in_order() {
    let input = ".../.../.../....../.../.../... w 9 9\nnot a position\nW../.../.../....../.../.../... b 8 9\n";
    let out = morris(&["moves", "--json", "-"], input);
    let lines: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(
        serde_json::from_str::<Vec<String>>(lines[0]).unwrap().len(),
        24
    );
    assert!(lines[1].starts_with("error: "));
    assert_eq!(
        serde_json::from_str::<Vec<String>>(lines[2]).unwrap().len(),
        23
    );
    assert_eq!(out.status.code(), Some(2));
    let out = morris(
        &["--variant", "six", "perft", "--depth", "2", "-"],
        ".../.../..../.../... w 6 6\n",
    );
    assert_eq!(stdout(&out), "240\n");
    assert!(out.status.success());
}

#[test]
fn perft_prints_the_count_last() {
    let out = morris(
        &["--variant", "three", "perft", "--depth", "2", "--divide"],
        "",
    );
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 10);
    assert_eq!(lines[0], "a1 8");
    assert_eq!(*lines.last().unwrap(), "72");
}

#[test]
fn help_explains_every_subcommand_and_option() {
    let out = morris(&["--help"], "");
    assert!(out.status.success());
    let text = stdout(&out);
    for word in [
        "moves",
        "perft",
        "variants",
        "--variant",
        "--flying",
        "--removal",
        "ROWS TURN",
    ] {
        assert!(text.contains(word), "--help lacks {word}");
    }
    for (sub, words) in [
        ("moves", &["--json", "standard input", "--variant"][..]),
        ("perft", &["--depth", "--divide", "standard input"]),
        ("variants", &["--json"]),
        (
            "solve",
            &[
                "--db",
                "--threads",
                "1 to 1024",
                "--max-pieces",
                "--sector",
                "--plan",
            ],
        ),
        ("query", &["--db", "--json", "standard input", "depth"]),
        ("stats", &["--db", "--json"]),
        ("verify", &["--db", "--sector", "--max-faults"]),
    ] {
        let out = morris(&[sub, "--help"], "");
        assert!(out.status.success());
        for word in words
            .iter()
            .chain(&["--flying", "--removal", "Usage: morris"])
        {
            assert!(stdout(&out).contains(word), "{sub} --help lacks {word}");
        }
    }
}

#[test]
fn variants_lists_every_variant_as_json() {
    let out = morris(&["variants", "--json"], "");
    let list: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    let nine = list.iter().find(|v| v["name"] == "nine").unwrap();
    assert_eq!(nine["points"], 24);
    assert_eq!(nine["mills"], 16);
    assert_eq!(nine["symmetries"], 16);
    assert_eq!(nine["flying"], "three");
    assert_eq!(nine["phases"], "separate");
    assert_eq!(
        nine["rule_set"],
        "pieces-9.flying-three.removal-standard.phases-separate.full-board-loss.no-move-loss"
    );
    let lasker = list.iter().find(|v| v["name"] == "lasker").unwrap();
    assert_eq!(lasker["pieces"], 10);
    assert_eq!(lasker["phases"], "lasker");
    assert_eq!(lasker["flying"], "three");
    let morabaraba = list.iter().find(|v| v["name"] == "morabaraba").unwrap();
    assert_eq!(morabaraba["mills"], 20);
    assert_eq!(morabaraba["pieces"], 12);
    assert_eq!(morabaraba["full_board"], "draw");
    let twelve = list.iter().find(|v| v["name"] == "twelve").unwrap();
    assert_eq!(twelve["flying"], "never");
    assert_eq!(twelve["full_board"], "draw");
    assert_eq!(list.len(), 10);
}

/// perft refuses depths whose count would run for hours (it once recursed until the stack
/// overflowed at about 3,000 plies), with the estimate and exit 2; small depths still count.
#[test]
fn perft_refuses_depths_beyond_reasonable_time() {
    for depth in ["3000", "40"] {
        let out = morris(&["perft", "--depth", depth], "");
        assert_eq!(out.status.code(), Some(2), "{depth}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(&format!("perft --depth {depth}: "))
                && stderr(&out).contains("choose a smaller depth"),
            "{}",
            stderr(&out)
        );
    }
    let out = morris(&["--variant", "three", "perft", "--depth", "8"], "");
    assert!(out.status.success(), "{}", stderr(&out));
}

/// `check`, `verify` and `solve --sector` say why a sector holds nothing to solve, check or
/// prove (the mover has lost already, or no game reaches it), instead of advising a `solve`
/// that refuses it.
#[test]
fn sectors_no_game_reaches_are_refused_saying_why() {
    use morris::space::Reachable;
    use morris::{Sector, Variant};
    let six = Variant::by_name("six").unwrap();
    let reachable = Reachable::new(&six);
    let mut unreached = None;
    'search: for w in 0..=6u8 {
        for b in 0..=6u8 {
            for wf in 0..=6u8 {
                for bf in 0..=6u8 {
                    let s = Sector {
                        mover: w,
                        opponent: b,
                        mover_hand: wf,
                        opponent_hand: bf,
                    };
                    if s.check(&six).is_ok() && !s.is_terminal() && !reachable.contains(s) {
                        unreached = Some(s);
                        break 'search;
                    }
                }
            }
        }
    }
    let unreached = unreached
        .expect("six has sectors no game reaches")
        .to_string();
    let db = std::env::temp_dir().join(format!("morris-cli-unreached-{}", std::process::id()));
    let dbs = db.to_str().unwrap();
    for (sector, why) in [
        ("1-3-0-0", "fewer than three pieces"),
        (unreached.as_str(), "no game from the start reaches it"),
    ] {
        for sub in ["check", "verify", "solve"] {
            let out = morris(
                &["--variant", "six", sub, "--db", dbs, "--sector", sector],
                "",
            );
            assert_eq!(
                out.status.code(),
                Some(2),
                "{sub} {sector}: {}",
                stderr(&out)
            );
            assert!(
                stderr(&out).contains(why),
                "{sub} {sector}: {}",
                stderr(&out)
            );
            assert!(!stderr(&out).contains("morris solve"), "{}", stderr(&out));
        }
    }
    let _ = std::fs::remove_dir_all(&db);
}
