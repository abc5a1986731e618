//! `morris serve` under load and beside a running solve, on loopback only, with every loop
//! bounded in count and time: 50 clients making 20,000 queries of nine's endgames all get the
//! library's own answer, and queries of a folder being solved get either "not solved" or the
//! final value, never a wrong one. `scripts/serve-load.sh` runs the first and prints its
//! throughput and latencies.

use std::collections::HashMap;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use morris::query::wire::{self, QueryJson};
use morris::rules::{generate, play};
use morris::store::Database;
use morris::{Color, Position, Variant};

mod common;
mod serve_support;

use common::Rng;
use serve_support::{enc, fresh_dir, get, solved, Connection, Server};

const CLIENTS: usize = 50;
const QUERIES: usize = 20_000;

#[test]
fn fifty_clients_make_twenty_thousand_queries_of_nine_endgames() {
    let db = solved("serve-load", "nine", &["--max-pieces", "4"]);
    let server = Server::start(&db, 10.0);

    // 2,000 random positions of the solved sectors (3 or 4 pieces a side, moving), each with
    // the answer the library gives.
    let variant = Variant::by_name("nine").unwrap();
    let database = Database::new(&db, &variant).unwrap();
    let all = variant.board().all();
    let mut rng = Rng::new(2024);
    let mut pool = Vec::new();
    while pool.len() < 2000 {
        let (w, b) = (3 + rng.below(2) as u32, 3 + rng.below(2) as u32);
        let mover = rng.subset(all, w);
        let opponent = rng.subset(all - mover, b);
        let pos = Position {
            mover,
            opponent,
            mover_hand: 0,
            opponent_hand: 0,
        };
        let turn = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let analysis = database.analyse(&pos).unwrap();
        let expected = wire::line(&QueryJson::new(&variant, &pos, turn, &analysis));
        let target = format!(
            "/api/query?variant=nine&position={}",
            enc(&pos.to_notation(&variant, turn))
        );
        pool.push((target, expected.into_bytes()));
    }
    let pool = Arc::new(pool);

    let addr = server.addr;
    let started = Instant::now();
    let clients: Vec<_> = (0..CLIENTS)
        .map(|c| {
            let pool = pool.clone();
            thread::spawn(move || {
                let mut rng = Rng::new(c as u64 + 1);
                let mut latencies = Vec::with_capacity(QUERIES / CLIENTS);
                let mut errors = Vec::new();
                let mut conn = Connection::open(addr);
                for _ in 0..QUERIES / CLIENTS {
                    let (target, expected) = &pool[rng.below(pool.len() as u64) as usize];
                    let t = Instant::now();
                    let answer = match conn.as_mut() {
                        Ok(conn) => conn.get(target),
                        Err(e) => Err(std::io::Error::new(e.kind(), e.to_string())),
                    };
                    latencies.push(t.elapsed());
                    match answer {
                        Ok(r) if r.status == 200 && &r.body == expected => {}
                        Ok(r) => errors.push(format!("{target}: {} {}", r.status, r.text())),
                        Err(e) => {
                            errors.push(format!("{target}: {e}"));
                            conn = Connection::open(addr);
                        }
                    }
                    // Bounded in time too: a stuck server fails the test instead of hanging it.
                    if started.elapsed() > Duration::from_secs(300) {
                        errors.push("gave up after 300 s".into());
                        break;
                    }
                }
                (latencies, errors)
            })
        })
        .collect();
    let mut latencies = Vec::with_capacity(QUERIES);
    let mut errors = Vec::new();
    for c in clients {
        let (l, e) = c.join().unwrap();
        latencies.extend(l);
        errors.extend(e);
    }
    let wall = started.elapsed();
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() as f64 * q) as usize).min(latencies.len() - 1)];
    let report = format!(
        "{} queries from {CLIENTS} clients in {:.2} s: {:.0} queries/s; latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; {} errors",
        latencies.len(),
        wall.as_secs_f64(),
        latencies.len() as f64 / wall.as_secs_f64(),
        at(0.50).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        latencies.last().unwrap().as_secs_f64() * 1e3,
        errors.len()
    );
    eprintln!("{report}");
    let target = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(target.join("serve-load.txt"), format!("{report}\n")).unwrap();
    assert!(
        errors.is_empty(),
        "{} errors, first: {}",
        errors.len(),
        errors[0]
    );
    assert_eq!(latencies.len(), QUERIES);
}

