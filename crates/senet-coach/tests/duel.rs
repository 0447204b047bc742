//! The duplicate-match machinery (moved from `crates/senet-bots/tests/bots.rs`): pairs share
//! their throws with the seats swapped, a bot against itself scores exactly half, and results
//! do not depend on the number of threads.

use senet_coach::duel::{play_pair, run_match, MatchConfig};
use senet_rules::{AnyGame, RuleSet};

#[test]
fn duplicate_pairs_share_throws_and_swap_seats() {
    let start = AnyGame::new(RuleSet::Kendall5, &[] as &[&str]).unwrap();
    let cfg = MatchConfig {
        start,
        a: "greedy".parse().unwrap(),
        b: "random".parse().unwrap(),
        pairs: 4,
        seed: 9,
        threads: 1,
    };
    for i in 0..4 {
        let (mut a, mut b) = (cfg.a.build(), cfg.b.build());
        let [g1, g2] = play_pair(&cfg, i, a.as_mut(), b.as_mut());
        assert!(g1.a_first && !g2.a_first);
        let k = g1.throws.len().min(g2.throws.len());
        assert!(k > 20);
        assert_eq!(g1.throws[..k], g2.throws[..k], "pair {i}: throws differ");
    }
}

#[test]
fn a_bot_against_itself_scores_exactly_half_in_duplicate_pairs() {
    // The same deterministic bot on both seats with the same throws plays the same game
    // twice with the seats swapped: each pair is one win each.
    let start = AnyGame::new(RuleSet::Kendall5, &[] as &[&str]).unwrap();
    let cfg = MatchConfig {
        start,
        a: "greedy".parse().unwrap(),
        b: "greedy".parse().unwrap(),
        pairs: 20,
        seed: 3,
        threads: 2,
    };
    let r = run_match(&cfg, &|| {}).unwrap();
    assert_eq!(r.a_rate, 0.5);
    assert_eq!(r.ci95, (0.5, 0.5));
    assert_eq!(r.a_wins + r.b_wins + r.draws, 40);
}

#[test]
fn match_results_do_not_depend_on_the_threads() {
    let start = AnyGame::new(RuleSet::Kendall, &[] as &[&str]).unwrap();
    let mk = |threads| MatchConfig {
        start,
        a: "expectimax:1".parse().unwrap(),
        b: "random".parse().unwrap(),
        pairs: 6,
        seed: 5,
        threads,
    };
    let count = std::sync::atomic::AtomicU32::new(0);
    let one = run_match(&mk(1), &|| {
        count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    })
    .unwrap();
    let two = run_match(&mk(2), &|| {}).unwrap();
    assert_eq!(count.into_inner(), 6, "progress is called once per pair");
    let strip = |r: &senet_coach::duel::MatchResult| {
        r.pairs
            .iter()
            .flat_map(|p| p.iter().map(|g| (g.winner, g.decisions, g.throws.clone())))
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&one), strip(&two));
    assert_eq!(one.a_rate, two.a_rate);
}
