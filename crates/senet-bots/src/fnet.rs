//! Trained networks for `pyramid` and `parker` (issue 18), in the manner of the track games'
//! network ([`crate::net`]): one hidden layer of [`FH`] rectified units, a sigmoid output (the
//! chance that the side to throw, the *mover*, wins) and a linear skip connection from the
//! inputs to the output. Trained by TD(λ) self-play (`senet_coach::train::train_feature_net`,
//! `senet train --rules pyramid --net`).
//!
//! The inputs see the position from the mover ([`Features`]): for each side, the mover's
//! first, where its pieces stand (one input per square and kind of piece), plus what the
//! rule set counts (pyramid's points scored, Y9); the hand-set evaluator's judgement of the
//! position (its logit from the mover's side: [`crate::pyramid::PYRAMID`],
//! [`crate::parker::PARKER`]); and the seat (+1 when the mover is the first player). The
//! skip weight of the hand-set input starts at 1 and every other weight near 0, so training
//! starts from the hand-set evaluator's play and the network learns what it misses.

use crate::eval::{sigmoid, Evaluator};
use crate::parker::PARKER;
use crate::pyramid::PYRAMID;
use arrayvec::ArrayVec;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use senet_rules::pyramid::Size;
use senet_rules::{Game, Parker, Player, Pyramid};
use std::marker::PhantomData;

/// Hidden units.
pub const FH: usize = 16;

/// The inputs of a position that are not zero, as (index, value).
pub type FInputs = ArrayVec<(u16, f32), 48>;

/// What a [`FeatNet`] sees of a game.
pub trait Features: Game {
    /// The number of inputs.
    const NI: usize;
    /// The inputs that are not zero, seen from `mover` (the side to throw or move).
    fn features(&self, mover: Player, x: &mut FInputs);
}

/// The side to throw or move (the first player once the game is over).
#[inline]
pub fn mover_of<G: Game>(g: &G) -> Player {
    g.status().player().unwrap_or(Player::First)
}

/// The hand-set evaluator's logit from `mover`'s side, given the first player's advantage.
#[inline]
fn from_side(first_minus_second: f64, mover: Player) -> f32 {
    match mover {
        Player::First => first_minus_second as f32,
        Player::Second => -first_minus_second as f32,
    }
}

/// `pyramid`, per side (the mover's first): a pyramid of each size on each square 1-30
/// (3 x 30 inputs), the points scored so far in tens (Y9); then the hand-set evaluator's
/// logit and the seat.
pub const PYRAMID_SIDE: usize = 3 * 30 + 1;

impl Features for Pyramid {
    const NI: usize = 2 * PYRAMID_SIDE + 2;

    fn features(&self, mover: Player, x: &mut FInputs) {
        let men = self.men();
        let sizes = self.sizes();
        let score = self.score();
        let sides = [mover, mover.other()];
        for (k, p) in sides.into_iter().enumerate() {
            let base = k * PYRAMID_SIDE;
            let mut m = men[p.index()];
            while m != 0 {
                let s = m.trailing_zeros();
                m &= m - 1;
                let size = if sizes[Size::Large as usize] >> s & 1 != 0 {
                    0
                } else if sizes[Size::Medium as usize] >> s & 1 != 0 {
                    1
                } else {
                    2
                };
                x.push(((base + (s as usize - 1) * 3 + size) as u16, 1.0));
            }
            if score[p.index()] > 0 {
                x.push(((base + 90) as u16, score[p.index()] as f32 / 10.0));
            }
        }
        let hand = PYRAMID.scale * PYRAMID.points(self, mover);
        x.push(((2 * PYRAMID_SIDE) as u16, from_side(hand, mover)));
        x.push(((2 * PYRAMID_SIDE + 1) as u16, seat(mover)));
    }
}

/// `parker`, per side (the mover's first), along that side's own path (P1): a peg on each
/// path index 0-19, and its Pharaoh (or the lone peg with the Pharaoh's powers, P10) on each
/// (40 inputs); then whether waiting for a One is in force (P8), the hand-set evaluator's logit
/// and the seat.
pub const PARKER_SIDE: usize = 40;

impl Features for Parker {
    const NI: usize = 2 * PARKER_SIDE + 3;

    fn features(&self, mover: Player, x: &mut FInputs) {
        let pegs = self.pegs();
        for (k, p) in [mover, mover.other()].into_iter().enumerate() {
            let base = k * PARKER_SIDE;
            let mut m = pegs[p.index()];
            while m != 0 {
                x.push(((base + m.trailing_zeros() as usize) as u16, 1.0));
                m &= m - 1;
            }
            if let Some(i) = self.powered(p) {
                x.push(((base + 20 + i as usize) as u16, 1.0));
            }
        }
        let n = 2 * PARKER_SIDE;
        if self.wait_for_one() {
            x.push((n as u16, 1.0));
        }
        let hand = PARKER.scale * PARKER.points(self, mover);
        x.push(((n + 1) as u16, from_side(hand, mover)));
        x.push(((n + 2) as u16, seat(mover)));
    }
}

