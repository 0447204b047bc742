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
