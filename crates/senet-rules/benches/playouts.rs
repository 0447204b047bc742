//! Random playouts per rule set. Each benchmark first checks a known result: the total number
//! of decisions of the first 100 games from seed 1 (a regression value), then times games.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::{RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;
use senet_rules::{random_playout, with_game, AnyGame, Game, MoveList, RuleSet};
use std::hint::black_box;

fn games<G: Game>(start: &G, rng: &mut Pcg64Mcg, n: u32) -> u64 {
    let mut total = 0;
    for _ in 0..n {
        let mut g = *start;
        total += random_playout(&mut g, || rng.next_u32()) as u64;
    }
    total
}

fn known(rules: RuleSet) -> u64 {
    match rules {
        RuleSet::Kendall => 19782,
        RuleSet::Kendall5 => 17761,
        RuleSet::Senat => 18672,
        RuleSet::Houses => 19617,
    }
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_playout");
    for &rules in RuleSet::ALL {
        let start = AnyGame::new(rules, &[] as &[&str]).unwrap();
        let check = with_game!(&start, g => games(g, &mut Pcg64Mcg::seed_from_u64(1), 100));
        assert_eq!(
            check,
            known(rules),
            "{rules}: decisions of 100 seeded games changed"
        );
        group.throughput(Throughput::Elements(1));
        group.bench_function(BenchmarkId::from_parameter(rules.id()), |b| {
            let mut rng = Pcg64Mcg::seed_from_u64(7);
            with_game!(&start, g => b.iter(|| black_box(games(g, &mut rng, 1))))
        });
    }
    group.finish();
}

fn movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves");
    for &rules in RuleSet::ALL {
        // A corpus of positions with a throw in hand, from seeded random games.
        let start = AnyGame::new(rules, &[] as &[&str]).unwrap();
        let corpus = with_game!(&start, g => senet_rules::conformance::corpus(g, 3, 2000, false).into_iter().map(|p| AnyGame::from(p)).collect::<Vec<_>>());
        let expected: usize = corpus
            .iter()
            .map(|g| {
                let mut m = MoveList::new();
                g.legal_moves(&mut m);
                m.len()
            })
            .sum();
        group.throughput(Throughput::Elements(corpus.len() as u64));
        group.bench_function(BenchmarkId::from_parameter(rules.id()), |b| {
            b.iter(|| {
                let mut n = 0;
                for g in &corpus {
                    let mut m = MoveList::new();
                    g.legal_moves(&mut m);
                    n += m.len();
                }
                assert_eq!(n, expected);
                n
            })
        });
    }
    group.finish();
}

criterion_group!(benches, playouts, movegen);
criterion_main!(benches);
