//! Random kendall5 playouts from one seed, rules only (no timing harness of `senet bench`):
//! the loop profilers and instruction counters are pointed at (docs/performance.md).
//!
//!     cargo run --release -p senet-rules --example pbench -- 20000
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
    println!("{dec} decisions, {:.0} games/s (wall clock)", n as f64 / s);
}

fn main() {
    let n: u64 = match std::env::args().nth(1).map(|s| s.parse()) {
        None => 2_000_000,
        Some(Ok(n)) => n,
        Some(Err(_)) => {
            eprintln!("usage: pbench [GAMES]");
            std::process::exit(2);
        }
    };
    let start = AnyGame::new(RuleSet::Kendall5, &[] as &[&str]).expect("kendall5 starts");
    with_game!(&start, g => run(g, n));
}
