//! The N-move rule's analysis (`morris::nmove`) of one work unit against the solve of the same
//! unit: nine's flying unit 3-5-0-0 with 5-3-0-0, its dependencies analysed once beforehand.

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use morris::nmove::{Keep, RuleAnalysis, RuleValue};
use morris::solve::{solve, solve_unit};
use morris::space::{plan, Sector};
use morris::store::Database;
use morris::{Silent, Variant};

fn analyse_3_5(c: &mut Criterion) {
    let v = Variant::by_name("nine").unwrap();
    let target: Sector = "3-5-0-0".parse().unwrap();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bench-nmove-3-5");
    let _ = std::fs::remove_dir_all(&dir);
    let db = Database::new(&dir, &v).unwrap();
    let units = plan(&v, &[target]);
    for u in &units {
        solve(&db, &u.sectors, &Silent).unwrap();
    }
    let last = units.last().unwrap().clone();
    let before: Vec<Sector> = units[..units.len() - 1]
        .iter()
        .flat_map(|u| u.sectors.clone())
        .collect();
    let mut group = c.benchmark_group("nmove");
    group.sample_size(10);
    group.throughput(Throughput::Elements(
        last.sectors.iter().map(|&s| db.index(s).size()).sum(),
    ));
    group.bench_function("analyse-nine-3-5-0-0-with-5-3-0-0", |b| {
        b.iter_batched(
            || RuleAnalysis::run(&db, 100, &before, Keep::Counts, &Silent).unwrap(),
            |mut analysis| {
                analysis
                    .extend(&db, &[target], Keep::Counts, &Silent)
                    .unwrap();
                let counts = analysis.counts(target).unwrap();
                // Every win of 3-5-0-0 takes fewer than 100 quiet plies (its deepest is 31).
                assert_eq!(counts.of(RuleValue::CursedWin), 0);
                assert_eq!(counts.of(RuleValue::Win), 6301);
            },
            criterion::BatchSize::LargeInput,
        )
    });
    group.bench_function("solve-nine-3-5-0-0-with-5-3-0-0", |b| {
        b.iter(|| solve_unit(&db, &last, &Silent).unwrap())
    });
    group.finish();
}

criterion_group!(benches, analyse_3_5);
criterion_main!(benches);
