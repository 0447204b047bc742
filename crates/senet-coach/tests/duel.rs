//! The duplicate-match machinery (moved from `crates/senet-bots/tests/bots.rs`): pairs share
//! their throws with the seats swapped, a bot against itself scores exactly half, and results
//! do not depend on the number of threads.

use senet_bots::analysis::first_player_luck as first_player_luck_of_throw;
use senet_coach::duel::{
    first_player_luck_parts, play_game, play_pair, run_match, run_match_with_luck, MatchConfig,
    MatchResult,
};
use senet_rules::{AnyGame, Game, RuleSet, Status};

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

/// Positions awaiting a throw from a game of `greedy` against `random`.
fn throw_positions(rules: RuleSet, seed: u64) -> Vec<AnyGame> {
    let start = AnyGame::new(rules, &[] as &[&str]).unwrap();
    let (mut a, mut b) = (
        "greedy".parse::<senet_bots::BotSpec>().unwrap().build(),
        "random".parse::<senet_bots::BotSpec>().unwrap().build(),
    );
    let game = play_game(&start, [a.as_mut(), b.as_mut()], seed, seed + 1, true);
    let mut out = Vec::new();
    let mut g = start;
    let (mut t, mut m) = (game.throws.iter(), game.moves.iter());
    loop {
        match g.status() {
            Status::Throw(_) => {
                out.push(g);
                g.set_throw_unchecked(*t.next().unwrap());
            }
            Status::Move(_) => {
                g.play_unchecked(*m.next().unwrap());
            }
            Status::Over(_) => return out,
        }
    }
}

#[test]
fn a_throws_luck_averages_zero_over_the_throws_whatever_the_judge() {
    // What makes the luck-adjusted score unbiased: at every position, the luck of each
    // possible throw, weighted by its chance, sums to zero, for a weak judge as for a strong
    // one, and it is not zero throw by throw.
    for rules in [RuleSet::Kendall5, RuleSet::Senat, RuleSet::Pyramid] {
        for judge in ["greedy", "expectimax:1"] {
            let mut bot = judge.parse::<senet_bots::BotSpec>().unwrap().build();
            let mut largest: f64 = 0.0;
            for g in throw_positions(rules, 7).iter().step_by(7) {
                let dist = g.throw_dist();
                let mut mean = 0.0;
                for &(t, w) in dist.outcomes {
                    let luck = first_player_luck_of_throw(bot.as_mut(), g, t);
                    largest = largest.max(luck.abs());
                    mean += f64::from(w) / f64::from(dist.total) * luck;
                }
                assert!(mean.abs() < 1e-12, "{rules:?} {judge}: mean luck {mean}");
            }
            assert!(largest > 0.05, "{rules:?} {judge}: largest luck {largest}");
        }
    }
}

#[test]
fn a_bot_against_itself_scores_exactly_half_with_the_luck_taken_out() {
    // Both games of a pair are the same game with the seats swapped: what one seat's luck
    // adds, the other's takes away.
    let start = AnyGame::new(RuleSet::Senat, &[] as &[&str]).unwrap();
    let cfg = MatchConfig {
        start,
        a: "greedy".parse().unwrap(),
        b: "greedy".parse().unwrap(),
        pairs: 6,
        seed: 4,
        threads: 2,
    };
    let judge = "expectimax:1".parse().unwrap();
    let r = run_match_with_luck(&cfg, Some(&judge), &|| {}).unwrap();
    let l = r.luck.expect("the luck was measured");
    assert_eq!(l.judge, "expectimax:1");
    assert!((l.a_rate - 0.5).abs() < 1e-12, "{}", l.a_rate);
    assert!(l.ci95.1 - l.ci95.0 < 1e-9, "{:?}", l.ci95);
    assert!(r.pairs.iter().flatten().all(|g| g.first_luck.is_some()));
}

