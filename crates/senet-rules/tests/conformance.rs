//! The conformance suite (see `senet_rules::conformance`), run against every rule set with
//! every combination of its on/off options, and the turn cap (C5) checked for each.

use senet_rules::conformance::check_games;
use senet_rules::{with_game, AnyGame, Game, OptionKind, RuleSet, Status};
use senet_rules::{Metrics, Notation, View};

/// Every combination of a rule set's flag options, as NAME=VALUE lists.
fn option_combos(rules: RuleSet) -> Vec<Vec<String>> {
    let flags: Vec<&str> = rules
        .option_specs()
        .iter()
        .filter(|o| matches!(o.kind, OptionKind::Bool { .. }))
        .map(|o| o.name)
        .collect();
    (0..1u32 << flags.len())
        .map(|bits| {
            flags
                .iter()
                .enumerate()
                .map(|(i, f)| format!("{f}={}", bits >> i & 1 == 1))
                .collect()
        })
        .collect()
}

#[test]
fn every_rule_set_passes_the_conformance_suite() {
    let games = if cfg!(debug_assertions) { 40 } else { 400 };
    for &rules in RuleSet::ALL {
        for opts in option_combos(rules) {
            let start = AnyGame::new(rules, &opts).unwrap();
            let n = with_game!(&start, g => check_games(g, 1, games))
                .unwrap_or_else(|e| panic!("{rules} {opts:?}: {e}"));
            assert!(n > games, "{rules}: games too short ({n} decisions)");
            // The same checks on games the turn cap ends (C5).
            let mut capped = opts.clone();
            capped.push("cap=25".into());
            let start = AnyGame::new(rules, &capped).unwrap();
            with_game!(&start, g => check_games(g, 1, 20))
                .unwrap_or_else(|e| panic!("{rules} {capped:?}: {e}"));
        }
    }
}

#[test]
fn c5_every_rule_set_ends_in_a_draw_at_the_cap() {
    for &rules in RuleSet::ALL {
        for cap in [1u32, 7, 30] {
            for seed in 0..20 {
                let start = AnyGame::new(rules, &[format!("cap={cap}")]).unwrap();
                let mut g = start;
                let mut rng = senet_rules::conformance::SplitMix(seed);
                let n = senet_rules::random_playout(&mut g, || rng.next_u32());
                let Status::Over(o) = g.status() else {
                    panic!("not over")
                };
                assert!(n <= cap, "{rules}: {n} decisions past the cap {cap}");
                if o.capped {
                    assert_eq!(n, cap, "{rules}: capped early");
                    assert_eq!(o.winner, None, "{rules}: a capped game is a draw");
                } else {
                    assert!(o.winner.is_some() || o.score.is_some());
                }
            }
        }
    }
}

#[test]
fn seeded_playouts_give_the_known_decision_counts() {
    use senet_rules::conformance::{playout_check, PLAYOUT_CHECK};
    for &rules in RuleSet::ALL {
        let start = AnyGame::new(rules, &[] as &[&str]).unwrap();
        let got = with_game!(&start, g => playout_check(g));
        let want = PLAYOUT_CHECK
            .iter()
            .find(|(id, _)| *id == rules.id())
            .map(|(_, n)| *n);
        assert_eq!(
            Some(got),
            want,
            "{rules}: update PLAYOUT_CHECK only for an intended rules change"
        );
    }
}

#[test]
fn progress_agrees_with_the_board_view() {
    // The rule sets' fast progress must equal the default computed from `view()`.
    for &rules in RuleSet::ALL {
        let start = AnyGame::new(rules, &[] as &[&str]).unwrap();
        let positions: Vec<AnyGame> = with_game!(&start, g => senet_rules::conformance::corpus(g, 7, 300, true)
            .into_iter().map(AnyGame::from).collect());
        for g in positions {
            let v = g.view();
            if v.path != senet_rules::track::PATH {
                continue; // not the common 30-square track
            }
            let mut p = [0u32; 2];
            for c in &v.cells {
                for piece in &c.pieces {
                    p[(piece.player - 1) as usize] += c.square as u32;
                }
            }
            for (pi, off) in p.iter_mut().zip(v.off) {
                *pi += 31 * off as u32;
            }
            assert_eq!(g.progress(), p, "{}", g.position());
        }
    }
}
