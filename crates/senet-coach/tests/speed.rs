//! The levels' node budgets on the slowest positions (moved from
//! `crates/senet-bots/tests/bots.rs`: the positions are the openings of [`senet_coach::speed`],
//! those `senet botspeed` times).

use senet_bots::{Bot, BotSpec};
use senet_rules::{AnyGame, Game, RuleSet, Throw};

fn bot(name: &str) -> Box<dyn Bot> {
    name.parse::<BotSpec>().unwrap().build()
}

/// Issue 18: every level answers within its node budget on every rule set, the slowest
/// positions included (the widest openings, and the pyramid position where `expert` once
/// searched 110 million nodes), and stays deterministic.
#[test]
fn levels_keep_to_their_node_budgets_on_the_slowest_positions() {
    use senet_bots::Level;
    let mut slow: AnyGame = "pyramid LlLlMmMmMmSsSsSsSs.sS......... off=-,- turn=2 dice=- dec=1"
        .parse()
        .unwrap();
    slow.set_throw(Throw::dice(1, 3)).unwrap();
    for &r in RuleSet::ALL {
        let start = AnyGame::new(r, &[] as &[&str]).unwrap();
        let mut ps = senet_coach::speed::openings(&start);
        ps.truncate(12);
        if r == RuleSet::Pyramid {
            ps.push(slow);
        }
        for l in [Level::Strong, Level::Expert] {
            let Some(budget) = l.budget(r) else {
                // `strong` on kendall and kendall5 is greedy (one turn, bounded by the rules).
                assert_eq!(
                    l.spec_for(r).0,
                    senet_bots::BotKind::Greedy,
                    "{r} {}",
                    l.id()
                );
                continue;
            };
            let mut b = bot(l.id());
            for g in &ps {
                let c = b.choose(g, 1);
                // Depth 0 (one turn) always completes; past the budget the aborted
                // iteration unwinds at once.
                assert!(
                    c.nodes < budget + 5_000,
                    "{r} {}: {} nodes",
                    l.id(),
                    c.nodes
                );
                assert_eq!(b.choose(g, 1), c, "deterministic");
            }
        }
        for l in [Level::Beginner, Level::Casual] {
            assert_eq!(l.budget(r), None);
        }
    }
}
