//! Bad input and hostile surroundings: bytes that are not UTF-8, huge lines, closed or full
//! output, absurd thread counts, positions that cannot occur in a game, and co-processes that
//! need each answer as soon as it is made.

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc;
use std::sync::OnceLock;
use std::thread;
use std::time::{Duration, Instant};

use common::{output_text, run_morris, scratch, Rng, VARIANTS};
use morris::rules::clip;
use morris::rules::{generate, play};
use morris::space::{plan, reachable, Sector};
use morris::{Position, Variant};

/// How long a command may take before a test gives up on it: every command here answers in
/// well under a second once built.
const PATIENCE: Duration = Duration::from_secs(60);

/// A position that can occur in six (the README's example).
const SIX_POSITION: &str = "W.B/.../.W.B/.../W.. b 3 4";
/// Black to move, having placed two pieces, yet White has lost one: no game gets here.
const SIX_NO_MILL_YET: &str = "W.B/.../.W.B/.../... b 3 4";
/// White to move, but Black (who just moved) has two pieces left: the game ended before.
const SIX_OVER_BEFORE: &str = "WWW/W../.B../.../B.. w 0 0";
/// Black to move with two pieces: lost at depth 0 (a terminal sector, which games do reach).
const SIX_FINISHED: &str = "WWW/.../.B.B/.../... b 0 0";
const NINE_START: &str = ".../.../.../....../.../.../... w 9 9";
const SIX_START: &str = ".../.../..../.../... w 6 6";

fn morris() -> Command {
    Command::new(env!("CARGO_BIN_EXE_morris"))
}

/// A database folder under the test target directory, solved once per test run.
fn solved(name: &str, variant: &str, cell: &'static OnceLock<PathBuf>) -> &'static Path {
    cell.get_or_init(|| common::solved(name, variant, &[]))
}

fn six_db() -> &'static str {
    static DB: OnceLock<PathBuf> = OnceLock::new();
    solved("robustness-six", "six", &DB).to_str().unwrap()
}

fn three_db() -> &'static str {
    static DB: OnceLock<PathBuf> = OnceLock::new();
    solved("robustness-three", "three", &DB).to_str().unwrap()
}

/// An empty folder of its own under the test target directory.
/// Feeds `input` from a thread, ignoring write errors: the child may stop reading early.
fn feed(child: &mut Child, input: Vec<u8>) -> thread::JoinHandle<()> {
    let mut stdin = child.stdin.take().unwrap();
    thread::spawn(move || {
        let _ = stdin.write_all(&input);
    })
}

/// Waits for a child whose output pipes are small, killing it after [`PATIENCE`].
fn wait_patiently(mut child: Child, what: &str) -> Output {
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > PATIENCE {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "{what}: still running after {PATIENCE:?}: {}",
                output_text(&out)
            );
        }
        thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Runs `morris args` with standard input `input` (any bytes) and `stdout` as its output.
fn run_with(args: &[&str], input: Vec<u8>, stdout: Stdio) -> Output {
    let mut child = morris()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let feeder = feed(&mut child, input);
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    out
}

fn run_bytes(args: &[&str], input: Vec<u8>) -> Output {
    run_with(args, input, Stdio::piped())
}

