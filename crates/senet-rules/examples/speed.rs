//! Random-playout speed and game lengths (in decisions) of every rule set, default options:
//! 200,000 seeded games each.
use rand::{RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;
use senet_rules::*;

fn main() {
    for &r in RuleSet::ALL {
        let start = AnyGame::new(r, &[] as &[&str]).unwrap();
        with_game!(&start, g => run(r, g));
    }
}

fn run<G: Game>(r: RuleSet, g: &G) {
    let mut rng = Pcg64Mcg::seed_from_u64(1);
    let t = std::time::Instant::now();
    let n = 200_000;
    let mut dec = 0u64;
    let mut capped = 0;
    let mut wins = [0; 2];
    let mut lens = Vec::with_capacity(n);
    for _ in 0..n {
        let mut x = *g;
        let d = random_playout(&mut x, || rng.next_u32());
        dec += d as u64;
        lens.push(d);
        if let Status::Over(o) = x.status() {
            if o.capped {
                capped += 1;
            }
            if let Some(p) = o.winner {
                wins[p.index()] += 1;
            }
        }
    }
    let el = t.elapsed().as_secs_f64();
    lens.sort();
    println!(
        "{r}: {:.0} games/s, {:.0} dec/s, mean {:.1} median {} p90 {} p99 {} max {} capped {} wins {:?}",
        n as f64 / el,
        dec as f64 / el,
        dec as f64 / n as f64,
        lens[n / 2],
        lens[n * 9 / 10],
        lens[n * 99 / 100],
        lens[n - 1],
        capped,
        wins
    );
}
