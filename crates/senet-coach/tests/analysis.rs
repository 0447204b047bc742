//! The analysis of whole bot games (moved from `crates/senet-bots/tests/analysis.rs`: the
//! games are played and recorded by [`senet_coach::duel`]).

use senet_bots::analysis::{analyze, Options};
use senet_bots::BotSpec;
use senet_coach::duel::{play_game, record_of};
use senet_rules::{AnyGame, RuleSet};

/// A whole bot game: one note per event, every decision counted once, the figures of the
/// summary add up, and the analysis is deterministic.
#[test]
fn a_whole_game_adds_up_and_is_deterministic() {
    for rules in [RuleSet::Kendall5, RuleSet::Parker] {
        let start = AnyGame::new(rules, &[] as &[&str]).unwrap();
        let (mut a, mut b) = (
            "greedy".parse::<BotSpec>().unwrap().build(),
            "random".parse::<BotSpec>().unwrap().build(),
        );
        let game = play_game(&start, [a.as_mut(), b.as_mut()], 11, 12, true);
        let rec = record_of(&start, &game);
        rec.replay().unwrap();
        let opt = Options::with_depth(rules, 1);
        let mut calls = 0;
        let an = analyze(&rec, &opt, &mut |_, _| calls += 1).unwrap();
        assert_eq!(calls, rec.events.len() + 1);
        assert_eq!(an.notes.len(), rec.events.len());
        assert!(an.over);
        let p = &an.players;
        assert_eq!(p[0].decisions + p[1].decisions, game.moves.len());
        assert_eq!(p[0].throws + p[1].throws, game.throws.len());
        let winner = game.winner.unwrap().index();
        assert_eq!(p[winner].result, 1.0);
        assert_eq!(p[1 - winner].result, 0.0);
        for (i, s) in p.iter().enumerate() {
            let o = &p[1 - i];
            assert!((s.luck_adjusted - (s.result - s.luck + o.luck)).abs() < 1e-12);
            let marks = s.inaccuracies + s.mistakes + s.blunders;
            assert!(marks <= s.choices);
        }
        // The random player loses more per real choice than greedy.
        assert!(
            p[1].lost_per_choice > p[0].lost_per_choice,
            "{rules}: random {} vs greedy {}",
            p[1].lost_per_choice,
            p[0].lost_per_choice
        );
        assert_eq!(an, analyze(&rec, &opt, &mut |_, _| {}).unwrap());
        // The graph's last point is the result.
        assert_eq!(an.notes.last().unwrap().first(), p[0].result);
    }
}