#[inline]
fn seat(mover: Player) -> f32 {
    if mover == Player::First {
        1.0
    } else {
        -1.0
    }
}

/// The first line of a weights file.
const HEADER: &str = "senet-fnet/1";

/// A network over the [`Features`] of `G`: its parameters in one vector, the `NI x FH`
/// hidden weights row by row (input `i`'s row at `i * FH`), then `NI` skip weights, `FH`
/// hidden biases, `FH` output weights and the output bias.
#[derive(Clone, Debug)]
pub struct FeatNet<G> {
    /// The parameters.
    pub p: Vec<f32>,
    /// Name for reports.
    pub label: &'static str,
    game: PhantomData<fn(&G)>,
}

impl<G: Features> FeatNet<G> {
    /// Number of parameters.
    pub const NP: usize = G::NI * FH + G::NI + 2 * FH + 1;
    const SKIP: usize = G::NI * FH;
    const C: usize = Self::SKIP + G::NI;
    const V: usize = Self::C + FH;
    /// Offset of the output bias, the last parameter.
    pub const B: usize = Self::V + FH;

    /// A network that starts as the hand-set evaluator: the skip weight of its input is 1,
    /// the others 0; the hidden units random and their output weights small.
    pub fn from_hand(seed: u64, label: &'static str) -> FeatNet<G> {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut p = vec![0.0f32; Self::NP];
        for x in &mut p[..Self::SKIP] {
            *x = (rng.random::<f32>() - 0.5) * 0.2;
        }
        p[Self::SKIP + G::NI - 2] = 1.0; // the hand-set evaluator's logit
        for x in &mut p[Self::C..Self::V] {
            *x = 0.1;
        }
        for x in &mut p[Self::V..Self::B] {
            *x = (rng.random::<f32>() - 0.5) * 0.02;
        }
        FeatNet {
            p,
            label,
            game: PhantomData,
        }
    }

    /// The inputs of `g` from `mover`'s side.
    pub fn inputs(g: &G, mover: Player) -> FInputs {
        let mut x = FInputs::new();
        g.features(mover, &mut x);
        x
    }

    /// The output before the sigmoid (the mover's logit), and the hidden units' inputs.
    #[inline]
    pub fn forward(&self, x: &[(u16, f32)]) -> (f32, [f32; FH]) {
        let p = &self.p;
        let mut h: [f32; FH] = p[Self::C..Self::V].try_into().expect("FH hidden biases");
        let mut z = p[Self::B];
        for &(i, xi) in x {
            let i = i as usize;
            let row: &[f32; FH] = p[i * FH..(i + 1) * FH].try_into().expect("a row");
            for (hk, wk) in h.iter_mut().zip(row) {
                *hk += xi * wk;
            }
            z += p[Self::SKIP + i] * xi;
        }
        let v: &[f32; FH] = p[Self::V..Self::B].try_into().expect("FH output weights");
        for (hk, vk) in h.iter().zip(v) {
            z += vk * hk.max(0.0);
        }
        (z, h)
    }

    /// Adds to `grad` the gradient of the mover's value `sigmoid(z)` times `d` (the caller's
    /// factor, e.g. `v (1 - v)` with a sign), for inputs `x` whose forward pass gave `h`.
    pub fn add_gradient(&self, grad: &mut [f32], x: &[(u16, f32)], h: &[f32; FH], d: f32) {
        grad[Self::B] += d;
        for k in 0..FH {
            grad[Self::V + k] += d * h[k].max(0.0);
            if h[k] > 0.0 {
                let dh = d * self.p[Self::V + k];
                grad[Self::C + k] += dh;
                for &(i, xi) in x {
                    grad[i as usize * FH + k] += dh * xi;
                }
            }
        }
        for &(i, xi) in x {
            grad[Self::SKIP + i as usize] += d * xi;
        }
    }

    /// The chance that `mover` wins `g`.
    #[inline]
    pub fn mover_value(&self, g: &G, mover: Player) -> f64 {
        sigmoid(self.forward(&Self::inputs(g, mover)).0 as f64)
    }

    /// Reads a weights file (as written by [`FeatNet::to_text`]): a header line, comment lines
    /// starting with `#`, then the parameters.
    pub fn parse(text: &str, label: &'static str) -> Result<FeatNet<G>, String> {
        let mut lines = text.lines();
        if lines.next().map(str::trim) != Some(HEADER) {
            return Err(format!("a network file starts with {HEADER:?}"));
        }
        let p = lines
            .filter(|l| !l.trim_start().starts_with('#'))
            .flat_map(str::split_whitespace)
            .map(|w| w.parse::<f32>().map_err(|e| format!("{w:?}: {e}")))
            .collect::<Result<Vec<f32>, String>>()?;
        if p.len() != Self::NP {
            return Err(format!(
                "{} parameters, {} expected for {} inputs",
                p.len(),
                Self::NP,
                G::NI
            ));
        }
        if p.iter().any(|x| !x.is_finite()) {
            return Err("a parameter is not a finite number".into());
        }
        Ok(FeatNet {
            p,
            label,
            game: PhantomData,
        })
    }

