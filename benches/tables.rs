//! Probing compact tables: the win/draw/loss of random positions and a full `query` analysis
//! (every move valued), warm, on one thread and (values) on every core, and the first probe of
//! a sector just opened (cold blocks).
//!
//! The tables are those of `$MORRIS_TABLES` (nine, default rules: e.g. the whole game's,
//! built by `morris tables`; a database folder there is read mapped, as `morris query` reads
//! it), or else of nine `--max-pieces 5`, solved and built here once. Positions are drawn
//! uniformly over the slots of every sector present, or are those of `$MORRIS_SAMPLE`: a file
//! of bitboard rows `white black white_hand black_hand turn` (turn 0 White, 1 Black), as
//! `python python/bench.py FOLDER --write-sample FILE` writes the sample it times, so that
//! both languages probe the same positions.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use morris::front::{position_of_bits, Bits};
use morris::space::{endgame_roots, plan};
use morris::store::{Database, Reading};
use morris::tables::{build_tables, Options};
use morris::{Color, Position, Silent, Variant};
use rayon::prelude::*;

/// The tables folder to probe.
fn tables(v: &Variant) -> PathBuf {
    if let Some(dir) = std::env::var_os("MORRIS_TABLES") {
        return PathBuf::from(dir);
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bench-tables-nine5");
    let (db_dir, out) = (dir.join("db"), dir.join("tables"));
    let db = Database::new(&db_dir, v).unwrap();
    let units = plan(v, &endgame_roots(v, 5));
    morris::solve::solve_units(&db, &units, &Silent, &Default::default()).unwrap();
    build_tables(&db, &out, &Options::default(), &Silent).unwrap();
    out
}

/// The positions of a sample file of bitboard rows (see the module's doc), mover-relative.
fn sample_file(v: &Variant, path: &std::path::Path) -> Vec<Position> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let f: Vec<u32> = line
                .split_whitespace()
                .map(|x| x.parse().expect("a row of five numbers"))
                .collect();
            assert_eq!(
                f.len(),
                5,
                "{}: a row has five numbers: {line}",
                path.display()
            );
            let bits = Bits {
                white: f[0],
                black: f[1],
                white_hand: f[2] as u8,
                black_hand: f[3] as u8,
            };
            let turn = if f[4] == 0 {
                Color::White
            } else {
                Color::Black
            };
            position_of_bits(v, bits, turn).expect("a legal position").0
        })
        .collect()
}

/// `n` positions drawn uniformly over the used slots of every sector of `db`.
fn positions(db: &Database, n: usize) -> Vec<Position> {
    let sectors = db.present();
    let sizes: Vec<u64> = sectors.iter().map(|&s| db.index(s).size()).collect();
    let total: u64 = sizes.iter().sum();
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut r = next() % total;
        let k = sizes
            .iter()
            .position(|&z| {
                let here = r < z;
                if !here {
                    r -= z;
                }
                here
            })
            .unwrap();
        if let Some(p) = db.index(sectors[k]).position(r) {
            out.push(p);
        }
    }
    out
}

fn probe(c: &mut Criterion) {
    let v = Variant::by_name("nine").unwrap();
    let dir = tables(&v);
    let db = Database::open_reading(&dir, &v, Reading::Mapped).unwrap();
    let sample = match std::env::var_os("MORRIS_SAMPLE") {
        Some(file) => sample_file(&v, file.as_ref()),
        None => positions(&db, 100_000),
    };
    // Query analyses values every move: only positions whose moves' sectors are present.
    let analysable: Vec<Position> = sample
        .iter()
        .filter(|p| db.analyse(p).is_ok())
        .take(10_000)
        .copied()
        .collect();
    let mut group = c.benchmark_group("tables");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.throughput(Throughput::Elements(sample.len() as u64));
    group.bench_function("wdl/warm", |b| {
        b.iter(|| {
            sample
                .iter()
                .map(|p| db.probe_outcome(black_box(p)).unwrap() as u64)
                .sum::<u64>()
        })
    });
    group.bench_function("value/warm", |b| {
        b.iter(|| {
            sample
                .iter()
                .filter(|p| db.probe(black_box(p)).unwrap().depth().is_some())
                .count()
        })
    });
    // As the Python package's `probe_many` works: the batch spread over every core.
    group.bench_function("value/parallel", |b| {
        b.iter(|| {
            sample
                .par_iter()
                .filter(|p| db.probe(black_box(p)).unwrap().depth().is_some())
                .count()
        })
    });
    // The same, each answer kept, as a batch call must (`probe_many`, `morris_probe_many_bits`).
    group.bench_function("value/parallel/collect", |b| {
        b.iter(|| {
            sample
                .par_iter()
                .map(|p| db.probe(black_box(p)))
                .collect::<Vec<_>>()
        })
    });
    group.throughput(Throughput::Elements(analysable.len() as u64));
    group.bench_function("query/warm", |b| {
        b.iter(|| {
            analysable
                .iter()
                .map(|p| db.analyse(black_box(p)).unwrap().moves.len())
                .sum::<usize>()
        })
    });
    group.finish();

    // The whole sample once, in parallel, from a folder just opened (as Python's
    // `probe_many` on a fresh `morris.open`): the reader's caches empty, the page cache as
    // the runs above left it. Best of three.
    let cold = (0..3)
        .map(|_| {
            let fresh = Database::open_reading(&dir, &v, Reading::Mapped).unwrap();
            let start = Instant::now();
            let n = sample
                .par_iter()
                .filter(|p| fresh.probe(black_box(p)).unwrap().depth().is_some())
                .count();
            black_box(n);
            start.elapsed()
        })
        .min()
        .unwrap();
    println!(
        "tables/value/parallel/cold: {} positions in {cold:?}, {:.0} positions/s",
        sample.len(),
        sample.len() as f64 / cold.as_secs_f64()
    );

    // The first probe of a sector, its files just opened and none of its blocks cached
    // (the page cache may hold the file: a cold disk is slower still).
    let mut first = Vec::new();
    for p in sample.iter().take(200) {
        let fresh = Database::open_reading(&dir, &v, Reading::Mapped).unwrap();
        let start = Instant::now();
        black_box(fresh.probe(p).unwrap());
        first.push(start.elapsed());
    }
    first.sort();
    println!(
        "tables/first probe of a sector: median {:?}, 95th percentile {:?}, max {:?}",
        first[first.len() / 2],
        first[first.len() * 95 / 100],
        first[first.len() - 1]
    );
}

criterion_group!(benches, probe);
criterion_main!(benches);