#[test]
fn taking_the_luck_out_changes_no_game_and_narrows_the_interval() {
    let start = AnyGame::new(RuleSet::Kendall5, &[] as &[&str]).unwrap();
    let mk = |threads| MatchConfig {
        start,
        a: "greedy".parse().unwrap(),
        b: "random".parse().unwrap(),
        pairs: 60,
        seed: 11,
        threads,
    };
    let judge = "expectimax:1".parse().unwrap();
    let plain = run_match(&mk(2), &|| {}).unwrap();
    let one = run_match_with_luck(&mk(1), Some(&judge), &|| {}).unwrap();
    let two = run_match_with_luck(&mk(2), Some(&judge), &|| {}).unwrap();
    assert!(plain.luck.is_none());
    let games = |r: &MatchResult| {
        r.pairs
            .iter()
            .flatten()
            .map(|g| (g.winner, g.moves.clone(), g.throws.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(games(&plain), games(&one), "the judge changed the games");
    assert_eq!(plain.a_rate, one.a_rate);
    let (l1, l2) = (one.luck.unwrap(), two.luck.unwrap());
    assert_eq!(l1.a_rate, l2.a_rate, "the threads changed the luck");
    // The same quantity, measured twice: the adjusted score lies within the raw interval,
    // and its own interval is less than half as wide.
    assert!(plain.ci95.0 < l1.a_rate && l1.a_rate < plain.ci95.1);
    let (raw, adjusted) = (plain.ci95.1 - plain.ci95.0, l1.ci95.1 - l1.ci95.0);
    assert!(adjusted < raw / 2.0, "raw {raw}, adjusted {adjusted}");
}

#[test]
fn p3_the_dice_off_is_the_opening_luck_which_the_first_movers_luck_leaves_out() {
    // P3: in parker a dice-off decides who starts. Its luck is who moves first, so `senet
    // lab`, which measures the side that moves first, leaves it out: it is the part of the
    // first player's luck called the opening luck, the first throw's alone. Rule sets
    // without a dice-off have none.
    let judge_spec = "expectimax:1".parse().unwrap();
    for (rules, dice_off) in [(RuleSet::Parker, true), (RuleSet::Kendall5, false)] {
        let start = AnyGame::new(rules, &[] as &[&str]).unwrap();
        let cfg = MatchConfig {
            start,
            a: "greedy".parse().unwrap(),
            b: "random".parse().unwrap(),
            pairs: 3,
            seed: 8,
            threads: 2,
        };
        let r = run_match_with_luck(&cfg, Some(&judge_spec), &|| {}).unwrap();
        let mut judge = judge_spec.build();
        for g in r.pairs.iter().flatten() {
            let (opening, play) = first_player_luck_parts(&start, g, judge.as_mut());
            assert_eq!(g.opening_luck, Some(opening));
            assert_eq!(g.first_luck, Some(opening + play));
            if dice_off {
                let first = first_player_luck_of_throw(judge.as_mut(), &start, g.throws[0]);
                assert_eq!(opening, first, "{rules:?}: the dice-off's luck alone");
                assert!(
                    opening.abs() > 1e-4,
                    "{rules:?}: moving first is worth something"
                );
            } else {
                assert_eq!(opening, 0.0, "{rules:?} has no dice-off");
            }
        }
    }
}

#[test]
fn a_luck_judge_that_does_not_value_by_win_chance_is_refused() {
    let start = AnyGame::new(RuleSet::Kendall5, &[] as &[&str]).unwrap();
    let cfg = MatchConfig {
        start,
        a: "greedy".parse().unwrap(),
        b: "random".parse().unwrap(),
        pairs: 2,
        seed: 1,
        threads: 1,
    };
    let judge = "random".parse().unwrap();
    let err = run_match_with_luck(&cfg, Some(&judge), &|| {}).unwrap_err();
    assert!(
        err.contains("win chance") && err.contains("random"),
        "{err}"
    );
}
