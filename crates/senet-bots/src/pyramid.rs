//! The evaluator of `pyramid` (rulings Y1-Y9): a game of points, not of a race. Terms, each
//! the first player's minus the second's, in points:
//! - scored: points of pyramids borne off (Y9);
//! - progress: each pyramid on the board is worth a share of its points that grows as it
//!   nears the end of the track (it will usually be borne off, but may yet be captured);
//! - safety and threats: a pyramid an enemy can capture (not beside one of its colour, not on
//!   a safe square: Y4, `senet_rules::pyramid::SAFE`) loses its value with the chance that an
//!   enemy within eight squares behind it hits it with one die or the sum of the two dice
//!   (`senet_rules::pyramid::DICE`; Y5's walls are ignored), counted in full for the side not
//!   to throw and in part for the side to throw;
//! - captures: a captured pyramid is simply gone from both terms (no points, Y4).
//!
//! The weights are set by hand (not trained): `greedy` with them beats `greedy@census`
//! clearly (see `docs/bots.md`).

use crate::eval::{sigmoid, Evaluator};
use senet_rules::pyramid::{Size, DICE, SAFE};
use senet_rules::track::protected;
use senet_rules::{Game, Player, Pyramid, Status};

/// The longest move: the larger sum of the two dice (Y2), 8.
const REACH: usize = {
    let mut m = 0;
    let mut i = 0;
    while i < DICE.len() {
        let t = DICE[i].0;
        if (t.a + t.b) as usize > m {
            m = (t.a + t.b) as usize;
        }
        i += 1;
    }
    m
};

/// Chance that the two dice of Y2 can hit a pyramid `d` squares ahead with one die or with
/// their sum (16 ordered outcomes), for `d` = 0..=8: 1 a die shows 1 (7/16); 2 a die shows
/// 2, or 1+1 (8/16); ... 8 only 4+4 (1/16).
const HIT: [f64; REACH + 1] = {
    let mut w = [0u32; REACH + 1];
    let mut total = 0;
    let mut i = 0;
    while i < DICE.len() {
        let (t, n) = DICE[i];
        total += n;
        let mut d = 1;
        while d <= REACH {
            if t.a as usize == d || t.b as usize == d || (t.a + t.b) as usize == d {
                w[d] += n;
            }
            d += 1;
        }
        i += 1;
    }
    let mut h = [0.0; REACH + 1];
    let mut d = 1;
    while d <= REACH {
        h[d] = w[d] as f64 / total as f64;
        d += 1;
    }
    h
};

/// The hand-set pyramid evaluator.
#[derive(Clone, Debug)]
pub struct PyramidEval {
    /// Logistic scale per point of difference.
    pub scale: f64,
    /// Share of a pyramid's points it is worth at square 1.
    pub base: f64,
    /// Extra share at square 30 (linear in between).
    pub advance: f64,
    /// Weight of the expected loss to a capture for the side not to throw.
    pub threat_now: f64,
    /// The same for the side to throw (the threat comes a turn later).
    pub threat_later: f64,
    /// Points of having the throw.
    pub tempo: f64,
}

/// The weights in use.
pub static PYRAMID: PyramidEval = PyramidEval {
    scale: 0.25,
    base: 0.35,
    advance: 0.55,
    threat_now: 1.0,
    threat_later: 0.3,
    tempo: 0.5,
};

impl PyramidEval {
    /// The first player's advantage in points.
    pub fn points(&self, g: &Pyramid, thrower: Player) -> f64 {
        let men = g.men();
        let sizes = g.sizes();
        let value_at = |s: u32| -> f64 {
            let b = 1u32 << s;
            let size = if sizes[Size::Large as usize] & b != 0 {
                Size::Large
            } else if sizes[Size::Medium as usize] & b != 0 {
                Size::Medium
            } else {
                Size::Small
            };
            let pts = size.points() as f64;
            pts * (self.base + self.advance * (s as f64 - 1.0) / 29.0)
        };
        let score = g.score();
        let mut side = [0.0f64; 2];
        for p in Player::BOTH {
            let (own, opp) = (men[p.index()], men[1 - p.index()]);
            let mut z = score[p.index()] as f64;
            let exposed = own & !protected(own) & !SAFE;
            let mut m = own;
            while m != 0 {
                let s = m.trailing_zeros();
                m &= m - 1;
                let v = value_at(s);
                z += v;
                if exposed & (1 << s) != 0 {
                    // The closest enemies behind, within reach of the dice.
                    let mut hit: f64 = 0.0;
                    for d in 1..=(REACH as u32).min(s - 1) {
                        if opp & (1 << (s - d)) != 0 {
                            hit = hit.max(HIT[d as usize]);
                        }
                    }
                    let w = if p == thrower {
                        self.threat_later
                    } else {
                        self.threat_now
                    };
                    z -= w * hit * v;
                }
            }
            if p == thrower {
                z += self.tempo;
            }
            side[p.index()] = z;
        }
        side[0] - side[1]
    }
}

impl Evaluator<Pyramid> for PyramidEval {
    fn eval(&self, g: &Pyramid) -> f64 {
        let thrower = match g.status() {
            Status::Throw(p) | Status::Move(p) => p,
            Status::Over(_) => Player::First,
        };
        sigmoid(self.scale * self.points(g, thrower))
    }

    fn name(&self) -> &'static str {
        "pyramid-hand"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table read from the dice of Y2 is the one written here before (issue 17).
    #[test]
    fn the_hit_table_is_the_one_written_out_before() {
        let old = [
            0.0,
            7.0 / 16.0,
            8.0 / 16.0,
            9.0 / 16.0,
            10.0 / 16.0,
            4.0 / 16.0,
            3.0 / 16.0,
            2.0 / 16.0,
            1.0 / 16.0,
        ];
        assert_eq!(HIT, old);
        assert_eq!(SAFE, 0b11111 << 26);
    }
}