/// Positions of six from random play, placement and moving phases, without repeats.
fn six_positions(variant: &Variant, games: usize) -> Vec<String> {
    let mut rng = Rng::new(99);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::start(variant);
        let mut turn = Color::White;
        for _ in 0..50 {
            out.push(pos.to_notation(variant, turn));
            let moves = generate(variant, &pos);
            if moves.is_empty() {
                break;
            }
            pos = play(&pos, moves[rng.below(moves.len() as u64) as usize]);
            turn = turn.other();
        }
    }
    out.sort();
    out.dedup();
    out
}

#[test]
fn queries_while_a_folder_is_solved_are_unsolved_or_final() {
    let db = fresh_dir("serve-solving");
    let server = Server::start(&db, 10.0);
    let variant = Variant::by_name("six").unwrap();
    let positions = Arc::new(six_positions(&variant, 40));
    assert!(positions.len() > 500);

    let mut solve = Command::new(env!("CARGO_BIN_EXE_morris"))
        .args(["--variant", "six", "solve", "--quiet", "--threads", "1"])
        .arg("--db")
        .arg(&db)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let done = Arc::new(AtomicBool::new(false));
    let addr = server.addr;
    let clients: Vec<_> = (0..4u64)
        .map(|c| {
            let (positions, done) = (positions.clone(), done.clone());
            thread::spawn(move || {
                let mut rng = Rng::new(c + 7);
                let mut answers = Vec::new();
                let started = Instant::now();
                let mut conn = Connection::open(addr).unwrap();
                while !done.load(Ordering::Relaxed)
                    && answers.len() < 100_000
                    && started.elapsed() < Duration::from_secs(180)
                {
                    let i = rng.below(positions.len() as u64) as usize;
                    let target = format!("/api/query?variant=six&position={}", enc(&positions[i]));
                    let r = conn.get(&target).unwrap();
                    answers.push((i, r.status, r.body));
                }
                answers
            })
        })
        .collect();
    // The solve, bounded: six takes seconds.
    let started = Instant::now();
    let status = loop {
        if let Some(status) = solve.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(180) {
            let _ = solve.kill();
            panic!("solving six took more than 180 s");
        }
        thread::sleep(Duration::from_millis(20));
    };
    done.store(true, Ordering::Relaxed);
    assert!(status.success(), "{:?}", solve.wait_with_output());
    let answers: Vec<_> = clients
        .into_iter()
        .flat_map(|c| c.join().unwrap())
        .collect();

    let mut finals: HashMap<usize, Vec<u8>> = HashMap::new();
    let (mut unsolved, mut solved_now) = (0, 0);
    for (i, status, body) in &answers {
        let last = finals.entry(*i).or_insert_with(|| {
            let r = get(
                addr,
                &format!("/api/query?variant=six&position={}", enc(&positions[*i])),
            );
            assert_eq!(r.status, 200, "{}", r.text());
            r.body
        });
        let text = String::from_utf8_lossy(body);
        match status {
            404 => {
                assert!(
                    text.contains("is not solved") && text.contains("morris solve"),
                    "{text}"
                );
                unsolved += 1;
            }
            200 => {
                assert_eq!(
                    body, last,
                    "a wrong answer while solving: {}",
                    positions[*i]
                );
                solved_now += 1;
            }
            _ => panic!("status {status} while solving: {text}"),
        }
    }
    eprintln!(
        "{} answers while solving: {unsolved} not solved yet, {solved_now} final",
        answers.len()
    );
    assert!(
        unsolved > 0 && solved_now > 0,
        "the queries did not overlap the solve"
    );
}
