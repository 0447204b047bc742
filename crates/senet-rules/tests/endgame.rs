//! The endgame constructors of the stick rule sets (what the exact solver of `senet-bots`
//! enumerates): valid masks give a throw-pending position past the opening, equal to the
//! parsed position string; invalid masks are refused with the ruling that forbids them.

use senet_rules::Notation;
use senet_rules::{AnyGame, Game, Player, RuleSet, Status};

fn bit(s: u32) -> u32 {
    1 << s
}

/// Calls the rule set's `endgame` on a start position with `options`.
fn endgame(
    rules: RuleSet,
    options: &[&str],
    men: [u32; 2],
    turn: Player,
) -> Result<AnyGame, String> {
    let g = AnyGame::new(rules, options).unwrap();
    let r = match g {
        AnyGame::Kendall(k) => k.endgame(men, turn).map(AnyGame::from),
        AnyGame::Kendall5(k) => k.endgame(men, turn).map(AnyGame::from),
        AnyGame::Senat(k) => k.endgame(men, turn).map(AnyGame::from),
        AnyGame::Houses(k) => k.endgame(men, turn).map(AnyGame::from),
        _ => unreachable!(),
    };
    r.map_err(|e| e.to_string())
}

fn past_opening(g: &AnyGame) -> bool {
    match g {
        AnyGame::Kendall(k) => k.past_opening(),
        AnyGame::Kendall5(k) => k.past_opening(),
        AnyGame::Senat(k) => k.past_opening(),
        AnyGame::Houses(k) => k.past_opening(),
        _ => unreachable!(),
    }
}

const STICK_GAMES: [RuleSet; 4] = [
    RuleSet::Kendall,
    RuleSet::Kendall5,
    RuleSet::Senat,
    RuleSet::Houses,
];

#[test]
fn valid_masks_give_the_parsed_position() {
    for rules in STICK_GAMES {
        for turn in Player::BOTH {
            let men = [bit(3) | bit(26) | bit(30), bit(12) | bit(28)];
            let g = endgame(rules, &[], men, turn).unwrap();
            assert_eq!(g.status(), Status::Throw(turn));
            assert!(past_opening(&g));
            let board: String = (1..=30)
                .map(|s| match s {
                    3 | 26 | 30 => 'X',
                    12 | 28 => 'O',
                    _ => '.',
                })
                .collect();
            let text = format!("{rules} {board} off=2,3 turn={turn} throw=- dec=0");
            let parsed: AnyGame = text.parse().unwrap();
            assert_eq!(g, parsed, "{rules}");
            assert_eq!(g.position(), text);
        }
    }
}

#[test]
fn the_start_positions_are_not_past_the_opening_except_kendall5() {
    for rules in STICK_GAMES {
        let g = AnyGame::new::<&str>(rules, &[]).unwrap();
        assert_eq!(past_opening(&g), rules == RuleSet::Kendall5, "{rules}");
    }
}

#[test]
fn invalid_masks_are_refused_with_the_reason() {
    for rules in STICK_GAMES {
        let e = |men| endgame(rules, &[], men, Player::First).unwrap_err();
        assert!(e([bit(5), bit(5)]).contains("share square 5"), "{rules}");
        assert!(e([bit(27), bit(5)]).contains("27"), "{rules}");
        assert!(
            e([bit(0), bit(5)]).contains("outside squares 1-30"),
            "{rules}"
        );
        assert!(
            e([bit(31), bit(5)]).contains("outside squares 1-30"),
            "{rules}"
        );
        assert!(e([0b1111110, bit(20)]).contains("more than 5"), "{rules}");
        assert!(e([0, 0]).contains("borne off every piece"), "{rules}");
    }
    // H7, option happiness_exits: nothing stands on 26-30.
    let e = endgame(
        RuleSet::Houses,
        &["happiness_exits"],
        [bit(28), bit(5)],
        Player::First,
    )
    .unwrap_err();
    assert!(e.contains("H7"), "{e}");
    assert!(endgame(
        RuleSet::Houses,
        &["happiness_exits"],
        [bit(25), bit(5)],
        Player::First
    )
    .is_ok());
}

#[test]
fn options_carry_over() {
    let g = endgame(
        RuleSet::Senat,
        &["die", "cap=300"],
        [bit(20), bit(21)],
        Player::Second,
    )
    .unwrap();
    assert!(
        g.position().starts_with("senat:die=true,cap=300 "),
        "{}",
        g.position()
    );
    assert_eq!(g.throw_dist().total, 5);
}
