//! Forward and backward move generation throughput on fixed positions of nine, and counting
//! moves one by one against population counts.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use morris::rules::perft;
use morris::rules::{for_each_move, for_each_unmove, generate, play, split_moves};
use morris::{Position, Variant};

/// Positions from a fixed pseudo-random playout, so every run measures the same work.
fn sample_positions(v: &Variant, count: usize) -> Vec<Position> {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut pos = Position::start(v);
        for _ in 0..40 {
            let moves = generate(v, &pos);
            if moves.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            pos = play(&pos, moves[(seed % moves.len() as u64) as usize]);
            out.push(pos);
        }
    }
    out.truncate(count);
    out
}

fn bench(c: &mut Criterion) {
    let v = Variant::by_name("nine").unwrap();
    let positions = sample_positions(&v, 4096);
    let mut forward_count = 0u64;
    let mut backward_count = 0u64;
    for p in &positions {
        for_each_move(&v, p, |_| forward_count += 1);
        for_each_unmove(&v, p, |_, _| backward_count += 1);
    }
    assert!(forward_count > 10 * positions.len() as u64);
    assert!(backward_count > 0);

    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(forward_count));
    group.bench_function("forward/nine", |b| {
        b.iter(|| {
            let mut n = 0u64;
            for p in &positions {
                for_each_move(&v, black_box(p), |m| n += m.to().index() as u64 + 1);
            }
            n
        })
    });
    // Counting the moves, as the solver's children pass does for those that close no mill:
    // one at a time, against population counts with only the mill-closing moves enumerated.
    let mut split = 0u64;
    for p in &positions {
        let mut closing = 0u64;
        split += split_moves(&v, p, |_| closing += 1).count() as u64 + closing;
    }
    assert_eq!(split, forward_count, "the split counts every move once");
    group.bench_function("count/one-by-one/nine", |b| {
        b.iter(|| {
            let mut n = 0u64;
            for p in &positions {
                for_each_move(&v, black_box(p), |_| n += 1);
            }
            n
        })
    });
    group.bench_function("count/split/nine", |b| {
        b.iter(|| {
            let (mut plain, mut closing) = (0u64, 0u64);
            for p in &positions {
                plain += split_moves(&v, black_box(p), |_| closing += 1).count() as u64;
            }
            plain + closing
        })
    });
    group.throughput(Throughput::Elements(backward_count));
    group.bench_function("backward/nine", |b| {
        b.iter(|| {
            let mut n = 0u64;
            for p in &positions {
                for_each_unmove(&v, black_box(p), |q, _| n += q.mover.bits() as u64 & 1);
            }
            n
        })
    });
    group.finish();
    c.bench_function("perft/nine/depth4", |b| {
        b.iter(|| {
            let n = perft(&v, &Position::start(&v), black_box(4));
            assert_eq!(n, 255_024);
            n
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
