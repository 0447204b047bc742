//! The pruned search (Star1, Star2, ordering, cache) gives the same values as plain
//! expectimax, and the fast evaluator agrees with its feature vector.

use senet_bots::search::{SearchOptions, Searcher};
use senet_bots::weights;
use senet_rules::conformance::corpus;
use senet_rules::{AnyGame, Game, Kendall5, Player, RuleSet};

fn kendall5() -> Kendall5 {
    match AnyGame::new(RuleSet::Kendall5, &[] as &[&str]).unwrap() {
        AnyGame::Kendall5(g) => g,
        _ => unreachable!(),
    }
}

#[test]
fn pruned_search_equals_plain_expectimax() {
    let e = &weights::KENDALL5;
    for depth in 0..=2 {
        let mut pruned = Searcher::new(10);
        let mut plain = Searcher::new(0);
        let (mut na, mut nb) = (0, 0);
        for g in corpus(&kendall5(), 7, 40, false) {
            let a = pruned.search(&g, e, &SearchOptions::new(depth));
            let b = plain.search(&g, e, &SearchOptions::plain(depth));
            for (x, y) in a.values.iter().zip(&b.values) {
                assert_eq!(x.0, y.0);
                assert!((x.1 - y.1).abs() < 1e-9, "{depth} {g:?} {x:?} {y:?}");
            }
            // The best value is the same (of equal moves, either may be chosen).
            assert!((a.values[a.best].1 - b.values[b.best].1).abs() < 1e-9);
            na += a.nodes;
            nb += b.nodes;
        }
        eprintln!("depth {depth}: {na} nodes pruned, {nb} plain");
    }
}

#[test]
fn play_mode_chooses_the_same_move_with_bounds_for_the_others() {
    let e = &weights::KENDALL5;
    let mut s = Searcher::new(10);
    for depth in 1..=2 {
        for g in corpus(&kendall5(), 5, 60, false) {
            let exact = s.search(&g, e, &SearchOptions::new(depth));
            let fast = s.search(
                &g,
                e,
                &SearchOptions {
                    exact_root: false,
                    ..SearchOptions::new(depth)
                },
            );
            assert_eq!(exact.best, fast.best, "{g:?}");
            let mine = |v: f64| {
                if g.status().player() == Some(Player::First) {
                    v
                } else {
                    1.0 - v
                }
            };
            let best = mine(fast.values[fast.best].1);
            assert!((best - mine(exact.values[exact.best].1)).abs() < 1e-9);
            for (x, y) in exact.values.iter().zip(&fast.values) {
                // The bound is at least the true value and at most the best.
                assert!(mine(x.1) <= mine(y.1) + 1e-9, "{g:?} {x:?} {y:?}");
                assert!(mine(y.1) <= best + 1e-9);
            }
        }
    }
}

#[test]
fn fast_track_value_equals_the_feature_dot_product() {
    let e = &weights::KENDALL5;
    for g in corpus(&kendall5(), 3, 300, true) {
        for p in Player::BOTH {
            let a = e.value(g.men(), p);
            let b = e.value_of(&e.spec.features(g.men(), p));
            assert!((a - b).abs() < 1e-12, "{a} {b}");
        }
    }
}

#[test]
fn pruned_search_equals_plain_expectimax_on_every_rule_set() {
    use senet_bots::{dispatch, EvalKind};
    use senet_rules::with_game;
    for &r in RuleSet::ALL {
        let start = AnyGame::new(r, &[] as &[&str]).unwrap();
        let positions: Vec<AnyGame> = with_game!(&start, g => corpus(g, 5, 12, false).into_iter().map(AnyGame::from).collect());
        for g in &positions {
            for depth in 0..=1 {
                let (a, b) = dispatch!(g, EvalKind::Tuned, gg, e => {
                    let a = Searcher::new(10).search(gg, e, &SearchOptions::new(depth));
                    let b = Searcher::new(0).search(gg, e, &SearchOptions::plain(depth));
                    (a, b)
                });
                for (x, y) in a.values.iter().zip(&b.values) {
                    assert!(
                        (x.1 - y.1).abs() < 1e-9,
                        "{r} depth {depth} {g}: {x:?} {y:?}"
                    );
                }
            }
        }
    }
}

