//! The track networks' fast pass against the plain forward pass, on committed vectors
//! (`tests/vectors/nets.txt`), issue 35.
//!
//! The search values a position with [`NetEval::mover_value`]: the network's inputs visited
//! in place, eight hidden units to an AVX2 register where the processor has them (four in
//! SSE2's elsewhere), the output layer summed in eight partial sums. The trainers use
//! [`forward`]: the input list of [`NetEval::inputs`], one unit after another. The two take
//! the same products and sums in another order, so they differ by float rounding only.
//! The file pins, for each committed network (the main networks of `kendall`, `kendall5`,
//! `senat` and `houses` with default options, `kendall5`'s wide network of the `expert`
//! level, and their endgame networks where both sides have at most [`END_PIECES`] pieces on
//! the board), the plain pass's output before the
//! sigmoid for positions of seeded random games, both players to throw; the test checks that
//! the plain pass still gives those numbers to the bit and that the fast pass's win chance is
//! within [`BOUND`] of them.
//!
//! Regenerate the file only when a network changes on purpose:
//! `SENET_BLESS=1 cargo test -p senet-bots --test net_vectors`.

use senet_bots::net::{forward, forward_two, params_of, NetEval, END4_PIECES, END_PIECES};
use senet_bots::track::TrackGame;
use senet_bots::weights;
use senet_rules::conformance::corpus;
use senet_rules::{AnyGame, Notation, Player, RuleSet};

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/nets.txt");

/// The largest difference allowed between the fast pass's win chance and the plain pass's:
/// float rounding of sums taken in another order (measured: at most 5.7e-7 on these
/// vectors).
const BOUND: f64 = 2e-6;

/// The plain pass's output before the sigmoid for a network of any committed size.
fn plain(p: &[f32], x: &[(u8, f32)]) -> f32 {
    const S16: usize = params_of(16);
    const S32: usize = params_of(32);
    const S64: usize = params_of(64);
    const S128: usize = params_of(128);
    const S256: usize = params_of(256);
    const S512: usize = params_of(512);
    match p.len() {
        S16 => forward::<16>(p, x).0,
        S32 => forward::<32>(p, x).0,
        S64 => forward::<64>(p, x).0,
        S128 => forward::<128>(p, x).0,
        S256 => forward::<256>(p, x).0,
        S512 => forward::<512>(p, x).0,
        n => panic!("a network of {n} parameters"),
    }
}

/// The network a game of the default options is valued with, and the plain pass's output
/// and the fast pass's win chance with `mover` to throw.
fn passes<G: TrackGame>(net: &NetEval, g: &G, mover: Player) -> (f32, f64) {
    let men = g.masks();
    let end = men.iter().all(|m| m.count_ones() <= END_PIECES);
    let end4 = men.iter().all(|m| m.count_ones() <= END4_PIECES);
    let z = match (&net.end, &net.end4) {
        (Some(e), _) if end => plain(e, &net.end_inputs(men, mover)),
        (_, Some(e)) if end4 => plain(e, &net.end_inputs(men, mover)),
        _ => match &net.second {
            Some(s) => forward_two(&net.p, s, &net.inputs(men, mover)),
            None => plain(&net.p, &net.inputs(men, mover)),
        },
    };
    (z, net.mover_value(men, mover))
}

/// The plain and fast passes of every network of the game's rule set (`kendall5`: the main
/// network, then the wide one of the `expert` level), each with both players to throw.
fn both(g: &AnyGame) -> Vec<(f32, f64)> {
    fn each<G: TrackGame>(nets: &[&NetEval], g: &G) -> Vec<(f32, f64)> {
        nets.iter()
            .flat_map(|net| Player::BOTH.map(|p| passes(net, g, p)))
            .collect()
    }
    match g {
        AnyGame::Kendall5(g) => each(&[&weights::KENDALL5_NET, &weights::KENDALL5_WIDE_NET], g),
        AnyGame::Kendall(g) => each(&[&weights::KENDALL_NET], g),
        AnyGame::Senat(g) => each(&[&weights::SENAT_NET], g),
        AnyGame::Houses(g) => each(&[&weights::HOUSES_NET], g),
        _ => unreachable!("a track game"),
    }
}

/// Positions awaiting a throw from seeded random games of the track rule sets.
fn positions() -> Vec<AnyGame> {
    let mut out = Vec::new();
    for r in [
        RuleSet::Kendall5,
        RuleSet::Kendall,
        RuleSet::Senat,
        RuleSet::Houses,
    ] {
        let start = AnyGame::new::<&str>(r, &[]).unwrap();
        out.extend(corpus(&start, 7, 300, true));
    }
    out
}

fn sigmoid(z: f32) -> f64 {
    1.0 / (1.0 + (-(z as f64)).exp())
}

#[test]
fn the_fast_pass_is_the_plain_pass_within_its_bound() {
    if std::env::var_os("SENET_BLESS").is_some() {
        let text: String = positions()
            .iter()
            .map(|g| {
                let zs: Vec<String> = both(g).iter().map(|(z, _)| format!("{z:?}")).collect();
                format!("{} | {}\n", g.position(), zs.join(" "))
            })
            .collect();
        std::fs::write(FILE, text).unwrap();
    }
    let text = std::fs::read_to_string(FILE).unwrap_or_else(|e| {
        panic!(
            "{FILE}: {e} (write it with SENET_BLESS=1 cargo test -p senet-bots --test net_vectors)"
        )
    });
    let (mut n, mut ends, mut worst) = (0, 0, 0.0f64);
    for (i, l) in text.lines().enumerate() {
        let (pos, nums) = l.split_once(" | ").expect("position | numbers");
        let g: AnyGame = pos.parse().unwrap();
        let want: Vec<f32> = nums.split(' ').map(|x| x.parse().unwrap()).collect();
        let got = both(&g);
        assert_eq!(got.len(), want.len(), "line {}: {pos}: numbers", i + 1);
        for (k, ((z, fast), want)) in got.into_iter().zip(want).enumerate() {
            assert_eq!(
                z.to_bits(),
                want.to_bits(),
                "line {}: {pos}: the plain pass of network {} gives {z:?} with player {} to throw, the vector {want:?}",
                i + 1,
                k / 2 + 1,
                k % 2 + 1
            );
            let d = (fast - sigmoid(want)).abs();
            assert!(
                d <= BOUND,
                "line {}: {pos}: the fast pass is {d:e} from the plain pass",
                i + 1
            );
            worst = worst.max(d);
        }
        let men = match &g {
            AnyGame::Kendall5(g) => g.masks(),
            AnyGame::Kendall(g) => g.masks(),
            AnyGame::Senat(g) => g.masks(),
            AnyGame::Houses(g) => g.masks(),
            _ => unreachable!(),
        };
        ends += men.iter().all(|m| m.count_ones() <= END_PIECES) as usize;
        n += 1;
    }
    assert_eq!(n, positions().len());
    // The endgame networks are covered too.
    assert!(ends >= 40, "{ends} endgame positions");
    eprintln!("{n} positions ({ends} endgames), largest difference {worst:e}");
}
