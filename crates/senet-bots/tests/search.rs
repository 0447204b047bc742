//! The pruned search (Star1, Star2, ordering, cache) gives the same values and best move as
//! plain expectimax.

use senet_bots::search::{SearchOptions, Searcher};
use senet_bots::weights;
use senet_rules::conformance::corpus;
use senet_rules::{AnyGame, Kendall5, RuleSet};

#[test]
fn pruned_search_equals_plain_expectimax_kendall5() {
    let s: Kendall5 = match AnyGame::new(RuleSet::Kendall5, &[] as &[&str]).unwrap() {
        AnyGame::Kendall5(g) => g,
        _ => unreachable!(),
    };
    let e = &weights::KENDALL5;
    for depth in 0..=2 {
        let mut pruned = Searcher::new(14);
        let mut plain = Searcher::new(0);
        let (mut na, mut nb) = (0, 0);
        for g in corpus(&s, 7, 40, false) {
            let a = pruned.search(&g, e, &SearchOptions::new(depth));
            let b = plain.search(&g, e, &SearchOptions::plain(depth));
            assert_eq!(a.best, b.best, "{depth} {g:?}");
            for (x, y) in a.values.iter().zip(&b.values) {
                assert!((x.1 - y.1).abs() < 1e-9, "{depth} {g:?} {x:?} {y:?}");
            }
            na += a.nodes;
            nb += b.nodes;
        }
        assert!(na <= nb, "depth {depth}: {na} nodes pruned > {nb} plain");
        eprintln!("depth {depth}: {na} nodes pruned, {nb} plain");
    }
}

#[test]
fn fast_track_value_equals_the_feature_dot_product() {
    let s: Kendall5 = match AnyGame::new(RuleSet::Kendall5, &[] as &[&str]).unwrap() {
        AnyGame::Kendall5(g) => g,
        _ => unreachable!(),
    };
    let e = &weights::KENDALL5;
    for g in corpus(&s, 3, 300, true) {
        for p in senet_rules::Player::BOTH {
            let a = e.value(g.men(), p);
            let b = e.value_of(&e.spec.features(g.men(), p));
            assert!((a - b).abs() < 1e-12, "{a} {b}");
        }
    }
}