    /// The weights file: the header, `comment` as `#` lines, the parameters (a row of the
    /// hidden weights per line).
    pub fn to_text(&self, comment: &str) -> String {
        let mut s = format!("{HEADER}\n");
        for l in comment.lines() {
            s.push_str(&format!("# {l}\n"));
        }
        for chunk in self.p.chunks(FH) {
            let words: Vec<String> = chunk.iter().map(|x| format!("{x}")).collect();
            s.push_str(&words.join(" "));
            s.push('\n');
        }
        s
    }
}

impl<G: Features> Evaluator<G> for FeatNet<G> {
    #[inline]
    fn eval(&self, g: &G) -> f64 {
        let mover = mover_of(g);
        let v = self.mover_value(g, mover).clamp(1e-9, 1.0 - 1e-9);
        match mover {
            Player::First => v,
            Player::Second => 1.0 - v,
        }
    }

    fn name(&self) -> &'static str {
        self.label
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use senet_rules::{AnyGame, RuleSet};

    fn games() -> (Pyramid, Parker) {
        let AnyGame::Pyramid(py) = AnyGame::new(RuleSet::Pyramid, &[] as &[&str]).unwrap() else {
            unreachable!()
        };
        let AnyGame::Parker(pk) = AnyGame::new(RuleSet::Parker, &[] as &[&str]).unwrap() else {
            unreachable!()
        };
        (py, pk)
    }

    /// A fresh network is the hand-set evaluator plus small noise, so training starts from its play.
    #[test]
    fn a_fresh_network_starts_near_the_hand_set_evaluator() {
        let (py, pk) = games();
        let net = FeatNet::<Pyramid>::from_hand(1, "t");
        let hand = crate::pyramid::PYRAMID.eval(&py);
        assert!(
            (net.eval(&py) - hand).abs() < 0.05,
            "{} {hand}",
            net.eval(&py)
        );
        let net = FeatNet::<Parker>::from_hand(1, "t");
        let hand = crate::parker::PARKER.eval(&pk);
        assert!(
            (net.eval(&pk) - hand).abs() < 0.05,
            "{} {hand}",
            net.eval(&pk)
        );
    }

    /// Inputs stay in range and are seen from the mover: the same position from the other
    /// side swaps the two sides' blocks.
    #[test]
    fn inputs_are_in_range_and_seen_from_the_mover() {
        let (py, pk) = games();
        for mover in Player::BOTH {
            for &(i, _) in &FeatNet::<Pyramid>::inputs(&py, mover) {
                assert!((i as usize) < Pyramid::NI);
            }
            for &(i, _) in &FeatNet::<Parker>::inputs(&pk, mover) {
                assert!((i as usize) < Parker::NI);
            }
        }
        let a = FeatNet::<Pyramid>::inputs(&py, Player::First);
        let b = FeatNet::<Pyramid>::inputs(&py, Player::Second);
        let own = |x: &FInputs, lo: usize, hi: usize| {
            let mut v: Vec<u16> = x
                .iter()
                .filter(|(i, _)| (lo..hi).contains(&(*i as usize)))
                .map(|(i, _)| *i - lo as u16)
                .collect();
            v.sort();
            v
        };
        let s = PYRAMID_SIDE;
        assert_eq!(own(&a, 0, s), own(&b, s, 2 * s));
        assert_eq!(own(&a, s, 2 * s), own(&b, 0, s));
    }

    /// The gradient agrees with finite differences.
    #[test]
    fn the_gradient_is_the_derivative() {
        let (py, _) = games();
        let mut net = FeatNet::<Pyramid>::from_hand(3, "t");
        let x = FeatNet::<Pyramid>::inputs(&py, Player::First);
        let (z, h) = net.forward(&x);
        let mut g = vec![0.0f32; FeatNet::<Pyramid>::NP];
        net.add_gradient(&mut g, &x, &h, 1.0);
        for &i in &[
            0usize,
            5,
            FeatNet::<Pyramid>::B,
            FeatNet::<Pyramid>::NP - 20,
        ] {
            let e = 1e-2;
            net.p[i] += e;
            let z2 = net.forward(&x).0;
            net.p[i] -= e;
            assert!(((z2 - z) / e - g[i]).abs() < 1e-2, "param {i}");
        }
    }

    /// A weights file round-trips, and bad files are refused with a reason.
    #[test]
    fn weights_files_round_trip_and_bad_ones_are_refused() {
        let net = FeatNet::<Parker>::from_hand(5, "t");
        let text = net.to_text("a test\nof two lines");
        let back = FeatNet::<Parker>::parse(&text, "t").unwrap();
        assert_eq!(back.p, net.p);
        assert!(FeatNet::<Parker>::parse("nonsense", "t").is_err());
        let short = text.lines().take(5).collect::<Vec<_>>().join("\n");
        assert!(FeatNet::<Parker>::parse(&short, "t")
            .unwrap_err()
            .contains("expected"));
        assert!(FeatNet::<Pyramid>::parse(&text, "t").is_err());
    }
}
