//! Probing compact tables: the win/draw/loss of random positions and a full `query` analysis
//! (every move valued), warm, on one thread and (values) on every core, and the first probe of
//! a sector just opened (cold blocks).
//!
//! The tables are those of `$MORRIS_TABLES` (nine, default rules: e.g. the whole game's,
//! built by `morris tables`), or else of nine `--max-pieces 5`, solved and built here once.
//! Positions are drawn uniformly over the slots of every sector present.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use morris::space::{endgame_roots, plan};
use morris::store::{Database, READER_CACHE_BYTES};
use morris::tables::{build_tables, Options};
use morris::{Position, Silent, Variant};
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
    let db = Database::tables(&dir, &v, READER_CACHE_BYTES).unwrap();
    let sample = positions(&db, 100_000);
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

    // The first probe of a sector, its files just opened and none of its blocks cached
    // (the page cache may hold the file: a cold disk is slower still).
    let mut first = Vec::new();
    for p in sample.iter().take(200) {
        let fresh = Database::tables(&dir, &v, READER_CACHE_BYTES).unwrap();
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
