//! Criterion benchmarks per rule set: uniformly random playouts and move generation. Each
//! first checks a known result (`conformance::PLAYOUT_CHECK`, the decisions of 100 seeded
//! games; the move counts of a fixed corpus) and only then times.
//!
//! Run one with `cargo bench -p senet-rules --bench playouts`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use senet_rules::conformance::{corpus, playout_check, SplitMix, PLAYOUT_CHECK};
use senet_rules::{random_playout, with_game, AnyGame, Game, MoveList, RuleSet};
use std::hint::black_box;

fn start(rules: RuleSet) -> AnyGame {
    AnyGame::new(rules, &[] as &[&str]).expect("default options are valid")
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_playout");
    for &rules in RuleSet::ALL {
        let start = start(rules);
        let want = PLAYOUT_CHECK
            .iter()
            .find(|(id, _)| *id == rules.id())
            .map(|(_, n)| *n);
        let got = with_game!(&start, g => playout_check(g));
        assert_eq!(Some(got), want, "{rules}: the seeded playouts changed");
        group.throughput(Throughput::Elements(1));
        group.bench_function(BenchmarkId::from_parameter(rules.id()), |b| {
            let mut rng = SplitMix(7);
            with_game!(&start, g => b.iter(|| {
                let mut x = *g;
                black_box(random_playout(&mut x, || rng.next_u32()))
            }))
        });
    }
    group.finish();
}

fn movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves");
    for &rules in RuleSet::ALL {
        let start = start(rules);
        let corpus: Vec<AnyGame> = with_game!(&start, g => corpus(g, 3, 2000, false).into_iter().map(AnyGame::from).collect());
        let count = |gs: &[AnyGame]| -> usize {
            gs.iter()
                .map(|g| {
                    let mut m = MoveList::new();
                    g.legal_moves(&mut m);
                    m.len()
                })
                .sum()
        };
        let expected = count(&corpus);
        assert!(
            expected >= corpus.len(),
            "{rules}: every position has a move"
        );
        group.throughput(Throughput::Elements(corpus.len() as u64));
        group.bench_function(BenchmarkId::from_parameter(rules.id()), |b| {
            b.iter(|| {
                let n = count(black_box(&corpus));
                assert_eq!(n, expected);
                n
            })
        });
    }
    group.finish();
}

criterion_group!(benches, playouts, movegen);
criterion_main!(benches);
