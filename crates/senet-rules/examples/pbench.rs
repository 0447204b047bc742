use senet_rules::conformance::SplitMix;
use senet_rules::{random_playout, with_game, AnyGame, Game, RuleSet};
use std::time::Instant;
fn run<G: Game>(start: &G, n: u64) {
    let mut rng = SplitMix(1);
    let mut dec = 0u64;
    let t = Instant::now();
    for _ in 0..n {
        let mut g = *start;
        dec += random_playout(&mut g, || rng.next_u32()) as u64;
    }
    let s = t.elapsed().as_secs_f64();
    println!("{dec} decisions, {:.0} games/s", n as f64 / s);
}
fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .map(|s| s.parse().unwrap())
        .unwrap_or(2_000_000);
    let start = AnyGame::new(RuleSet::Kendall5, &[] as &[&str]).unwrap();
    with_game!(&start, g => run(g, n));
}
