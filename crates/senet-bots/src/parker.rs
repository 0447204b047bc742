//! The evaluator of `parker` (rulings P1-P11): a capture game on two looping paths of 20
//! spaces, won by capturing every opposing peg (P11). Terms, each the first player's minus the
//! second's, in men:
//! - material: pegs alive, a man worth 1 and the Pharaoh worth [`ParkerEval::pharaoh`] (it
//!   passes pegs, moves backward on the Senet row and never waits: P7, P8); a lone peg with
//!   the Pharaoh's powers (P10) still counts as a man;
//! - exposure: a peg on the Senet row (path indexes 10-19) loses its value with the chance
//!   that an opposing peg can end a move beside it next throw (P9), with one die or the total
//!   of the two dice, out of the 36 rolls ([`hit_chance`], from `senet_rules::parker::DICE`). The
//!   distances the opponent's pegs can reach with one move are [`Parker::reach`] (the
//!   nearest plain peg behind it, the Pharaoh or lone peg forward or backward: P6-P8,
//!   P10). Pegs on their own safety row (indexes 0-9) cannot be
//!   captured (P2). The loss is weighed by [`ParkerEval::threat_now`] for the side not to
//!   throw, by the smaller [`ParkerEval::threat_later`] for the side to throw, which moves first
//!   (on the Senet row two facing pegs threaten each other at the same distance, so the side
//!   to throw has the first shot);
//! - presence: a small bonus for each peg on the Senet row, larger on its near half
//!   (indexes 10-14) than on its far half (15-19), which the opponent's pegs leaving their
//!   safety row attack: captures happen only there, and a peg on it threatens the opponent's;
//! - waiting: plain pegs stuck on index 19 waiting for a One (P8), which cannot flee;
//! - tempo: having the throw.
//!
//! No moves are generated: everything comes from the peg masks ([`Parker::pegs`]) and a table
//! of the 36 rolls. The weights are set by hand and adjusted by duplicate matches of `greedy`
//! and `expectimax:1` (see `docs/bots.md`); the terms the matches hardly feel (waiting, tempo)
//! are kept at small values for what the rules say.

use crate::eval::{sigmoid, Evaluator};
use senet_rules::parker::{self, DICE, LAST, REACH, SENET};
use senet_rules::{Game, Parker, Player, Status};

/// The near half of the Senet row (indexes 10-14): its five lowest spaces.
const NEAR: u32 = SENET & !(SENET << 5);
/// The far half of the Senet row, indexes 15-19.
const FAR: u32 = SENET & !NEAR;

/// `HITS[m]`: the weight (out of [`HITS_TOTAL`]) of the rolls that show, on one die or as
/// the total, some distance `d` of the mask `m` (bit `d - 1` for `d` = 1..=12): P4's dice.
static HITS: [u8; 1 << REACH] = hits();

/// The total weight of the rolls (36).
const HITS_TOTAL: u32 = {
    let mut n = 0;
    let mut i = 0;
    while i < DICE.len() {
        n += DICE[i].1;
        i += 1;
    }
    n
};

const fn hits() -> [u8; 1 << REACH] {
    let mut t = [0u8; 1 << REACH];
    let mut i = 0;
    while i < DICE.len() {
        let (roll, w) = DICE[i];
        let (x, y) = (roll.a as usize, roll.b as usize);
        let shows = 1usize << (x - 1) | 1 << (y - 1) | 1 << (x + y - 1);
        let mut m = 1;
        while m < 1 << REACH {
            if m & shows != 0 {
                t[m] += w as u8;
            }
            m += 1;
        }
        i += 1;
    }
    t
}

/// The chance that a roll of the dice shows some distance of the mask `m` (bit `d - 1` for
/// distance `d` = 1..=12) on one die or as the total (P4).
#[inline]
pub fn hit_chance(m: u32) -> f64 {
    HITS[(m & ((1 << REACH) - 1)) as usize] as f64 / HITS_TOTAL as f64
}

