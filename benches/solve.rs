//! Index rank/unrank and solving work units (nine's 4-4-0-0 and 3-5-0-0, Lasker's
//! 4-5-1-0 with pieces in hand) from scratch, each checked.

use std::path::PathBuf;
use std::sync::Arc;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use morris::solve::{solve, solve_unit};
use morris::space::{plan, Sector, WorkUnit};
use morris::space::{Orbits, SectorIndex};
use morris::store::Database;
use morris::Silent;
use morris::Variant;

fn index(c: &mut Criterion) {
    let v = Variant::by_name("nine").unwrap();
    let orbits = Arc::new(Orbits::new(&v));
    let sector = Sector {
        mover: 5,
        opponent: 5,
        mover_hand: 0,
        opponent_hand: 0,
    };
    let index = SectorIndex::new(orbits, sector);
    // Every 997th slot of 5-5-0-0, and the positions in them.
    let slots: Vec<u64> = (0..index.size()).step_by(997).collect();
    let positions: Vec<_> = slots.iter().filter_map(|&s| index.position(s)).collect();
    for (p, &s) in positions
        .iter()
        .zip(slots.iter().filter(|&&s| index.position(s).is_some()))
    {
        assert_eq!(index.index(p), s);
    }
    let mut group = c.benchmark_group("index");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("rank/nine-5-5", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| index.index(black_box(p)))
                .sum::<u64>()
        })
    });
    group.throughput(Throughput::Elements(slots.len() as u64));
    group.bench_function("unrank/nine-5-5", |b| {
        b.iter(|| {
            slots
                .iter()
                .filter_map(|&s| index.position(black_box(s)))
                .count()
        })
    });
    let walk = 1 << 20;
    group.throughput(Throughput::Elements(walk));
    group.bench_function("walk/nine-5-5", |b| {
        b.iter(|| {
            let mut used = 0u64;
            index.for_each_slot(0, walk, |_, p| used += p.is_some() as u64);
            used
        })
    });
    group.finish();
}

/// A fresh database of `variant` in the bench folder `tag` with every unit solved that the
/// unit of `target` depends on, and that unit (the one to time).
fn with_dependencies(variant: &str, tag: &str, target: Sector) -> (Database, WorkUnit) {
    let v = Variant::by_name(variant).unwrap();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(tag);
    let _ = std::fs::remove_dir_all(&dir);
    let db = Database::new(&dir, &v).unwrap();
    let mut units = plan(&v, &[target]);
    let last = units.pop().unwrap();
    for u in &units {
        solve(&db, &u.sectors, &Silent).unwrap();
    }
    (db, last)
}

fn solve_4_4(c: &mut Criterion) {
    let target = Sector {
        mover: 4,
        opponent: 4,
        mover_hand: 0,
        opponent_hand: 0,
    };
    // Solve what 4-4-0-0 depends on once; then time its own unit.
    let (db, last) = with_dependencies("nine", "bench-solve-4-4", target);
    assert_eq!(last.sectors, vec![target]);
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    group.throughput(Throughput::Elements(db.index(target).size()));
    group.bench_function("nine-4-4-0-0", |b| {
        b.iter(|| {
            solve_unit(&db, &last, &Silent).unwrap();
            let stats = db.sector(target).unwrap().stats();
            // Canonical win/loss/draw of 4-4-0-0, as solved before any optimization and
            // proved by `morris verify`.
            assert_eq!((stats.win, stats.loss, stats.draw), (159, 29, 3_225_409));
        })
    });
    group.finish();
}

/// The flying unit 3-5-0-0 with 5-3-0-0 of nine: 6 M slots, 32 retrograde levels, most of
/// its time in the levels (predecessors ranked, told and resolved).
fn solve_3_5(c: &mut Criterion) {
    let target: Sector = "3-5-0-0".parse().unwrap();
    let (db, last) = with_dependencies("nine", "bench-solve-3-5", target);
    assert_eq!(last.sectors.len(), 2);
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    group.throughput(Throughput::Elements(
        last.sectors.iter().map(|&s| db.index(s).size()).sum(),
    ));
    group.bench_function("nine-3-5-0-0-with-5-3-0-0", |b| {
        b.iter(|| {
            solve_unit(&db, &last, &Silent).unwrap();
            let stats = db.sector(target).unwrap().stats();
            // Canonical win/loss/draw of 3-5-0-0 in data/results/nine-standard.json.
            assert_eq!((stats.win, stats.loss, stats.draw), (6301, 9677, 2_564_412));
        })
    });
    group.finish();
}

/// Lasker's twin unit 4-5-1-0 with 5-4-0-1: 22.7 M slots, the mover of 4-5-1-0 placing or
/// moving. Nearly all its time goes to reading children: every placement leads outside the
/// unit (into 5-5-0-0), as in almost every Lasker unit with pieces in hand.
fn solve_lasker_4_5_1_0(c: &mut Criterion) {
    let target: Sector = "4-5-1-0".parse().unwrap();
    let twin: Sector = "5-4-0-1".parse().unwrap();
    let (db, last) = with_dependencies("lasker", "bench-solve-lasker-4-5-1-0", target);
    assert_eq!(last.sectors, vec![target, twin]);
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    group.throughput(Throughput::Elements(
        last.sectors.iter().map(|&s| db.index(s).size()).sum(),
    ));
    group.bench_function("lasker-4-5-1-0-with-5-4-0-1", |b| {
        b.iter(|| {
            solve_unit(&db, &last, &Silent).unwrap();
            let counts = |s| {
                let stats = db.sector(s).unwrap().stats();
                (stats.win, stats.loss, stats.draw)
            };
            // Canonical win/loss/draw, proved by `morris verify` of the whole 4-5-1-0 solve.
            assert_eq!(counts(target), (21500, 13, 10_288_983));
            assert_eq!(counts(twin), (124, 1970, 10_308_402));
        })
    });
    group.finish();
}

criterion_group!(benches, index, solve_4_4, solve_3_5, solve_lasker_4_5_1_0);
criterion_main!(benches);