fn stdout_lines(o: &Output) -> Vec<String> {
    String::from_utf8(o.stdout.clone())
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// The write end of a pipe whose read end is already closed: every write to it fails with
/// `EPIPE`, deterministically (no race with a reader that has not closed yet).
fn closed_pipe() -> Stdio {
    let mut reader = morris()
        .arg("--version")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let writer = reader.stdin.take().unwrap();
    reader.wait().unwrap();
    Stdio::from(writer)
}

fn repeat_lines(line: &str, n: usize) -> Vec<u8> {
    format!("{line}\n").repeat(n).into_bytes()
}

// 1. A line that is not UTF-8 gets its own error line; the batch goes on.

#[test]
fn a_line_that_is_not_utf8_is_answered_in_its_place_and_the_batch_goes_on() {
    let mut input = b".../.../..../.../... w 6 6\n".to_vec();
    input.extend_from_slice(b"\xff\xfe W.B\n");
    input.extend_from_slice(b".../.../..../.../... w 6 6\r\n");
    let db = six_db();
    let cases: [(&[&str], &str); 3] = [
        (
            &["--variant", "six", "moves", "-"],
            "error: line 2: not UTF-8",
        ),
        (
            &["--variant", "six", "perft", "--depth", "1", "-"],
            "error: line 2: not UTF-8",
        ),
        (
            &["--variant", "six", "query", "--db", db, "-"],
            r#"{"error":"line 2: not UTF-8"}"#,
        ),
    ];
    for (args, error) in cases {
        let out = run_bytes(args, input.clone());
        let lines = stdout_lines(&out);
        assert_eq!(lines.len(), 3, "{args:?}: {}", output_text(&out));
        assert_eq!(lines[1], error, "{args:?}");
        assert_eq!(lines[0], lines[2], "{args:?}");
        assert!(!lines[0].contains("error"), "{args:?}: {}", lines[0]);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    }
    // Every error line of a batch names its line.
    let out = run_morris(&["moves", "-"], "nonsense\n\n");
    assert_eq!(
        stdout_lines(&out),
        [
            "error: line 1: invalid position \"nonsense\": expected 4 fields `ROWS TURN WHITE_HAND BLACK_HAND`, found 1",
            "error: line 2: invalid position \"\": expected 4 fields `ROWS TURN WHITE_HAND BLACK_HAND`, found 0",
        ]
    );
}

// 2. Each answer of a batch is written and flushed as it is made: a co-process gets it at once.

#[test]
fn batch_answers_arrive_while_standard_input_is_still_open() {
    let db = six_db();
    // (arguments, the answer's first line, its number of lines)
    let cases: [(&[&str], &str, usize); 4] = [
        (&["--variant", "six", "moves", "-"], "a1 a3 a5", 1),
        (
            &["--variant", "six", "perft", "--depth", "2", "-"],
            "240",
            1,
        ),
        (
            &["--variant", "six", "perft", "--depth", "1", "--divide", "-"],
            "a1 1",
            17,
        ),
        (
            &["--variant", "six", "query", "--db", db, "-"],
            r#"{"variant":"six","position":".../.../..../.../... w 6 6","value":"draw""#,
            1,
        ),
    ];
    for (args, answer, length) in cases {
        let mut child = morris()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = mpsc::channel();
        let reader = thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if send.send(line.unwrap()).is_err() {
                    break;
                }
            }
        });
        // Two questions, one at a time, each answered before the next is asked.
        for _ in 0..2 {
            writeln!(stdin, "{SIX_START}").unwrap();
            stdin.flush().unwrap();
            for i in 0..length {
                match lines.recv_timeout(PATIENCE) {
                    Ok(line) => assert!(i > 0 || line.starts_with(answer), "{args:?}: {line}"),
                    Err(_) => {
                        let _ = child.kill();
                        let _ = child.wait();
                        panic!("{args:?}: no answer while standard input stays open");
                    }
                }
            }
        }
        drop(stdin);
        assert!(child.wait().unwrap().success(), "{args:?}");
        reader.join().unwrap();
    }
}

// 3. Errors quote at most a short excerpt of what the user gave.