/// The hand-set `parker` evaluator. Every weight is in men (a man is worth 1).
#[derive(Clone, Debug)]
pub struct ParkerEval {
    /// Logistic scale per man of difference.
    pub scale: f64,
    /// Value of the Pharaoh.
    pub pharaoh: f64,
    /// Weight of the expected loss to a capture for the side not to throw.
    pub threat_now: f64,
    /// The same for the side to throw (it moves before the threat comes).
    pub threat_later: f64,
    /// Cost of each plain peg waiting on index 19 for a One (P8).
    pub waiting: f64,
    /// Value of having the throw.
    pub tempo: f64,
    /// Value of each own peg on the near half of the Senet row (indexes 10-14), where it
    /// threatens the opponent's pegs ahead.
    pub senet_near: f64,
    /// The same on the far half (indexes 15-19), where the opponent's pegs leaving their
    /// safety row threaten it.
    pub senet_far: f64,
}

/// The weights in use.
pub static PARKER: ParkerEval = ParkerEval {
    scale: 1.0,
    pharaoh: 2.0,
    threat_now: 1.3,
    threat_later: 0.35,
    waiting: 0.15,
    tempo: 0.1,
    senet_near: 0.15,
    senet_far: 0.05,
};

impl ParkerEval {
    /// The first player's advantage in men, with `thrower` about to throw.
    pub fn points(&self, g: &Parker, thrower: Player) -> f64 {
        let pegs = g.pegs();
        let pharaoh = g.pharaoh();
        let wait = g.wait_for_one();
        let mut side = [0.0f64; 2];
        for p in Player::BOTH {
            let (me, them) = (p.index(), 1 - p.index());
            let own = pegs[me];
            let ph = pharaoh[me];
            let mut z = own.count_ones() as f64
                + if ph.is_some() {
                    self.pharaoh - 1.0
                } else {
                    0.0
                };
            // Exposure: each own peg on the Senet row, against the opponent's attackers.
            let att = pegs[them];
            let att_pow = g.powered(p.other());
            let w = if p == thrower {
                self.threat_later
            } else {
                self.threat_now
            };
            let mut m = own & SENET;
            let mut loss = 0.0;
            while m != 0 {
                let i = m.trailing_zeros() as u8;
                m &= m - 1;
                let d = Parker::reach(att, att_pow, wait, parker::across(i));
                if d != 0 {
                    let v = if ph == Some(i) { self.pharaoh } else { 1.0 };
                    loss += hit_chance(d) * v;
                }
            }
            z -= w * loss;
            // Presence on the Senet row, where captures happen (P9).
            z += self.senet_near * (own & NEAR).count_ones() as f64;
            z += self.senet_far * (own & FAR).count_ones() as f64;
            // P8: a plain peg on the last space waits for a One.
            if wait && own & 1 << LAST != 0 && g.powered(p) != Some(LAST) {
                z -= self.waiting;
            }
            if p == thrower {
                z += self.tempo;
            }
            side[me] = z;
        }
        side[0] - side[1]
    }
}

impl Evaluator<Parker> for ParkerEval {
    fn eval(&self, g: &Parker) -> f64 {
        let thrower = match g.status() {
            Status::Throw(p) | Status::Move(p) => p,
            Status::Over(_) => Player::First,
        };
        sigmoid(self.scale * self.points(g, thrower)).clamp(1e-9, 1.0 - 1e-9)
    }

    fn name(&self) -> &'static str {
        "parker-hand"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table against a direct count over the 36 rolls.
    #[test]
    fn hit_table_counts_the_36_rolls() {
        assert_eq!(HITS[0], 0);
        let count = |d: u32| {
            let mut n = 0;
            for x in 1..=6 {
                for y in 1..=6 {
                    if x == d || y == d || x + y == d {
                        n += 1;
                    }
                }
            }
            n
        };
        for d in 1..=12u32 {
            assert_eq!(HITS[1 << (d - 1)] as u32, count(d), "distance {d}");
        }
        // 1: 11 rolls show a 1; 6: 11 show a 6 plus 5 totalling 6 minus none double-counted.
        assert_eq!(HITS[1], 11);
        assert_eq!(HITS[1 << 5], 16);
        assert_eq!(HITS[1 << 11], 1);
        assert_eq!(HITS[(1 << REACH) - 1], 36);
        assert_eq!(HITS_TOTAL, 36);
        assert_eq!((NEAR, FAR), (0b11111 << 10, 0b11111 << 15));
    }
}
