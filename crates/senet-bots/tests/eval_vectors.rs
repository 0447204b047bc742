//! The evaluators' inputs pinned to committed numbers (`tests/vectors/evals.txt`): positions
//! from seeded random games of every rule set with its default options, each with what the
//! evaluators compute from it: for the track games the board terms of both sides
//! ([`TrackSpec::terms`], which the network reads too), the feature difference of the
//! linear evaluator and the endgame networks' board terms of both sides
//! ([`TrackSpec::end_terms`], added with issue 18's send-back exposure on `houses`); for `pyramid` and `parker` the hand-set evaluator's points for either
//! player to throw.
//!
//! The numbers were written by the evaluators as they were when they restated the rules
//! themselves (issue 17); they now read them from senet-rules, and the trained weights
//! depend on these numbers staying exactly what they were. Regenerate the file only on
//! purpose: `SENET_BLESS=1 cargo test -p senet-bots --test eval_vectors`.

use senet_bots::parker::PARKER;
use senet_bots::pyramid::PYRAMID;
use senet_bots::track::{TrackEval, TrackGame, TrackSpec};
use senet_rules::conformance::corpus;
use senet_rules::Notation;
use senet_rules::{AnyGame, Player, RuleSet};

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/evals.txt");

/// The track spec a game is valued with.
fn spec_of<G: TrackGame>(g: &G) -> &'static TrackSpec {
    g.track_spec()
}

/// Board terms of both sides, the feature difference for the player to throw, then the
/// endgame networks' board terms of both sides.
fn track_numbers<G: TrackGame>(g: &G) -> Vec<f64> {
    let spec = spec_of(g);
    let [a, b] = g.masks();
    let mut v = Vec::new();
    v.extend(spec.terms(a, b));
    v.extend(spec.terms(b, a));
    v.extend(spec.features([a, b], TrackEval::thrower(g)));
    v.extend(spec.end_terms(a, b));
    v.extend(spec.end_terms(b, a));
    v
}

/// What the evaluators compute from a position.
fn numbers(g: &AnyGame) -> Vec<f64> {
    match g {
        AnyGame::Kendall5(g) => track_numbers(g),
        AnyGame::Kendall(g) => track_numbers(g),
        AnyGame::Senat(g) => track_numbers(g),
        AnyGame::Houses(g) => track_numbers(g),
        AnyGame::Pyramid(g) => Player::BOTH.iter().map(|&p| PYRAMID.points(g, p)).collect(),
        AnyGame::Parker(g) => Player::BOTH.iter().map(|&p| PARKER.points(g, p)).collect(),
    }
}

/// A line of the file: the position, `|`, the numbers (`{:?}` of an `f64` reads back exactly;
/// `0` for 0.0).
fn line(g: &AnyGame) -> String {
    let nums: Vec<String> = numbers(g)
        .iter()
        .map(|x| match x.to_bits() {
            0 => "0".into(),
            _ => format!("{x:?}"),
        })
        .collect();
    format!("{} | {}", g.position(), nums.join(" "))
}

/// Positions from seeded random games of every rule set with its default options.
fn positions() -> Vec<AnyGame> {
    let mut out = Vec::new();
    for &r in RuleSet::ALL {
        let start = AnyGame::new::<&str>(r, &[]).unwrap();
        for before_throw in [true, false] {
            out.extend(corpus(&start, 9, 120, before_throw));
        }
    }
    out
}

#[test]
fn evaluator_inputs_match_the_committed_vectors() {
    if std::env::var_os("SENET_BLESS").is_some() {
        let text: String = positions().iter().map(|g| line(g) + "\n").collect();
        std::fs::create_dir_all(std::path::Path::new(FILE).parent().unwrap()).unwrap();
        std::fs::write(FILE, text).unwrap();
    }
    let text = std::fs::read_to_string(FILE).unwrap_or_else(|e| {
        panic!("{FILE}: {e} (write it with SENET_BLESS=1 cargo test -p senet-bots --test eval_vectors)")
    });
    let mut n = 0;
    for (i, l) in text.lines().enumerate() {
        let (pos, nums) = l.split_once(" | ").expect("position | numbers");
        let g: AnyGame = pos.parse().unwrap();
        let want: Vec<f64> = nums.split(' ').map(|x| x.parse().unwrap()).collect();
        let got = numbers(&g);
        assert_eq!(got.len(), want.len(), "line {}: {pos}", i + 1);
        for (k, (x, y)) in got.iter().zip(&want).enumerate() {
            assert!(
                x.to_bits() == y.to_bits(),
                "line {}: {pos}: number {k} is {x:?}, the vector says {y:?}",
                i + 1
            );
        }
        n += 1;
    }
    // Every rule set, both kinds of position.
    assert_eq!(n, positions().len());
    assert!(n >= 6 * 200);
}