/// In the two-dice rule sets the search skips a position reached twice within a turn at
/// depth 0 (die a then die b, and b then a): the values and the chosen move are exactly those
/// without the skipping, in both root modes, and those of plain expectimax.
#[test]
fn turn_dedup_changes_no_value_in_two_dice_rule_sets() {
    use senet_bots::{dispatch, EvalKind};
    use senet_rules::with_game;
    for r in [RuleSet::Parker, RuleSet::Pyramid] {
        let start = AnyGame::new(r, &[] as &[&str]).unwrap();
        let positions: Vec<AnyGame> = with_game!(&start, g => corpus(g, 11, 16, false).into_iter().map(AnyGame::from).collect());
        let (mut with, mut without) = (0, 0);
        for g in &positions {
            for depth in 0..=2 {
                for exact_root in [true, false] {
                    let opt = SearchOptions {
                        exact_root,
                        ..SearchOptions::new(depth)
                    };
                    let off = SearchOptions {
                        dedup: false,
                        ..opt
                    };
                    let (a, b) = dispatch!(g, EvalKind::Tuned, gg, e => {
                        (Searcher::new(10).search(gg, e, &opt), Searcher::new(10).search(gg, e, &off))
                    });
                    assert_eq!(a.best, b.best, "{r} depth {depth} {g}");
                    for (x, y) in a.values.iter().zip(&b.values) {
                        assert_eq!(x.0, y.0);
                        assert_eq!(x.1.to_bits(), y.1.to_bits(), "{r} depth {depth} {g}");
                    }
                    with += a.nodes;
                    without += b.nodes;
                }
            }
            // And against plain expectimax where that is affordable.
            let (a, b) = dispatch!(g, EvalKind::Tuned, gg, e => {
                (Searcher::new(10).search(gg, e, &SearchOptions::new(1)),
                 Searcher::new(0).search(gg, e, &SearchOptions::plain(1)))
            });
            for (x, y) in a.values.iter().zip(&b.values) {
                assert!((x.1 - y.1).abs() < 1e-9, "{r} {g}: {x:?} {y:?}");
            }
        }
        assert!(
            with < without,
            "{r}: {with} nodes with dedup, {without} without"
        );
        eprintln!("{r}: {with} nodes with dedup, {without} without");
    }
}

/// Iterative deepening within a node budget (issue 18): a budget that fits gives exactly the
/// fixed-depth search's values; a small one stops at the deepest iteration that completed;
/// the nodes spent stay near the budget; the same budget always gives the same answer.
#[test]
fn a_node_budget_keeps_the_deepest_completed_iteration() {
    let e = &weights::KENDALL5;
    let mut s = Searcher::new(13);
    let mut shallower = 0;
    for g in corpus(&kendall5(), 11, 40, false) {
        let fixed = s.search(&g, e, &SearchOptions::new(3));
        let ample = s.search(
            &g,
            e,
            &SearchOptions {
                budget: Some(100_000_000),
                ..SearchOptions::new(3)
            },
        );
        assert_eq!(ample.depth, 3);
        for (x, y) in ample.values.iter().zip(&fixed.values) {
            assert_eq!(x.0, y.0);
            assert!((x.1 - y.1).abs() < 1e-9, "{g:?} {x:?} {y:?}");
        }
        for budget in [1, 50, 500, 5_000] {
            let opt = SearchOptions {
                budget: Some(budget),
                ..SearchOptions::new(4)
            };
            let r = s.search(&g, e, &opt);
            // The answer is that of a whole search of the depth reached.
            let whole = s.search(&g, e, &SearchOptions::new(r.depth));
            assert!((r.values[r.best].1 - whole.values[whole.best].1).abs() < 1e-9);
            assert_eq!(r.values[r.best].0, whole.values[whole.best].0);
            // Depth 0 always completes; beyond it the budget is kept up to the unwinding
            // of the aborted iteration.
            let depth0 = s.search(&g, e, &SearchOptions::new(0)).nodes;
            assert!(
                r.nodes <= budget.max(depth0) + depth0 + 200,
                "{budget}: {}",
                r.nodes
            );
            let again = s.search(&g, e, &opt);
            assert_eq!(
                (again.best, again.nodes, again.depth),
                (r.best, r.nodes, r.depth)
            );
            if r.depth < 3 {
                shallower += 1;
            }
        }
    }
    assert!(
        shallower > 40,
        "the small budgets should stop early: {shallower}"
    );
}
