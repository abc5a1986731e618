//! `morris serve`'s API: the same bytes as the command line, and the documented status for
//! every kind of bad request (never a panic, never a file outside the folder).

use std::io::{BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use morris::query::traps;
use morris::rules::{generate, play};
use morris::{Position, Variant};

mod common;
mod serve_support;

use common::Rng;
use serve_support::{enc, get, morris, read_response, request, solve_into, solved, Server};

const SIX_START: &str = ".../.../..../.../... w 6 6";

/// Positions of six from random play from the start, every ply of each game.
fn six_positions(seed: u64, games: usize) -> Vec<String> {
    let v = Variant::by_name("six").unwrap();
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::start(&v);
        let mut turn = morris::Color::White;
        for _ in 0..40 {
            out.push(pos.to_notation(&v, turn));
            let moves = generate(&v, &pos);
            if moves.is_empty() {
                break;
            }
            pos = play(&pos, moves[rng.below(moves.len() as u64) as usize]);
            turn = turn.other();
        }
    }
    out
}

/// Several databases at once: six, and three with another removal rule; solved once for all
/// the tests of this file.
fn databases() -> std::path::PathBuf {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(solve_databases).clone()
}

fn solve_databases() -> std::path::PathBuf {
    let dir = solved("serve-api", "six", &[]);
    let out = morris(&[
        "--variant",
        "three",
        "--removal",
        "strict",
        "solve",
        "--quiet",
        "--db",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    dir
}

/// What `morris --variant six query --json EXTRA --db DBS -` prints for `positions`, one per
/// line, asserting that it succeeds.
fn query_batch(dbs: &str, extra: &[&str], positions: &[String]) -> Vec<u8> {
    let mut cli = std::process::Command::new(env!("CARGO_BIN_EXE_morris"))
        .args(["--variant", "six", "query", "--json"])
        .args(extra)
        .args(["--db", dbs, "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    cli.stdin
        .take()
        .unwrap()
        .write_all((positions.join("\n") + "\n").as_bytes())
        .unwrap();
    let batch = cli.wait_with_output().unwrap();
    assert!(batch.status.success());
    batch.stdout
}

#[test]
fn query_and_stats_answer_the_bytes_of_the_command_line() {
    let db = databases();
    let server = Server::start(&db, 5.0);
    let dbs = db.to_str().unwrap();
    let positions = six_positions(7, 12);
    assert!(positions.len() > 200);
    // Batch mode prints the same objects, one per line, as `query --json` does one by one.
    let batch = query_batch(dbs, &[], &positions);
    let lines: Vec<&[u8]> = batch.split_inclusive(|&b| b == b'\n').collect();
    assert_eq!(lines.len(), positions.len());
    for (i, p) in positions.iter().enumerate() {
        let r = get(
            server.addr,
            &format!("/api/query?variant=six&position={}", enc(p)),
        );
        assert_eq!(r.status, 200, "{p}: {}", r.text());
        assert_eq!(r.header("content-type"), Some("application/json"));
        assert_eq!(r.body, lines[i], "{p}");
    }
    // One position through the single-position command, byte for byte.
    let one = morris(&[
        "--variant",
        "six",
        "query",
        "--json",
        "--db",
        dbs,
        SIX_START,
    ]);
    let r = get(
        server.addr,
        &format!("/api/query?variant=six&position={}", enc(SIX_START)),
    );
    assert_eq!(r.body, one.stdout);
    assert_eq!(r.json()["value"], "draw");

    // With the N-move rule: the same bytes as `query --json --n-move-rule` in batch mode.
    let some = &positions[..40];
    let batch = query_batch(dbs, &["--n-move-rule", "100"], some);
    let lines: Vec<&[u8]> = batch.split_inclusive(|&b| b == b'\n').collect();
    assert_eq!(lines.len(), some.len());
    for (i, p) in some.iter().enumerate() {
        let target = format!("/api/query?variant=six&n_move_rule=100&position={}", enc(p));
        let r = get(server.addr, &target);
        assert_eq!(r.status, 200, "{p}: {}", r.text());
        assert_eq!(r.body, lines[i], "{p}");
        assert_eq!(r.json()["n_move_rule"], 100);
    }

    for (variant, rules) in [("six", vec![]), ("three", vec!["--removal", "strict"])] {
        let mut args = vec!["--variant", variant];
        args.extend(&rules);
        args.extend(["stats", "--json", "--db", dbs]);
        let cli = morris(&args);
        assert!(cli.status.success());
        let mut target = format!("/api/stats?variant={variant}");
        if !rules.is_empty() {
            target.push_str("&removal=strict");
        }
        let r = get(server.addr, &target);
        assert_eq!(r.status, 200, "{}", r.text());
        assert_eq!(r.body, cli.stdout, "{target}");
    }
    // The rule switches select the folder: three with standard removal is not solved here.
    let r = get(
        server.addr,
        &format!(
            "/api/query?variant=three&position={}",
            enc(".../.../... w 3 3")
        ),
    );
    assert_eq!(r.status, 404, "{}", r.text());
    let three = morris(&[
        "--variant",
        "three",
        "--removal",
        "strict",
        "query",
        "--json",
        "--db",
        dbs,
        ".../.../... w 3 3",
    ]);
    let r = get(
        server.addr,
        &format!(
            "/api/query?variant=three&removal=strict&position={}",
            enc(".../.../... w 3 3")
        ),
    );
    assert_eq!(r.body, three.stdout);
}

#[test]
fn variants_explore_and_bestmove() {
    let db = databases();
    let server = Server::start(&db, 5.0);
    let v = get(server.addr, "/api/variants").json();
    let variants = v["variants"].as_array().unwrap();
    let names: Vec<&str> = variants
        .iter()
        .map(|x| x["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["six", "three"]);
    let six = &variants[0];
    assert_eq!(six["start_position"], SIX_START);
    assert_eq!(six["board"]["points"].as_array().unwrap().len(), 16);
    assert_eq!(six["board"]["mills"].as_array().unwrap().len(), 8);
    assert_eq!(six["board"]["lines"].as_array().unwrap().len(), 12);
    assert_eq!(six["board"]["points"][0]["name"], "a5");
    assert_eq!(six["board"]["points"][0]["rank"], 4);
    let set = &six["rule_sets"][0];
    assert_eq!(set["default"], true);
    assert_eq!(set["rules"]["removal"], "standard");
    assert_eq!(set["start"]["value"], "draw");
    assert!(set["sectors_solved"].as_u64().unwrap() > 50);
    assert_eq!(set["sectors_solved"], set["sectors_total"]);
    let three = &variants[1]["rule_sets"][0];
    assert_eq!(three["default"], false);
    assert_eq!(three["rules"]["removal"], "strict");

    // explore: the query's moves and values, in order, with each move's parts and result.
    let six_v = Variant::by_name("six").unwrap();
    for p in six_positions(11, 4) {
        let q = get(
            server.addr,
            &format!("/api/query?variant=six&position={}", enc(&p)),
        )
        .json();
        let e = get(
            server.addr,
            &format!("/api/explore?variant=six&position={}", enc(&p)),
        )
        .json();
        assert_eq!(e["position"], q["position"]);
        assert_eq!(e["value"], q["value"]);
        assert_eq!(e["depth"], q["depth"]);
        assert_eq!(e["unsolved"], serde_json::Value::Null);
        assert_eq!(e["solve_cost"], serde_json::Value::Null);
        let (pos, turn) = Position::parse(&six_v, &p).unwrap();
        let qm = q["moves"].as_array().unwrap();
        let em = e["moves"].as_array().unwrap();
        assert_eq!(qm.len(), em.len());
        for (a, b) in qm.iter().zip(em) {
            assert_eq!(a["move"], b["move"]);
            assert_eq!(a["value"], b["value"]);
            assert_eq!(a["depth"], b["depth"]);
            let mv = morris::Move::parse(six_v.board(), b["move"].as_str().unwrap()).unwrap();
            assert_eq!(
                b["position"],
                play(&pos, mv).to_notation(&six_v, turn.other())
            );
            assert_eq!(b["to"], six_v.board().point_name(mv.to()));
        }
        // bestmove: a move that keeps the value, its result, and the rule by the value.
        let best = get(
            server.addr,
            &format!("/api/bestmove?variant=six&position={}&seed=3", enc(&p)),
        );
        if qm.is_empty() {
            assert_eq!(best.status, 400, "{}", best.text());
            assert!(best.json()["error"]
                .as_str()
                .unwrap()
                .contains("game is over"));
            continue;
        }
        let best = best.json();
        let chosen = qm.iter().find(|m| m["move"] == best["move"]).unwrap();
        assert_eq!(chosen["value"], q["value"]);
        assert_eq!(chosen["depth"], q["depth"]);
        let rule = match q["value"].as_str().unwrap() {
            "win" => "fastest-win",
            "draw" => "draw-most-traps",
            _ => "slowest-loss-fewest-winning-replies",
        };
        assert_eq!(best["rule"], rule);
        let after = em.iter().find(|m| m["move"] == best["move"]).unwrap();
        assert_eq!(best["after"], after["position"]);
        let again = get(
            server.addr,
            &format!("/api/bestmove?variant=six&position={}&seed=3", enc(&p)),
        )
        .json();
        assert_eq!(again["move"], best["move"], "the same seed, the same move");
    }
    // The draw rule, checked at the start: no drawing move sets more traps two moves deep, and
    // none as many with fewer safe replies (each move's safe replies counted by `query`).
    let best = get(
        server.addr,
        &format!("/api/bestmove?variant=six&position={}", enc(SIX_START)),
    )
    .json();
    let (good, chance) = (
        best["good_replies"].as_u64().unwrap(),
        best["trap_chance"].as_f64().unwrap(),
    );
    assert_eq!(best["trap_depth"], 2);
    let start = get(
        server.addr,
        &format!("/api/explore?variant=six&position={}", enc(SIX_START)),
    )
    .json();
    for m in start["moves"].as_array().unwrap() {
        let after = get(
            server.addr,
            &format!(
                "/api/query?variant=six&position={}",
                enc(m["position"].as_str().unwrap())
            ),
        )
        .json();
        let safe = after["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["value"] == "draw")
            .count() as u64;
        let c = m["trap_chance"].as_f64().unwrap();
        assert_eq!(m["trap_depth"], 2, "{m}");
        assert!(c <= chance, "{} sets more traps: {c}", m["move"]);
        assert!(
            c < chance || safe >= good,
            "{} leaves {safe} safe replies",
            m["move"]
        );
        if m["move"] == best["move"] {
            assert_eq!(c, chance);
        }
    }
}

#[test]
fn explore_gives_the_moves_of_unsolved_positions() {
    let db = solved("serve-unsolved", "nine", &["--sector", "3-3-0-0"]);
    let server = Server::start(&db, 5.0);
    let start = ".../.../.../....../.../.../... w 9 9";
    let e = get(
        server.addr,
        &format!("/api/explore?position={}", enc(start)),
    )
    .json();
    assert_eq!(e["value"], serde_json::Value::Null);
    assert_eq!(e["moves"].as_array().unwrap().len(), 24);
    let why = e["unsolved"].as_str().unwrap();
    assert!(
        why.contains("not solved") && why.contains("morris solve"),
        "{why}"
    );
    let q = get(server.addr, &format!("/api/query?position={}", enc(start)));
    assert_eq!(q.status, 404);
    // A 3-3 position is answered.
    let deep = ".WW/.../.B./B....B/.../.../..W b 0 0";
    let q = get(server.addr, &format!("/api/query?position={}", enc(deep))).json();
    assert_eq!(q["value"], "loss");
    assert_eq!(q["depth"], 26);
    let best = get(
        server.addr,
        &format!("/api/bestmove?position={}", enc(deep)),
    )
    .json();
    assert_eq!(best["rule"], "slowest-loss-fewest-winning-replies");
    assert_eq!(best["depth"], 26);
}

/// Each request, the status it must get, and words its error must contain.
const BAD: &[(&str, &str, u16, &str)] = &[
    ("GET", "/api/query?variant=six&position=garbage", 400, "invalid position"),
    ("GET", "/api/query?variant=six&position=W.B%2F...%2F.W.B%2F...%2FW..+b+3+3", 400, "Black's hand must be one more"),
    ("GET", "/api/query?variant=six&position=WWW%2FWW.%2F....%2F...%2F...+b+0+0", 400, "cannot occur"),
    ("GET", "/api/query?variant=six&position=WWW%2F...%2F....%2F...%2F...+b+2+3", 400, "no game from the start reaches"),
    ("GET", "/api/query?variant=six&position=WWX%2F...%2F....%2F...%2F...+w+3+3", 400, "unexpected character"),
    ("GET", "/api/query?variant=six", 400, "missing parameter \"position\""),
    ("GET", "/api/query?variant=../../etc/passwd&position=x", 400, "unknown variant"),
    ("GET", "/api/query?variant=%2E%2E%2F%2E%2E%2Fetc&position=x", 400, "unknown variant"),
    ("GET", "/api/query?variant=six%00&position=x", 400, "unknown variant"),
    ("GET", "/api/query?variant=%FF%FE&position=x", 400, "unknown variant"),
    ("GET", "/api/query?variant=six&flying=../../etc&position=x", 400, "unknown flying value"),
    ("GET", "/api/query?variant=six&removal=..%2F..%2Fetc&position=x", 400, "unknown removal value"),
    ("GET", "/api/stats?variant=six&full-board=%2Fetc%2Fpasswd", 400, "unknown full-board value"),
    ("GET", "/api/query?variant=six&phases=lasker&position=.../.../..../.../...+w+6+6", 404, "--phases lasker"),
    ("GET", "/api/query?variant=lasker&position=.../.../.../....../.../.../...+w+10+10", 404, "morris solve"),
    ("GET", "/api/query?variant=six&position=x&position=y", 400, "given twice"),
    ("GET", "/api/query?variant=six&file=..%2F..%2Fetc%2Fpasswd&position=x", 400, "unknown parameter"),
    ("GET", "/api/variants?variant=../etc", 400, "unknown parameter"),
    ("GET", "/api/bestmove?variant=six&position=.../.../..../.../...+w+6+6&seed=-1", 400, "seed"),
    ("GET", "/api/bestmove?variant=six&position=start&strength=master", 400, "expected perfect, expert, strong, advanced, intermediate, club, casual, novice"),
    ("GET", "/api/bestmove?variant=six&position=start&strength=novice&seed=x", 400, "seed"),
    ("GET", "/api/practice?variant=six", 400, "missing parameter \"sector\""),
    ("GET", "/api/practice?variant=six&sector=3-3-0", 400, "invalid sector 3-3-0"),
    ("GET", "/api/practice?variant=six&sector=3-3-0-0-0", 400, "invalid sector"),
    ("GET", "/api/practice?variant=six&sector=7-3-0-0", 400, "more than the 6 pieces"),
    ("GET", "/api/practice?variant=six&sector=2-3-0-0", 400, "fewer than three pieces"),
    ("GET", "/api/practice?variant=six&sector=0-3-3-3", 400, "no game from the start reaches it"),
    ("GET", "/api/practice?variant=six&sector=3-3-0-0&value=maybe", 400, "expected win, draw, loss"),
    ("GET", "/api/practice?variant=six&sector=3-3-0-0&seed=1.5", 400, "seed"),
    ("GET", "/api/practice?variant=six&sector=3-3-0-0&position=start", 400, "unknown parameter"),
    ("GET", "/api/practice?variant=six&flying=always&sector=3-3-0-0", 404, "morris solve --variant six --flying always"),
    ("GET", "/api/practice?variant=nine&sector=3-3-0-0", 404, "--sector 3-3-0-0"),
    ("GET", "/api/query?variant=nine&position=.../.../.../....../.../.../...+w+9+9", 404, "morris solve"),
    ("GET", "/api/stats?variant=nine", 404, "morris solve"),
    ("GET", "/api/query?variant=six&position=start&n_move_rule=0", 400, "n_move_rule must be a number of plies from 1 to 30000"),
    ("GET", "/api/query?variant=six&position=start&n_move_rule=many", 400, "n_move_rule must be"),
    ("GET", "/api/stats?variant=six&flying=always", 404, "morris solve"),
    ("GET", "/etc/passwd", 404, "no such path"),
    ("GET", "/../../etc/passwd", 404, "no such path"),
    ("GET", "/api/../../../etc/passwd", 404, "no such path"),
    ("GET", "/%2e%2e/%2e%2e/etc/passwd", 404, "no such path"),
    ("GET", "/api/query/../../../../etc/passwd?variant=six", 404, "no such path"),
    ("GET", "/six.pieces-6.flying-never.removal-standard.phases-separate.full-board-loss.no-move-loss/0-0-6-6.sec", 404, "no such path"),
    ("POST", "/api/query?variant=six&position=x", 405, "only GET"),
    ("DELETE", "/", 405, "only GET"),
];

#[test]
fn bad_requests_get_their_status_and_an_error() {
    let db = databases();
    let mut server = Server::start(&db, 5.0);
    for &(method, target, status, words) in BAD {
        let r = request(server.addr, method, target, "")
            .unwrap_or_else(|e| panic!("{method} {target}: {e}"));
        assert_eq!(r.status, status, "{method} {target}: {}", r.text());
        let error = r.json()["error"].as_str().unwrap().to_string();
        assert!(error.contains(words), "{method} {target}: {error}");
        assert!(error.len() < 1000, "{method} {target}: {error}");
        assert!(!error.contains("root:"), "{target} leaked a file: {error}");
    }
    // A request body is refused past 4 KiB, with a length or in chunks, with an error.
    let r = request(server.addr, "GET", "/api/variants", &"x".repeat(5000)).unwrap();
    assert_eq!(r.status, 413);
    assert!(r.json()["error"]
        .as_str()
        .unwrap()
        .contains("over 4096 bytes"));
    for (chunks, status) in [(3, 200), (5, 413)] {
        let mut s = TcpStream::connect(server.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let chunk = format!("400\r\n{}\r\n", "c".repeat(1024));
        let body = format!("{}0\r\n\r\n", chunk.repeat(chunks));
        let head = "GET /api/variants HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";
        let _ = s.write_all(format!("{head}{body}").as_bytes());
        let r = read_response(&mut BufReader::new(&s)).expect("an answer");
        assert_eq!(r.status, status, "{chunks} KiB in chunks: {}", r.text());
        if status == 413 {
            assert!(r.json()["error"].as_str().is_some(), "{}", r.text());
        }
        assert_eq!(
            r.header("connection"),
            Some("close"),
            "a body ends the connection"
        );
    }
    // Long parameters are quoted clipped.
    let long = "y".repeat(10_000);
    let r = get(
        server.addr,
        &format!("/api/query?variant={long}&position=x"),
    );
    assert_eq!(r.status, 400);
    assert!(r.body.len() < 400, "{}", r.text());
    assert!(server.alive());
    assert_eq!(get(server.addr, "/api/variants").status, 200);
    // The log has one line per request: method, target, status, duration.
    let log = std::fs::read_to_string(&server.log).unwrap();
    assert!(log.contains("GET /api/stats?variant=nine 404 "), "{log}");
    assert!(
        log.contains("POST /api/query?variant=six&position=x 405 "),
        "{log}"
    );
    assert!(!log.contains("panicked"), "{log}");
}

#[test]
fn the_page_and_its_assets_are_served_from_the_binary() {
    let db = databases();
    let server = Server::start(&db, 5.0);
    let page = get(server.addr, "/");
    assert_eq!(page.status, 200);
    assert!(page
        .header("content-type")
        .unwrap()
        .starts_with("text/html"));
    assert!(page.header("content-security-policy").is_some());
    assert!(page.text().contains("<script src=\"/app.js\""));
    for (path, kind) in [
        ("/app.js", "text/javascript"),
        ("/game.js", "text/javascript"),
        ("/editor.js", "text/javascript"),
        ("/style.css", "text/css"),
        ("/favicon.svg", "image/svg+xml"),
    ] {
        let r = get(server.addr, path);
        assert_eq!(r.status, 200, "{path}");
        assert!(
            r.header("content-type").unwrap().starts_with(kind),
            "{path}"
        );
        assert!(r.body.len() > 100, "{path}");
    }
    let head = request(server.addr, "HEAD", "/api/variants", "");
    assert_eq!(head.unwrap().status, 200);
}

#[test]
fn oversized_slow_and_silent_clients_are_bounded() {
    let db = databases();
    let mut server = Server::start(&db, 1.0);

    // A 1 MB query string: 431 from the HTTP layer, after reading at most its 16 KiB.
    let mut s = TcpStream::connect(server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.set_write_timeout(Some(Duration::from_secs(10))).unwrap();
    let huge = format!(
        "GET /api/query?variant=six&position={} HTTP/1.1\r\nHost: x\r\n\r\n",
        "W".repeat(1 << 20)
    );
    let _ = s.write_all(huge.as_bytes()); // the server may stop reading early
    let r = read_response(&mut BufReader::new(&s)).expect("an answer to a 1 MB query string");
    assert_eq!(r.status, 431);
    assert!(
        r.json()["error"]
            .as_str()
            .unwrap()
            .contains("head is over 16 KiB"),
        "{}",
        r.text()
    );

    // 1 MB of headers too.
    let mut s = TcpStream::connect(server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let headers = format!(
        "GET /api/variants HTTP/1.1\r\nHost: x\r\n{}\r\n",
        "X-Filler: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n"
            .repeat(12_000)
    );
    let _ = s.write_all(headers.as_bytes());
    let r = read_response(&mut BufReader::new(&s)).expect("an answer to 1 MB of headers");
    assert_eq!(r.status, 431);
    assert!(r.json()["error"].as_str().is_some(), "{}", r.text());

    // More headers than the bound, each short, and a head just under 16 KiB that passes.
    for (headers, filler, status) in [
        (150, 1, 431),
        (100, 1, 200),
        (2, 16_000, 200),
        (2, 16_400, 431),
    ] {
        let mut s = TcpStream::connect(server.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut head = String::from("GET /api/variants HTTP/1.1\r\n");
        for i in 0..headers - 1 {
            head.push_str(&format!("X-{i}: {}\r\n", "h".repeat(filler)));
        }
        head.push_str("Host: x\r\n\r\n");
        let _ = s.write_all(head.as_bytes());
        let r = read_response(&mut BufReader::new(&s)).expect("an answer");
        assert_eq!(
            r.status,
            status,
            "{headers} headers of {filler}: {}",
            r.text()
        );
        let key = if status == 200 { "variants" } else { "error" };
        assert!(r.json().get(key).is_some(), "{}", r.text());
    }
    // A connection asking twice, the second head past the bound: the first answered 200.
    let mut s = TcpStream::connect(server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let two = format!(
        "GET /api/variants HTTP/1.1\r\nHost: x\r\n\r\nGET /api/variants HTTP/1.1\r\nX-Big: {}\r\n\r\n",
        "b".repeat(20_000)
    );
    let _ = s.write_all(two.as_bytes());
    let mut reader = BufReader::new(&s);
    assert_eq!(
        read_response(&mut reader).expect("the first answer").status,
        200
    );
    assert_eq!(
        read_response(&mut reader)
            .expect("the second answer")
            .status,
        431
    );

    // A client sending its request a byte at a time, past the 1 s timeout: 408, in time.
    let s = TcpStream::connect(server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let answered = Arc::new(AtomicBool::new(false));
    let writer = {
        let mut s = s.try_clone().unwrap();
        let answered = answered.clone();
        std::thread::spawn(move || {
            let request = b"GET /api/variants HTTP/1.1\r\nHost: x\r\nX-Slow: yes\r\n\r\n";
            for &b in request.iter().cycle().take(200) {
                if answered.load(Ordering::Relaxed) || s.write_all(&[b]).is_err() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        })
    };
    let started = Instant::now();
    let r = read_response(&mut BufReader::new(&s)).expect("an answer to a slow client");
    answered.store(true, Ordering::Relaxed);
    let took = started.elapsed();
    writer.join().unwrap();
    assert_eq!(r.status, 408, "{}", r.text());
    assert!(r.json()["error"]
        .as_str()
        .unwrap()
        .contains("did not arrive"));
    assert!(
        took >= Duration::from_millis(900) && took < Duration::from_secs(5),
        "{took:?}"
    );

    // A client that connects and says nothing is let go, without an answer.
    let mut s = TcpStream::connect(server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let started = Instant::now();
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf);
    assert!(buf.is_empty(), "{}", String::from_utf8_lossy(&buf));
    assert!(started.elapsed() < Duration::from_secs(5));

    // A malformed request line: 400 from the HTTP layer.
    let r = request(server.addr, "G\u{1}T", "/", "");
    if let Ok(r) = r {
        assert_eq!(r.status, 400);
    }

    assert!(server.alive());
    assert_eq!(get(server.addr, "/api/variants").status, 200);
    let log = std::fs::read_to_string(&server.log).unwrap();
    assert!(log.contains("431"), "{log}");
    assert!(log.contains("408"), "{log}");
}

#[test]
fn serve_refuses_a_rule_set_folder_and_a_busy_port() {
    let db = databases();
    let rule_set = db.join(morris::store::rule_set_folder(
        &Variant::by_name("six").unwrap(),
    ));
    let out = morris(&[
        "serve",
        "--db",
        rule_set.to_str().unwrap(),
        "--bind",
        "127.0.0.1:0",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("rule-set folder"));

    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = busy.local_addr().unwrap().to_string();
    let out = morris(&["serve", "--db", db.to_str().unwrap(), "--bind", &addr]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot listen on"));

    // A folder with nothing solved is served, with a warning (here the port is busy, so the
    // warning is all that happens).
    let empty = db.parent().unwrap().join("serve-empty-folder");
    std::fs::create_dir_all(&empty).unwrap();
    let out = morris(&["serve", "--db", empty.to_str().unwrap(), "--bind", &addr]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("holds no solved sectors") && stderr.contains("morris solve --variant six"),
        "{stderr}"
    );
    let out = morris(&["serve", "--db", db.to_str().unwrap(), "--bind", &addr]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("warning"));

    let out = morris(&["serve", "--bind", "localhost:http"]);
    assert_eq!(out.status.code(), Some(2), "an address must be IP:PORT");
    let out = morris(&["serve", "--timeout", "0"]);
    assert_eq!(out.status.code(), Some(2));
}

/// A sector file truncated, or overwritten in place, under a running server (which reads its
/// files with `pread`: a mapped file would kill it with SIGBUS): the positions it holds are
/// answered with a 500 naming the file and no folder, the server lives on, and once the file
/// is whole again they are answered as before.
#[test]
fn a_file_changed_under_the_server_is_an_error_until_it_is_whole_again() {
    use std::fs;
    let db = solved("serve-changed", "nine", &["--sector", "4-4-0-0"]);
    let nine = Variant::by_name("nine").unwrap();
    let path = db
        .join(morris::store::rule_set_folder(&nine))
        .join("4-4-0-0.sec");
    let whole = fs::read(&path).unwrap();
    // Positions in the first and the last payload block of 4-4-0-0 (four blocks).
    let sector: morris::Sector = "4-4-0-0".parse().unwrap();
    let index = morris::space::SectorIndex::new(
        std::sync::Arc::new(morris::space::Orbits::new(&nine)),
        sector,
    );
    let at = |from: u64| {
        let pos = (from..index.size())
            .find_map(|slot| index.position(slot))
            .unwrap();
        pos.to_notation(&nine, morris::Color::White)
    };
    let (early, late) = (at(0), at(index.size() - (1 << 18)));
    let query = |position: &str, server: &Server| {
        get(
            server.addr,
            &format!("/api/query?position={}", enc(position)),
        )
    };
    let server = Server::start(&db, 5.0);
    let before = query(&late, &server);
    assert_eq!(before.status, 200, "{}", before.text());
    drop(server);
    let mut server = Server::start(&db, 5.0);
    // The file is opened (its header and table read) by a query of its first block.
    assert_eq!(query(&early, &server).status, 200);
    let shorten = |len: usize| {
        let f = fs::OpenOptions::new().write(true).open(&path).unwrap();
        f.set_len(len as u64).unwrap();
    };
    shorten(whole.len() - (1 << 19));
    let r = query(&late, &server);
    assert_eq!(r.status, 500, "{}", r.text());
    let text = r.text();
    assert!(
        text.contains("4-4-0-0.sec") && text.contains("damaged"),
        "{text}"
    );
    assert!(!text.contains(db.to_str().unwrap()), "{text}");
    assert!(server.alive());
    // Overwritten in place, the same length: the block fails its checksum.
    let mut garbage = whole.clone();
    let n = garbage.len();
    garbage[n - 100] ^= 0xFF;
    fs::write(&path, &garbage).unwrap();
    let r = query(&late, &server);
    assert_eq!(r.status, 500, "{}", r.text());
    assert!(r.text().contains("fails its checksum"), "{}", r.text());
    // Whole again: answered as before the damage.
    fs::write(&path, &whole).unwrap();
    let after = query(&late, &server);
    assert_eq!(after.status, 200, "{}", after.text());
    assert_eq!(after.body, before.body);
    assert!(server.alive());
}

/// Cross-origin access is off unless `--cors` names the origin (or `any`); a non-loopback
/// bind is announced on standard error; error answers never hold the server's folders; a
/// `--db` that is a file is refused at start.
#[test]
fn cross_origin_reads_are_opt_in_and_answers_hold_no_paths() {
    let db = solved("serve-cors", "six", &[]);
    let start = "/api/query?variant=six&position=start";
    let with_origin = |server: &Server, origin: &str| {
        let raw = format!(
            "GET {start} HTTP/1.1\r\nhost: x\r\norigin: {origin}\r\nconnection: close\r\n\r\n"
        );
        let mut s = TcpStream::connect(server.addr).unwrap();
        s.write_all(raw.as_bytes()).unwrap();
        read_response(&mut BufReader::new(s)).unwrap()
    };
    let plain = Server::start(&db, 5.0);
    let r = with_origin(&plain, "https://elsewhere.example");
    assert_eq!(r.status, 200);
    assert_eq!(r.header("access-control-allow-origin"), None);
    // A missing sector's error names the variant, rules and sector, not the folder.
    let r = get(plain.addr, "/api/stats?variant=nine");
    assert_eq!(r.status, 404);
    assert!(
        r.text().contains("morris solve --variant nine"),
        "{}",
        r.text()
    );
    assert!(!r.text().contains(db.to_str().unwrap()), "{}", r.text());
    drop(plain);
    let some = Server::start_with(&db, 5.0, "127.0.0.1:0", &["--cors", "https://a.example"]);
    let r = with_origin(&some, "https://a.example");
    assert_eq!(
        r.header("access-control-allow-origin"),
        Some("https://a.example")
    );
    let r = with_origin(&some, "https://b.example");
    assert_eq!(r.header("access-control-allow-origin"), None);
    drop(some);
    let any = Server::start_with(&db, 5.0, "0.0.0.0:0", &["--cors", "any"]);
    let r = with_origin(&any, "https://b.example");
    assert_eq!(r.header("access-control-allow-origin"), Some("*"));
    let log = std::fs::read_to_string(&any.log).unwrap();
    assert!(log.contains("reachable from the network"), "{log}");
    drop(any);
    let out = morris(&[
        "serve",
        "--db",
        db.join(morris::store::rule_set_folder(
            &Variant::by_name("six").unwrap(),
        ))
        .join("3-3-0-0.sec")
        .to_str()
        .unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a folder"));
}

/// Draw quality: for each drawing move of a drawn position, `/api/explore` counts the
/// opponent's replies and those that lose, which `query --json` of the position after the move
/// tells independently (its moves valued "loss" for the opponent).
#[test]
fn explore_counts_the_losing_replies_of_each_drawing_move() {
    let db = databases();
    let server = Server::start(&db, 5.0);
    let dbs = db.to_str().unwrap();
    let six_v = Variant::by_name("six").unwrap();
    let library = morris::Database::new(&db, &six_v).unwrap();
    let mut checked = 0;
    for p in six_positions(11, 40).iter().take(40) {
        let e = get(
            server.addr,
            &format!("/api/explore?variant=six&position={}", enc(p)),
        )
        .json();
        for m in e["moves"].as_array().unwrap() {
            if m["value"] != "draw" {
                assert!(
                    m["replies"].is_null()
                        && m["losing_replies"].is_null()
                        && m["trap_chance"].is_null()
                        && m["trap_depth"].is_null(),
                    "{m}"
                );
                continue;
            }
            let after = m["position"].as_str().unwrap();
            let out = morris(&["--variant", "six", "query", "--json", "--db", dbs, after]);
            let q: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            let replies = q["moves"].as_array().unwrap();
            let losing = replies.iter().filter(|r| r["value"] == "loss").count();
            assert_eq!(m["replies"], replies.len(), "{p} {}", m["move"]);
            assert_eq!(m["losing_replies"], losing, "{p} {}", m["move"]);
            // Two moves deep, as the library's search finds (its own test compares it with a
            // slow one), to four decimals.
            let (next, _) = Position::parse(&six_v, after).unwrap();
            let t = traps::at_depth(&library, &[next], 2, u64::MAX)
                .unwrap()
                .unwrap()[0];
            assert_eq!(m["trap_depth"], 2);
            assert_eq!(m["trap_chance"], (t.chance * 1e4).round() / 1e4, "{p} {m}");
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} drawing moves");
}

/// Weaker levels: a legal, solved move with its own value, the same for the same seed; perfect
/// play answers exactly as without `strength`.
#[test]
fn bestmove_at_weaker_levels_draws_among_the_solved_moves() {
    let db = databases();
    let server = Server::start(&db, 5.0);
    let at = |p: &str, extra: &str| {
        get(
            server.addr,
            &format!("/api/bestmove?variant=six&position={}{extra}", enc(p)),
        )
    };
    for p in six_positions(5, 2) {
        let q = get(
            server.addr,
            &format!("/api/query?variant=six&position={}", enc(&p)),
        )
        .json();
        for extra in ["", "&seed=9"] {
            let perfect = at(&p, &format!("{extra}&strength=perfect"));
            assert_eq!(perfect.body, at(&p, extra).body, "{p}{extra}");
        }
        let moves = q["moves"].as_array().unwrap();
        for strength in morris::query::Strength::ALL[1..].iter().map(|s| s.name()) {
            for seed in 0..4 {
                let extra = format!("&strength={strength}&seed={seed}");
                let r = at(&p, &extra);
                if moves.is_empty() {
                    assert_eq!(r.status, 400, "{}", r.text());
                    assert!(r.text().contains("game is over"), "{}", r.text());
                    continue;
                }
                let b = r.json();
                assert_eq!(b["rule"], "sampled");
                let m = moves.iter().find(|m| m["move"] == b["move"]).unwrap();
                assert_eq!(b["value"], m["value"], "{p} {b}");
                assert_eq!(b["depth"], m["depth"], "{p} {b}");
                assert!(b["good_replies"].is_null());
                let reason = b["reason"].as_str().unwrap();
                assert!(
                    reason.starts_with(&format!("a {strength}-strength choice: ")),
                    "{reason}"
                );
                assert_eq!(at(&p, &extra).body, r.body, "the same seed, the same move");
            }
        }
    }
    // At the start of six every move draws, so a novice plays each of them now and then.
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..200 {
        let b = at(SIX_START, &format!("&strength=novice&seed={seed}")).json();
        assert_eq!(b["value"], "draw");
        seen.insert(b["move"].as_str().unwrap().to_string());
    }
    assert!(seen.len() > 8, "{seen:?}");
    // Without a seed, a weaker level still answers a legal move.
    let b = at(SIX_START, "&strength=club").json();
    assert_eq!(b["rule"], "sampled");
}

/// Practice: a random position of the sector asked for, solved and with the value asked for,
/// which `query --json` confirms; the same seed, the same position.
#[test]
fn practice_gives_a_solved_position_of_the_sector_with_its_value() {
    let db = databases();
    let dbs = db.to_str().unwrap();
    let server = Server::start(&db, 5.0);
    let six = Variant::by_name("six").unwrap();
    let stats = get(server.addr, "/api/stats?variant=six").json();
    let sectors = stats["sectors"].as_array().unwrap();
    let mut answered = 0;
    for (i, row) in sectors.iter().enumerate().filter(|(i, _)| i % 5 == 0) {
        let sector = row["sector"].as_str().unwrap();
        for value in ["win", "draw", "loss"] {
            let target =
                format!("/api/practice?variant=six&sector={sector}&value={value}&seed={i}");
            let r = get(server.addr, &target);
            if row[value] == 0 {
                assert_eq!(r.status, 404, "{target}: {}", r.text());
                assert!(
                    r.text().contains(&format!(
                        "no position of {sector} with value {value} found in 10000 random slots and all"
                    )),
                    "{}",
                    r.text()
                );
                continue;
            }
            if r.status == 404 {
                // Every position of that value is finished (a loss at depth 0).
                assert_eq!(value, "loss", "{target}: {}", r.text());
                continue;
            }
            let a = r.json();
            assert_eq!(a["variant"], "six");
            assert_eq!(a["sector"], sector);
            assert_eq!(a["value"], value);
            assert!(a["tries"].as_u64().unwrap() >= 1);
            let text = a["position"].as_str().unwrap();
            let (pos, turn) = Position::parse(&six, text).unwrap();
            assert_eq!(morris::Sector::of(&pos).to_string(), sector, "{text}");
            if pos.mover_hand == pos.opponent_hand {
                assert_eq!(turn, morris::Color::White, "{text}");
            }
            let out = morris(&["--variant", "six", "query", "--json", "--db", dbs, text]);
            assert!(out.status.success(), "{text}");
            let q: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(q["position"], a["position"]);
            assert_eq!(q["value"], a["value"], "{text}");
            assert_eq!(q["depth"], a["depth"], "{text}");
            assert!(!q["moves"].as_array().unwrap().is_empty(), "{text}");
            assert_eq!(get(server.addr, &target).body, r.body, "the same seed");
            answered += 1;
        }
    }
    assert!(answered > 10, "only {answered} sectors and values answered");
    // Without a value: any solved position of the sector; without a seed, a random one.
    let some: std::collections::BTreeSet<String> = (0..5)
        .map(|_| {
            let a = get(server.addr, "/api/practice?variant=six&sector=4-4-0-0").json();
            assert_eq!(a["sector"], "4-4-0-0");
            a["position"].as_str().unwrap().to_string()
        })
        .collect();
    assert!(some.len() > 1, "{some:?}");
    // A placement sector with one more in the mover's hand: Black is to move.
    let black = sectors
        .iter()
        .map(|r| {
            r["sector"]
                .as_str()
                .unwrap()
                .parse::<morris::Sector>()
                .unwrap()
        })
        .find(|s| s.mover_hand == s.opponent_hand + 1)
        .unwrap();
    let a = get(
        server.addr,
        &format!("/api/practice?variant=six&sector={black}&seed=1"),
    )
    .json();
    let text = a["position"].as_str().unwrap();
    assert!(text.contains(" b "), "{black}: {text}");

    // A side asked for: in the moving phase the position has it to move; a minimum depth: a
    // win or loss at least that far from the end, or a 404 saying none is.
    for seed in 0..6 {
        let a = get(
            server.addr,
            &format!(
                "/api/practice?variant=six&sector=4-3-0-0&value=win&min_depth=5&side=b&seed={seed}"
            ),
        );
        assert_eq!(a.status, 200, "{}", a.text());
        let a = a.json();
        let text = a["position"].as_str().unwrap();
        assert!(text.ends_with(" b 0 0"), "{text}");
        assert!(a["depth"].as_u64().unwrap() >= 5, "{a}");
        let out = morris(&["--variant", "six", "query", "--json", "--db", dbs, text]);
        let q: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            (&q["value"], &q["depth"]),
            (&a["value"], &a["depth"]),
            "{text}"
        );
    }
    let deepest = sectors.iter().find(|r| r["sector"] == "4-3-0-0").unwrap()["max_depth"]
        .as_u64()
        .unwrap();
    let r = get(
        server.addr,
        &format!(
            "/api/practice?variant=six&sector=4-3-0-0&value=win&min_depth={}",
            deepest + 1
        ),
    );
    assert_eq!(r.status, 404, "{}", r.text());
    assert!(
        r.text().contains(&format!(
            "with value win at least {} plies from the end found",
            deepest + 1
        )),
        "{}",
        r.text()
    );
    for (target, why) in [
        ("min_depth=-1", "min_depth must be a number"),
        ("min_depth=lots", "min_depth must be a number"),
        ("side=white", "unknown side \\\"white\\\" (expected w, b)"),
    ] {
        let r = get(
            server.addr,
            &format!("/api/practice?variant=six&sector=4-3-0-0&{target}"),
        );
        assert_eq!(r.status, 400, "{target}: {}", r.text());
        assert!(r.text().contains(why), "{target}: {}", r.text());
    }
}

/// The summary line of `solve --plan` ("N work units, S sectors, T index slots", before the
/// modelled time and the peaks) and the rows' slots by unit name.
fn plan_of(args: &[&str]) -> (u64, u64, Vec<(String, u64)>) {
    let out = morris(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let summary = text.lines().find(|l| l.contains(" work units, ")).unwrap();
    let last: Vec<&str> = summary.split_whitespace().collect();
    let rows = text
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let slots = f.get(1)?.parse().ok()?;
            Some((f.get(3..)?.join(" "), slots))
        })
        .collect();
    (last[0].parse().unwrap(), last[5].parse().unwrap(), rows)
}

/// `solve_cost`: what solving the missing sector takes, as `solve --plan` counts it less the
/// units present, and the endgames that fit a minute where the whole takes longer.
#[test]
fn explore_says_what_solving_the_missing_sector_costs() {
    let db = solved("serve-cost", "nine", &["--sector", "3-3-0-0"]);
    let dbs = db.to_str().unwrap();
    let server = Server::start(&db, 30.0);
    let start = ".../.../.../....../.../.../... w 9 9";
    let e = get(
        server.addr,
        &format!("/api/explore?position={}", enc(start)),
    )
    .json();
    let cost = &e["solve_cost"];
    assert_eq!(cost["sector"], "0-0-9-9", "{cost}");
    let command = cost["command"].as_str().unwrap();
    assert!(
        command.starts_with("morris solve --variant nine ")
            && command.ends_with(" --sector 0-0-9-9"),
        "{command}"
    );
    assert!(e["unsolved"].as_str().unwrap().contains(command));
    // The plan of the start less the one unit solved (3-3-0-0).
    let (units, slots, rows) = plan_of(&["solve", "--plan", "--db", dbs]);
    let solved_slots = rows.iter().find(|(u, _)| u == "3-3-0-0").unwrap().1;
    assert_eq!(cost["units"], units - 1, "{cost}");
    assert_eq!(cost["slots"], slots - solved_slots, "{cost}");
    assert_eq!(cost["bytes"], cost["slots"]);
    assert!(cost["seconds"].as_f64().unwrap() > 3600.0, "{cost}");
    let cheaper = &cost["cheaper"];
    let k = cheaper["max_pieces"].as_u64().unwrap();
    assert!((3..9).contains(&k), "{cheaper}");
    assert!(cheaper["seconds"].as_f64().unwrap() <= 60.0, "{cheaper}");
    assert!(cheaper["slots"].as_u64().unwrap() > 0, "{cheaper}");
    assert_eq!(
        cheaper["command"].as_str().unwrap(),
        command.replace(" --sector 0-0-9-9", &format!(" --max-pieces {k}"))
    );
    let k = k.to_string();
    let (units, slots, _) = plan_of(&["solve", "--plan", "--db", dbs, "--max-pieces", &k]);
    assert_eq!(cheaper["units"], units - 1, "{cheaper}");
    assert_eq!(cheaper["slots"], slots - solved_slots, "{cheaper}");
    // The same answer from the cache.
    let again = get(
        server.addr,
        &format!("/api/explore?position={}", enc(start)),
    )
    .json();
    assert_eq!(again["solve_cost"], e["solve_cost"]);
    // A 4-3 position: its unit (4-3-0-0 with 3-4-0-0) is quick, so nothing cheaper.
    let four = "W.W/.W./.../W...../.../.B./B.B w 0 0";
    let e = get(server.addr, &format!("/api/explore?position={}", enc(four))).json();
    let cost = &e["solve_cost"];
    assert_eq!(cost["sector"], "4-3-0-0", "{cost}");
    assert_eq!(cost["units"], 1, "{cost}");
    let seconds = cost["seconds"].as_f64().unwrap();
    assert!(seconds > 0.0 && seconds <= 60.0, "{cost}");
    assert!(cost["cheaper"].is_null(), "{cost}");
    let (_, slots, _) = plan_of(&["solve", "--plan", "--db", dbs, "--sector", "4-3-0-0"]);
    assert_eq!(cost["slots"], slots - solved_slots, "{cost}");
    // Once solved, the cost is gone; the server sees the new files without a restart.
    solve_into(&db, "nine", &["--sector", "4-3-0-0"]);
    let e = get(server.addr, &format!("/api/explore?position={}", enc(four))).json();
    assert!(e["solve_cost"].is_null(), "{e}");
    assert!(e["unsolved"].is_null(), "{e}");
    let e = get(
        server.addr,
        &format!("/api/explore?position={}", enc(start)),
    )
    .json();
    assert_eq!(e["solve_cost"]["units"], units_before(&again) - 1);
}

/// `solve_cost.units` of an explore answer.
fn units_before(explore: &serde_json::Value) -> u64 {
    explore["solve_cost"]["units"].as_u64().unwrap()
}

/// A position of one rule set is never answered from a database of another, at the command
/// line's door and the API's: the rule switches select the rule set's folder, and a folder
/// holding only six under standard removal answers a strict-removal question with "not
/// solved", naming the rule set, never with the standard value (which differs: win in 11
/// under strict removal, loss in 10 under standard, for this position).
#[test]
fn a_position_of_other_rules_is_never_answered_from_another_rule_sets_database() {
    let db = databases();
    let dbs = db.to_str().unwrap();
    let position = "..W/.B./BB.W/..B/.BW w 0 0";
    let standard = morris(&["--variant", "six", "query", "--json", "--db", dbs, position]);
    assert!(standard.status.success());
    let value: serde_json::Value = serde_json::from_slice(&standard.stdout).unwrap();
    assert_eq!(
        (value["value"].as_str(), value["depth"].as_u64()),
        (Some("loss"), Some(10))
    );
    let strict = morris(&[
        "--variant",
        "six",
        "--removal",
        "strict",
        "query",
        "--json",
        "--db",
        dbs,
        position,
    ]);
    let text = String::from_utf8_lossy(&strict.stdout).to_string()
        + &String::from_utf8_lossy(&strict.stderr);
    assert_eq!(strict.status.code(), Some(2), "{text}");
    assert!(
        text.contains("removal-strict") && !text.contains("\"value\""),
        "{text}"
    );
    let server = Server::start(&db, 5.0);
    let r = get(
        server.addr,
        &format!(
            "/api/query?variant=six&removal=strict&position={}",
            enc(position)
        ),
    );
    assert_eq!(r.status, 404, "{}", r.text());
    let error = r.json()["error"].as_str().unwrap().to_string();
    assert!(
        error.contains("removal strict") || error.contains("removal-strict"),
        "{error}"
    );
}

/// A game's line in one request: each position exactly as `explore` answers it alone, in
/// order; a move that is not legal ends the line, named; a line too long is refused.
#[test]
fn line_answers_each_position_of_a_game_as_explore_does() {
    let db = databases();
    let server = Server::start(&db, 10.0);
    let v = Variant::by_name("six").unwrap();
    let mut rng = Rng::new(7);
    for game in 0..3 {
        let mut pos = Position::start(&v);
        let mut turn = morris::Color::White;
        let mut positions = vec![pos.to_notation(&v, turn)];
        let mut moves = Vec::new();
        for _ in 0..60 {
            let legal = generate(&v, &pos);
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.below(legal.len() as u64) as usize];
            moves.push(m.to_notation(v.board()));
            pos = play(&pos, m);
            turn = turn.other();
            positions.push(pos.to_notation(&v, turn));
        }
        let target = format!(
            "/api/line?variant=six&position=start&moves={}",
            enc(&moves.join(","))
        );
        let a = get(server.addr, &target).json();
        assert_eq!(a["variant"], "six");
        assert!(a["stopped"].is_null(), "game {game}: {}", a["stopped"]);
        let got = a["positions"].as_array().unwrap();
        assert_eq!(got.len(), positions.len(), "game {game}");
        for (p, g) in positions.iter().zip(got) {
            let alone = get(
                server.addr,
                &format!("/api/explore?variant=six&position={}&traps=1", enc(p)),
            )
            .json();
            assert_eq!(g, &alone, "game {game}: {p}");
        }
    }
    // A move that is not legal where it stands ends the line before it.
    let a = get(
        server.addr,
        "/api/line?variant=six&position=start&moves=a5,a5,b4",
    )
    .json();
    assert_eq!(a["positions"].as_array().unwrap().len(), 2);
    assert_eq!(a["stopped"]["index"], 2);
    assert_eq!(a["stopped"]["move"], "a5");
    assert_eq!(
        a["stopped"]["error"],
        "move 2, a5, is not legal in W../.../..../.../... b 5 6"
    );
    // No moves: the start alone.
    let a = get(server.addr, "/api/line?variant=six&position=start").json();
    assert_eq!(a["positions"].as_array().unwrap().len(), 1);
    // Traps one move deep unless asked; two as explore gives them; a depth outside 1 to 3 is
    // refused, naming the range.
    assert_eq!(a["positions"][0]["moves"][0]["trap_depth"], 1);
    let two = get(server.addr, "/api/line?variant=six&position=start&traps=2").json();
    let alone = get(server.addr, "/api/explore?variant=six&position=start").json();
    assert_eq!(two["positions"][0], alone);
    for bad in ["0", "4", "two", "-1"] {
        let r = get(
            server.addr,
            &format!("/api/explore?variant=six&position=start&traps={bad}"),
        );
        assert_eq!(r.status, 400, "{}", r.text());
        assert!(r.text().contains("traps must be 1, 2 or 3"), "{}", r.text());
    }
    // Bad input: a position that cannot occur, a line longer than one request plays.
    let r = get(
        server.addr,
        "/api/line?variant=six&position=nonsense&moves=a5",
    );
    assert_eq!(r.status, 400, "{}", r.text());
    let long = vec!["a5"; 2001].join(",");
    let r = get(
        server.addr,
        &format!("/api/line?variant=six&position=start&moves={long}"),
    );
    assert_eq!(r.status, 400, "{}", r.text());
    assert!(
        r.text()
            .contains("a line of 2001 moves is longer than the 2000"),
        "{}",
        r.text()
    );
}

/// Depth histograms: each sector's counts add up to its `stats` positions, and six's sectors
/// together give the published histogram of the whole game (`data/results/six-standard-depths.tsv`,
/// counted by `scripts/depths.py`, a reader of its own); a bad or unsolved sector is refused.
#[test]
fn depths_of_every_sector_add_up_to_the_published_histogram() {
    let db = databases();
    let server = Server::start(&db, 10.0);
    let stats = get(server.addr, "/api/stats?variant=six").json();
    let mut whole: std::collections::BTreeMap<(String, String), u64> = Default::default();
    for s in stats["sectors"].as_array().unwrap() {
        let sector = s["sector"].as_str().unwrap();
        let d = get(
            server.addr,
            &format!("/api/depths?variant=six&sector={sector}"),
        )
        .json();
        assert_eq!(d["sector"], sector);
        assert_eq!(d["positions"], s["positions"], "{sector}");
        let mut sum = d["draw"].as_u64().unwrap();
        assert_eq!(d["draw"], s["draw"], "{sector}");
        for value in ["win", "loss"] {
            let counts = d[value].as_array().unwrap();
            let total: u64 = counts.iter().map(|c| c.as_u64().unwrap()).sum();
            assert_eq!(total, s[value].as_u64().unwrap(), "{sector} {value}");
            if !counts.is_empty() {
                assert_ne!(
                    counts.last().unwrap(),
                    0,
                    "{sector} {value}: no trailing zeros"
                );
            }
            sum += total;
            for (depth, c) in counts.iter().enumerate() {
                if c.as_u64().unwrap() > 0 {
                    *whole
                        .entry((depth.to_string(), value.to_string()))
                        .or_default() += c.as_u64().unwrap();
                }
            }
        }
        assert_eq!(sum, s["positions"].as_u64().unwrap());
        // The deepest value is the header's largest depth.
        let longest = ["win", "loss"]
            .map(|v| d[v].as_array().unwrap().len())
            .into_iter()
            .max()
            .unwrap();
        if longest > 0 {
            assert_eq!(
                longest as u64 - 1,
                s["max_depth"].as_u64().unwrap(),
                "{sector}"
            );
        }
        *whole.entry(("-".into(), "draw".into())).or_default() += d["draw"].as_u64().unwrap();
    }
    let published = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("data/results/six-standard-depths.tsv"),
    )
    .unwrap();
    let expected: std::collections::BTreeMap<(String, String), u64> = published
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("depth"))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            ((f[0].to_string(), f[1].to_string()), f[2].parse().unwrap())
        })
        .collect();
    assert_eq!(whole, expected);
    for (target, status, words) in [
        (
            "/api/depths?variant=six&sector=9-3-0-0",
            400,
            "more than the 6 pieces",
        ),
        ("/api/depths?variant=six", 400, "missing parameter"),
        ("/api/depths?variant=six&sector=nonsense", 400, "sector"),
        ("/api/depths?variant=three&sector=3-3-0-0", 404, "solve"),
    ] {
        let r = get(server.addr, target);
        assert_eq!(r.status, status, "{target}: {}", r.text());
        assert!(r.text().contains(words), "{target}: {}", r.text());
    }
}
