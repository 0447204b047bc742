//! Finished games played at random, for the tests of uploaded offline games.

use senet_rules::seed::SplitMix;
use senet_rules::{AnyGame, Game, MoveList, Notation, Record, RuleSet, Status};

/// A game of `rules` played to its end from `SplitMix(seed)`: random throws by their weights
/// and random legal moves, as the page's engine plays offline. Its record (no seed) and its
/// final position.
pub fn random_game(rules: RuleSet, seed: u64) -> (Record, AnyGame) {
    let mut g = AnyGame::new(rules, &[] as &[&str]).unwrap();
    let mut rec = Record::new(&g, None);
    let mut rng = SplitMix(seed);
    loop {
        match g.status() {
            Status::Throw(_) => {
                let d = g.throw_dist();
                let mut r = rng.below(d.total as usize) as u32;
                let t = d
                    .outcomes
                    .iter()
                    .find(|(_, w)| {
                        let hit = r < *w;
                        r = r.saturating_sub(*w);
                        hit
                    })
                    .unwrap()
                    .0;
                g.set_throw(t).unwrap();
                rec.push_throw(t);
            }
            Status::Move(_) => {
                let mut ms = MoveList::new();
                g.legal_moves(&mut ms);
                let m = ms[rng.below(ms.len())];
                rec.push_move(g.move_string(m));
                g.play_unchecked(m);
            }
            Status::Over(_) => break,
        }
    }
    rec.finish(&g);
    (rec, g)
}