#[test]
fn errors_quote_a_huge_input_in_a_few_dozen_characters() {
    let huge = "W".repeat(1_000_000);
    let db = six_db();
    for args in [
        &["--variant", "six", "moves", "-"][..],
        &["--variant", "six", "perft", "--depth", "1", "-"],
        &["--variant", "six", "query", "--db", db, "-"],
    ] {
        let out = run_bytes(args, format!("{huge}\n{SIX_START}\n").into_bytes());
        let lines = stdout_lines(&out);
        assert_eq!(lines.len(), 2, "{args:?}");
        assert!(lines[0].len() < 300, "{args:?}: {} bytes", lines[0].len());
        assert!(
            lines[0].contains("WWW… (1000000 characters in all)"),
            "{args:?}: {}",
            lines[0]
        );
        assert!(lines[0].contains("expected 4 fields"), "{}", lines[0]);
        assert!(stderr(&out).len() < 300, "{args:?}: {}", stderr(&out));
        assert_eq!(out.status.code(), Some(2));
    }
    // On the command line (one argument may hold at most 128 KiB), and in every field that
    // the message quotes: the whole text, the turn, a hand.
    let long = "x".repeat(100_000);
    let digits = "9".repeat(100_000);
    for (position, needle) in [
        (format!("{long} w 6 6"), "ranks separated by '/', found 1"),
        (format!("{SIX_START} {long}"), "expected 4 fields"),
        (
            format!(".../.../..../.../... {long} 6 6"),
            "turn must be w or b",
        ),
        (
            format!(".../.../..../.../... w {long} 6"),
            "White's hand must be a number",
        ),
        (
            format!(".../.../..../.../... w {digits} 6"),
            "exceeds the 6 pieces",
        ),
    ] {
        let out = run_morris(&["--variant", "six", "moves", &position], "");
        let message = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{message}");
        assert!(message.contains(needle), "{message}");
        assert!(message.len() < 400, "{} bytes: {message}", message.len());
        assert!(message.contains("characters in all)"), "{message}");
    }
    // Short input is quoted whole, as before.
    assert_eq!(clip("short"), "short");
    let sixty = "é".repeat(60);
    assert_eq!(clip(&sixty), sixty);
    assert_eq!(
        clip(&"é".repeat(61)),
        format!("{sixty}… (61 characters in all)")
    );
    let six = Variant::by_name("six").unwrap();
    let e = Position::parse(&six, &huge).unwrap_err().to_string();
    assert!(e.len() < 300, "{e}");
}

// 4. A closed output pipe ends the run quietly with exit 0; other write errors exit 1.

#[test]
fn a_closed_output_pipe_exits_0_without_a_word() {
    let three = three_db();
    let position = "W.B/.WW/.B. b 0 1";
    let commands: Vec<Vec<&str>> = vec![
        vec!["variants"],
        vec!["variants", "--json"],
        vec!["moves", NINE_START],
        vec!["moves", "-"],
        vec!["perft", "--depth", "2"],
        vec!["perft", "--depth", "2", "--divide"],
        vec!["perft", "--depth", "1", "-"],
        vec!["--variant", "three", "stats", "--db", three],
        vec!["--variant", "three", "stats", "--json", "--db", three],
        vec!["--variant", "three", "query", "--db", three, position],
        vec![
            "--variant",
            "three",
            "query",
            "--json",
            "--db",
            three,
            position,
        ],
        vec!["--variant", "three", "query", "--db", three, "-"],
        vec!["--variant", "three", "verify", "--quiet", "--db", three],
        vec!["--variant", "three", "solve", "--quiet", "--db", three],
        vec!["--variant", "three", "solve", "--plan", "--db", three],
    ];
    for args in commands {
        let input = if args.contains(&"three") {
            repeat_lines(position, 3)
        } else {
            repeat_lines(NINE_START, 3)
        };
        let out = run_with(&args, input, closed_pipe());
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{args:?}");
    }
}

/// Spawns `morris args` with many lines of input, reads one line of its output, closes the
/// pipe (as `| head -1` does), and returns how it ended.
fn read_one_line_then_close(args: &[&str], input: Vec<u8>) -> (ExitStatus, String) {
    let mut child = morris()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let feeder = feed(&mut child, input);
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(!first.is_empty(), "{args:?}: no first line");
    let out = wait_patiently(child, &format!("{args:?}"));
    feeder.join().unwrap();
    (out.status, stderr(&out))
}

#[test]
fn head_1_after_a_long_batch_exits_0_without_a_word() {
    for (args, line) in [
        (&["moves", "-"][..], NINE_START),
        (&["moves", "--json", "-"], NINE_START),
        (
            &["--variant", "six", "perft", "--depth", "1", "--divide", "-"],
            SIX_START,
        ),
    ] {
        // Far more output than a pipe buffers, so writes continue after the reader is gone.
        let (status, err) = read_one_line_then_close(args, repeat_lines(line, 20_000));
        assert_eq!(status.code(), Some(0), "{args:?}: {err}");
        assert_eq!(err, "", "{args:?}");
    }
}

