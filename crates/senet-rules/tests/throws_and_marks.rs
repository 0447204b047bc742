//! What front-ends draw without guessing (issue 17): the kind of every rule set's throws and a
//! short mark for every special square.

use senet_rules::View;
use senet_rules::{AnyGame, Game, RuleSet, ThrowKind};

fn start(r: RuleSet, options: &[&str]) -> AnyGame {
    AnyGame::new(r, options).unwrap()
}

#[test]
fn every_rule_set_says_what_its_throws_are_made_with() {
    use ThrowKind::*;
    for (r, options, kind) in [
        (RuleSet::Kendall, &[][..], Sticks),
        (RuleSet::Kendall5, &[], Sticks),
        (RuleSet::Houses, &[], Sticks),
        (RuleSet::Houses, &["six_sticks=true"], Sticks),
        (RuleSet::Senat, &[], Sticks),
        (RuleSet::Senat, &["die=true"], Die),
        (RuleSet::Parker, &[], DrawForStart),
        (RuleSet::Pyramid, &[], Die),
    ] {
        assert_eq!(
            start(r, options).throw_dist().kind,
            kind,
            "{r:?} {options:?}"
        );
    }
    // After parker's dice-off and pyramid's opening die, two dice.
    for r in [RuleSet::Parker, RuleSet::Pyramid] {
        let mut g = start(r, &[]);
        g.set_throw(g.throw_dist().outcomes[0].0).unwrap();
        while !matches!(g.status(), senet_rules::Status::Throw(_)) {
            let mut ms = senet_rules::MoveList::new();
            g.legal_moves(&mut ms);
            g.play(ms[0]).unwrap();
        }
        assert_eq!(g.throw_dist().kind, ThrowKind::Dice, "{r:?}");
    }
}

#[test]
fn every_special_square_has_a_short_mark() {
    for &r in RuleSet::ALL {
        let v = start(r, &[]).view();
        let special: Vec<_> = v.cells.iter().filter(|c| c.special.is_some()).collect();
        assert!(!special.is_empty(), "{r:?}");
        for c in special {
            let m = c
                .mark
                .unwrap_or_else(|| panic!("{r:?} {}: no mark", c.label));
            assert!(
                !m.is_empty() && m.chars().count() <= 8,
                "{r:?} {}: {m}",
                c.label
            );
        }
        assert!(v
            .cells
            .iter()
            .all(|c| c.mark.is_none() || c.special.is_some()));
    }
}

/// The example moves the terminal's help shows are written as the rule set writes its moves:
/// each one (but `pass`) is played in some seeded random game of that rule set.
#[test]
fn every_rule_sets_example_moves_are_moves_it_plays() {
    use senet_rules::{MoveList, Notation, Status};
    for &r in RuleSet::ALL {
        let examples = start(r, &[]).example_moves();
        let mut seen = std::collections::HashSet::new();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 32) as u32
        };
        for _ in 0..300 {
            let mut g = start(r, &[]);
            let mut ms = MoveList::new();
            loop {
                match g.status() {
                    Status::Over(_) => break,
                    Status::Throw(_) => {
                        let t = g.throw_dist().sample(next());
                        g.set_throw_unchecked(t);
                    }
                    Status::Move(_) => {
                        ms.clear();
                        g.legal_moves(&mut ms);
                        let m = ms[next() as usize % ms.len()];
                        seen.insert(g.move_string(m));
                        g.play_unchecked(m);
                    }
                }
            }
        }
        for e in examples.split(", ").filter(|e| *e != "pass") {
            assert!(seen.contains(e), "{r:?}: {e} is not a move it plays");
        }
    }
}