#[test]
fn a_full_disk_on_standard_output_exits_1_saying_so() {
    let Ok(full) = fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("no /dev/full here; skipped");
        return;
    };
    let three = three_db();
    for args in [
        &["variants"][..],
        &["moves", NINE_START],
        &["moves", "-"],
        &["perft", "--depth", "1", "--divide"],
        &["--variant", "three", "stats", "--db", three],
        &[
            "--variant",
            "three",
            "query",
            "--db",
            three,
            "W.B/.WW/.B. b 0 1",
        ],
    ] {
        let out = run_with(
            args,
            repeat_lines(NINE_START, 2),
            Stdio::from(full.try_clone().unwrap()),
        );
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("morris: writing to standard output: No space left"),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    }
}

// 5. Absurd thread counts are refused at once.

#[test]
fn thread_counts_beyond_the_cap_are_refused_at_once() {
    let db = scratch("robustness-threads");
    for threads in ["100000", "1025", "0", "18446744073709551616"] {
        let child = morris()
            .args([
                "--variant",
                "three",
                "solve",
                "--quiet",
                "--db",
                db.to_str().unwrap(),
                "--threads",
                threads,
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let out = wait_patiently(child, &format!("--threads {threads}"));
        assert_eq!(out.status.code(), Some(2), "{threads}: {}", stderr(&out));
        assert!(stderr(&out).contains("--threads"), "{}", stderr(&out));
        if threads != "18446744073709551616" {
            assert!(
                stderr(&out).contains("at least 1 and at most 1024"),
                "{}",
                stderr(&out)
            );
        }
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    }
    // Nothing was solved.
    assert_eq!(fs::read_dir(&db).unwrap().count(), 0);
    let out = run_morris(
        &[
            "--variant",
            "three",
            "solve",
            "--quiet",
            "--db",
            db.to_str().unwrap(),
            "--threads",
            "1024",
            "--plan",
        ],
        "",
    );
    assert!(out.status.success(), "{}", output_text(&out));
}

// 6. Positions that cannot occur in a game are refused by `query`, not by `moves` or `perft`.

#[test]
fn query_refuses_positions_that_cannot_occur_saying_why() {
    let db = six_db();
    for (position, reasons) in [
        (
            SIX_OVER_BEFORE,
            &[
                "cannot occur in a game",
                "Black, the side that just moved, has 2 on the board and 0 in hand",
                "fewer than three",
            ][..],
        ),
        (
            SIX_NO_MILL_YET,
            &[
                "cannot occur in a game",
                "sector 2-2-4-3",
                "White has lost 1 piece, but Black has placed only 2",
            ],
        ),
    ] {
        for json in [false, true] {
            let mut args = vec!["--variant", "six", "query", "--db", db];
            if json {
                args.push("--json");
            }
            args.push(position);
            let out = run_morris(&args, "");
            assert_eq!(
                out.status.code(),
                Some(2),
                "{args:?}: {}",
                output_text(&out)
            );
            assert!(out.stdout.is_empty());
            for reason in reasons {
                assert!(stderr(&out).contains(reason), "{args:?}: {}", stderr(&out));
            }
        }
        // moves and perft refuse it alike: every command validates a position the same way.
        for args in [
            vec!["--variant", "six", "moves", position],
            vec!["--variant", "six", "perft", "--depth", "2", position],
        ] {
            let out = run_morris(&args, "");
            assert_eq!(
                out.status.code(),
                Some(2),
                "{args:?}: {}",
                output_text(&out)
            );
            assert!(out.stdout.is_empty());
            for reason in reasons {
                assert!(stderr(&out).contains(reason), "{args:?}: {}", stderr(&out));
            }
        }
    }
    // In a batch each gets an error line in its place; the others are answered.
    let input = [SIX_POSITION, SIX_OVER_BEFORE, SIX_FINISHED, SIX_NO_MILL_YET].join("\n");
    let out = run_morris(&["--variant", "six", "query", "--db", db, "-"], &input);
    let lines: Vec<serde_json::Value> = stdout_lines(&out)
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["position"], SIX_POSITION);
    assert!(lines[0]["value"].is_string());
    let error = lines[1]["error"].as_str().unwrap();
    assert!(
        error.starts_with("line 2: invalid position") && error.contains("cannot occur"),
        "{error}"
    );
    // A finished position is reachable (the last move removed a piece): a loss at depth 0.
    assert_eq!(lines[2]["value"], "loss");
    assert_eq!(lines[2]["depth"], 0);
    assert!(lines[3]["error"]
        .as_str()
        .unwrap()
        .contains("sector 2-2-4-3"));
    assert_eq!(out.status.code(), Some(2));
    // The command-line reference's example: a position that can occur, and its moves as
    // docs/cli.md prints them.
    let out = run_morris(&["--variant", "six", "query", "--db", db, SIX_POSITION], "");
    assert!(out.status.success(), "{}", output_text(&out));
    let out = run_morris(&["--variant", "six", "moves", SIX_POSITION], "");
    assert_eq!(
        stdout_lines(&out),
        ["a3 b2 b4 c1 c2 c4 c5 d2 d3 d4 e1xa1 e1xa5 e1xb3"]
    );
    let reference = include_str!("../docs/cli.md");
    assert!(reference.contains(&format!("moves --variant six '{SIX_POSITION}'")));
    assert!(reference.contains("# a3 b2 b4 c1 c2 c4 c5 d2 d3 d4 e1xa1 e1xa5 e1xb3"));
}

#[test]
fn reachable_sectors_are_the_planned_ones_plus_the_terminal_ones_games_reach() {
    let mut rng = Rng::new(7);
    for name in VARIANTS {
        let v = Variant::by_name(name).unwrap();
        let all = reachable(&v);
        let planned: BTreeSet<Sector> = plan(&v, &[Sector::start(&v)])
            .into_iter()
            .flat_map(|u| u.sectors)
            .collect();
        let stored: BTreeSet<Sector> = all.iter().copied().filter(|s| !s.is_terminal()).collect();
        assert_eq!(stored, planned, "{name}");
        assert!(all.iter().any(|s| s.is_terminal()), "{name}");
        for s in &all {
            // Whoever just moved still has three pieces: otherwise the game ended before.
            assert!(s.opponent + s.opponent_hand >= 3, "{name} {s}");
            let mut kept = s.successors_with_terminal(&v);
            kept.retain(|t| !t.is_terminal());
            assert_eq!(kept, s.successors(&v), "{name} {s}");
        }
        // Random games stay inside, to their ends.
        for _ in 0..200 {
            let mut pos = Position::start(&v);
            for _ in 0..4 * v.pieces() as usize + 40 {
                assert!(all.contains(&Sector::of(&pos)), "{name}: {pos:?}");
                let moves = generate(&v, &pos);
                if moves.is_empty() {
                    break;
                }
                pos = play(&pos, moves[rng.below(moves.len() as u64) as usize]);
            }
        }
    }
    let six = Variant::by_name("six").unwrap();
    let (pos, _) = Position::parse(&six, SIX_NO_MILL_YET).unwrap();
    assert!(!reachable(&six).contains(&Sector::of(&pos)));
}

// 7. Suggested commands carry the database folder and the rule options.

#[test]
fn suggested_solve_commands_name_the_folder_and_the_rules() {
    let db = scratch("robustness-empty");
    let dbs = db.to_str().unwrap();
    let expected =
        format!("morris solve --variant three --flying never --removal strict --phases separate --full-board loss --db {dbs}");
    for sub in ["verify", "stats"] {
        let out = run_morris(
            &[
                "--variant",
                "three",
                "--removal",
                "strict",
                sub,
                "--db",
                dbs,
            ],
            "",
        );
        assert_eq!(out.status.code(), Some(2), "{sub}: {}", stderr(&out));
        assert!(stderr(&out).contains(&expected), "{sub}: {}", stderr(&out));
    }
    let out = run_morris(
        &[
            "--variant",
            "three",
            "--removal",
            "strict",
            "query",
            "--db",
            dbs,
            "W.B/.WW/.B. b 0 1",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains(&expected), "{}", stderr(&out));
}
