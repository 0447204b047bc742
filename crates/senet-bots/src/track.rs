//! The evaluator of the race games on the 30-square track (`kendall`, `kendall5`, `senat`,
//! `houses`): a logistic function of the difference of
//! per-side features, with weights trained by TD(λ) self-play ([`crate::train`]).
//!
//! Features of one side (see [`FEATURES`]):
//! - progress: one input per square 1-30 (a learned value for each square, so the water
//!   at 27, the houses 28-30 and the waiting square 26 get their true worth) and one for
//!   pieces borne off;
//! - safety: pieces protected by a neighbour of their colour;
//! - blockades: pieces in runs that the opponent cannot pass;
//! - threats: the expected swing (in squares) of the opponent's best attack with its next
//!   throw, for the side not to throw ("now") and the side to throw ("later");
//! - tempo: being the side to throw.
//!
//! Data-only differences between rule sets (throws, safe squares, how blockades and the
//! squares 26-30 work) live in a [`TrackSpec`].

use crate::eval::{sigmoid, Evaluator};
use senet_rules::track::{between, bit, protected, runs, runs3_in_rows};
use senet_rules::{Game, Houses, Kendall, Kendall5, Player, Senat, Status};

/// Number of features of one side.
pub const NF: usize = 37;

/// Names of the features, for reports and the trainer.
pub const FEATURES: [&str; NF] = [
    "sq1",
    "sq2",
    "sq3",
    "sq4",
    "sq5",
    "sq6",
    "sq7",
    "sq8",
    "sq9",
    "sq10",
    "sq11",
    "sq12",
    "sq13",
    "sq14",
    "sq15",
    "sq16",
    "sq17",
    "sq18",
    "sq19",
    "sq20",
    "sq21",
    "sq22",
    "sq23",
    "sq24",
    "sq25",
    "sq26",
    "sq27",
    "sq28",
    "sq29",
    "sq30",
    "off",
    "protected",
    "blockade",
    "exposed_now",
    "exposed_later",
    "tempo",
    "behind_blockade",
];

pub(crate) const F_OFF: usize = 30;
pub(crate) const F_PROTECTED: usize = 31;
pub(crate) const F_BLOCKADE: usize = 32;
pub(crate) const F_EXPOSED_NOW: usize = 33;
pub(crate) const F_EXPOSED_LATER: usize = 34;
pub(crate) const F_TEMPO: usize = 35;
pub(crate) const F_BEHIND: usize = 36;

/// For every throw value 0-7, the squares a forward move by it may land on (ignoring what
/// stands there): 27 is never a landing square (the water), the houses 28-30 only bear off,
/// and with `stop_at_26` nothing passes 26 (K7, R6, H7).
const fn landing_table(stop_at_26: bool) -> [u32; 8] {
    let mut a = [0u32; 8];
    let mut k = 1;
    while k < 8 {
        let mut t = k + 1;
        while t <= 30 {
            let s = t - k;
            if s < 28 && t != 27 && (!stop_at_26 || s >= 26 || t <= 26) {
                a[k] |= 1 << t;
            }
            t += 1;
        }
        k += 1;
    }
    a
}

/// The bits set in `m`, which has few (a side's five pieces at most): faster than
/// `count_ones` where the processor has no population count (the baseline x86-64 target).
#[inline(always)]
fn few(mut m: u32) -> u32 {
    let mut n = 0;
    while m != 0 {
        m &= m - 1;
        n += 1;
    }
    n
}

/// How a track rule set's movement works, as data.
#[derive(Debug)]
pub struct TrackSpec {
    /// Rule-set ID, for reports.
    pub id: &'static str,
    /// The five throw values with their probabilities.
    pub throws: [(u8, f64); 5],
    /// Squares where a piece cannot be attacked.
    pub safe: u32,
    /// Whether blockades are broken at the corners (K6) or run across them (R5).
    pub blockade_in_rows: bool,
    /// Pieces per side.
    pub pieces: u32,
    /// Where a forward move by each throw value may land.
    pub landing: [u32; 8],
}

/// `kendall5` (R2-R8).
pub static KENDALL5_SPEC: TrackSpec = TrackSpec {
    id: "kendall5",
    throws: [
        (1, 4.0 / 16.0),
        (2, 6.0 / 16.0),
        (3, 4.0 / 16.0),
        (4, 1.0 / 16.0),
        (5, 1.0 / 16.0),
    ],
    safe: 0,
    blockade_in_rows: false,
    pieces: 5,
    landing: landing_table(true),
};

/// `kendall` (K2-K9).
pub static KENDALL_SPEC: TrackSpec = TrackSpec {
    id: "kendall",
    throws: [
        (1, 4.0 / 16.0),
        (2, 6.0 / 16.0),
        (3, 4.0 / 16.0),
        (4, 1.0 / 16.0),
        (6, 1.0 / 16.0),
    ],
    safe: bit(15) | bit(26) | bit(28) | bit(29),
    blockade_in_rows: true,
    pieces: 5,
    landing: landing_table(true),
};

/// `senat` (S2, S5-S9; the `die` option's uniform throws are not modelled).
pub static SENAT_SPEC: TrackSpec = TrackSpec {
    id: "senat",
    throws: [
        (1, 4.0 / 16.0),
        (2, 6.0 / 16.0),
        (3, 4.0 / 16.0),
        (4, 1.0 / 16.0),
        (6, 1.0 / 16.0),
    ],
    safe: bit(26) | bit(28) | bit(29),
    blockade_in_rows: false,
    pieces: 5,
    landing: landing_table(false),
};

/// `houses` (H2-H7; sending back is modelled as a swap of the same size, and the
/// `six_sticks` option is not modelled).
pub static HOUSES_SPEC: TrackSpec = TrackSpec {
    id: "houses",
    throws: [
        (1, 4.0 / 16.0),
        (2, 6.0 / 16.0),
        (3, 4.0 / 16.0),
        (4, 1.0 / 16.0),
        (5, 1.0 / 16.0),
    ],
    safe: bit(15) | bit(26) | bit(28) | bit(29) | bit(30),
    blockade_in_rows: false,
    pieces: 5,
    landing: landing_table(true),
};

impl TrackSpec {
    /// The squares of `men` the opponent cannot pass.
    #[inline]
    fn blockade(&self, men: u32) -> u32 {
        if self.blockade_in_rows {
            runs3_in_rows(men)
        } else {
            runs(men, 3)
        }
    }

    /// The expected swing, in squares, of the best forward attack the side `att` can make on
    /// `def` with one throw (an exchange moves the attacker up by k and the defender back
    /// by k).
    #[inline]
    fn exposure(&self, att: u32, def: u32) -> f64 {
        let vulnerable = def & !protected(def) & !self.safe;
        if vulnerable == 0 {
            return 0.0;
        }
        let wall = self.blockade(def);
        let mut e = 0.0;
        for (k, p) in self.throws {
            let mut cand = (att << k) & vulnerable & self.landing[k as usize & 7];
            if wall != 0 && cand != 0 {
                // Drop the attacks that would pass the defender's own blockade.
                let mut c = cand;
                while c != 0 {
                    let t = c.trailing_zeros() as u8;
                    c &= c - 1;
                    if wall & between(t - k, t) != 0 {
                        cand &= !bit(t);
                    }
                }
            }
            // Branch-free: the throw's swing counts when some attack exists.
            e += (p * 2.0 * k as f64) * (cand != 0) as u32 as f64;
        }
        e
    }

    /// The board terms of the side owning `own` against `opp`: pieces protected by a
    /// neighbour, pieces in a blockade, opposing pieces stuck behind it (within six squares
    /// of its first piece), and the expected swing of the opponent's best attack, in tens of
    /// squares.
    #[inline(always)]
    pub fn terms(&self, own: u32, opp: u32) -> [f64; 4] {
        let protected = few(protected(own) & !bit(28) & !bit(29) & !bit(30)) as f64;
        let wall = self.blockade(own);
        let (mut behind, mut walled) = (0.0, 0.0);
        if wall != 0 {
            let first = wall.trailing_zeros();
            behind =
                few(opp & ((1u32 << first) - 1) & !((1u32 << first.saturating_sub(6)) - 1)) as f64;
            walled = few(wall) as f64;
        }
        let exposure = self.exposure(opp, own) / 10.0;
        [protected, walled, behind, exposure]
    }

    /// The features of the side owning `own` against `opp`; `to_throw` says whether this side
    /// throws next.
    #[inline]
    pub fn side_features(&self, own: u32, opp: u32, to_throw: bool, f: &mut [f64; NF]) {
        let mut m = own;
        while m != 0 {
            let s = m.trailing_zeros() as usize;
            m &= m - 1;
            f[s - 1] += 1.0;
        }
        f[F_OFF] += (self.pieces - own.count_ones()) as f64;
        let [protected, wall, behind, x] = self.terms(own, opp);
        f[F_PROTECTED] += protected;
        f[F_BLOCKADE] += wall;
        f[F_BEHIND] += behind;
        if to_throw {
            f[F_EXPOSED_LATER] += x;
            f[F_TEMPO] += 1.0;
        } else {
            f[F_EXPOSED_NOW] += x;
        }
    }

    /// The feature difference first player minus second player.
    #[inline]
    pub fn features(&self, men: [u32; 2], thrower: Player) -> [f64; NF] {
        let mut a = [0.0; NF];
        let mut b = [0.0; NF];
        self.side_features(men[0], men[1], thrower == Player::First, &mut a);
        self.side_features(men[1], men[0], thrower == Player::Second, &mut b);
        for (x, y) in a.iter_mut().zip(&b) {
            *x -= y;
        }
        a
    }
}

/// A logistic evaluator over [`TrackSpec`] features: `sigmoid(bias + w · (F(first) - F(second)))`.
#[derive(Clone, Debug)]
pub struct TrackEval {
    /// The movement rules.
    pub spec: &'static TrackSpec,
    /// Feature weights.
    pub w: [f64; NF],
    /// The first player's advantage.
    pub bias: f64,
    /// Name for reports.
    pub label: &'static str,
}

impl TrackEval {
    /// The value of a feature difference.
    #[inline]
    pub fn value_of(&self, f: &[f64; NF]) -> f64 {
        let z: f64 = self.w.iter().zip(f).map(|(w, x)| w * x).sum();
        sigmoid(self.bias + z)
    }

    /// The estimated chance that the first player wins, with `thrower` to throw. The same
    /// as `value_of(&spec.features(..))`, without building the feature vectors.
    #[inline]
    pub fn value(&self, men: [u32; 2], thrower: Player) -> f64 {
        let w = &self.w;
        let side = |own: u32, opp: u32, to_throw: bool| -> f64 {
            let mut z = 0.0;
            let mut m = own;
            while m != 0 {
                z += w[m.trailing_zeros() as usize - 1];
                m &= m - 1;
            }
            let sp = self.spec;
            z += w[F_OFF] * (sp.pieces - own.count_ones()) as f64;
            let [protected, wall, behind, x] = sp.terms(own, opp);
            z += w[F_PROTECTED] * protected + w[F_BLOCKADE] * wall + w[F_BEHIND] * behind;
            if to_throw {
                z += w[F_EXPOSED_LATER] * x + w[F_TEMPO];
            } else {
                z += w[F_EXPOSED_NOW] * x;
            }
            z
        };
        let first = thrower == Player::First;
        sigmoid(self.bias + side(men[0], men[1], first) - side(men[1], men[0], !first))
    }

    /// Hand-set starting weights: a pip count with a bonus for safety and a penalty for
    /// exposure (the trainer starts here).
    pub const fn hand(spec: &'static TrackSpec) -> TrackEval {
        let mut w = [0.0; NF];
        let mut s = 0;
        while s < 30 {
            w[s] = 0.08 * (s + 1) as f64;
            s += 1;
        }
        w[F_OFF] = 0.08 * 33.0;
        w[F_PROTECTED] = 0.1;
        w[F_BLOCKADE] = 0.05;
        w[F_BEHIND] = 0.1;
        w[F_EXPOSED_NOW] = -0.25;
        w[F_EXPOSED_LATER] = -0.1;
        w[F_TEMPO] = 0.15;
        TrackEval {
            spec,
            w,
            bias: 0.0,
            label: "track-hand",
        }
    }

    /// The player to throw (or move) in `g`.
    pub fn thrower<G: Game>(g: &G) -> Player {
        match g.status() {
            Status::Throw(p) | Status::Move(p) => p,
            Status::Over(_) => Player::First,
        }
    }
}

impl<G: TrackGame> Evaluator<G> for TrackEval {
    #[inline]
    fn eval(&self, g: &G) -> f64 {
        self.value(g.masks(), Self::thrower(g))
    }
    fn name(&self) -> &'static str {
        self.label
    }
}

/// A rule set played on the 30-square track with two piece masks, which [`TrackEval`] and
/// the trainer can read.
pub trait TrackGame: Game {
    /// The squares of each player's pieces (bit `s` for square `s`), first player first.
    fn masks(&self) -> [u32; 2];
    /// The movement rules as data.
    fn spec() -> &'static TrackSpec;
    /// The movement rules of this game's options.
    fn track_spec(&self) -> &'static TrackSpec {
        Self::spec()
    }
}

impl TrackGame for Kendall5 {
    fn masks(&self) -> [u32; 2] {
        self.men()
    }
    fn spec() -> &'static TrackSpec {
        &KENDALL5_SPEC
    }
}

impl TrackGame for Kendall {
    fn masks(&self) -> [u32; 2] {
        self.men()
    }
    fn spec() -> &'static TrackSpec {
        &KENDALL_SPEC
    }
}

impl TrackGame for Senat {
    fn masks(&self) -> [u32; 2] {
        self.men()
    }
    fn spec() -> &'static TrackSpec {
        &SENAT_SPEC
    }
}

impl TrackGame for Houses {
    fn masks(&self) -> [u32; 2] {
        self.men()
    }
    fn spec() -> &'static TrackSpec {
        &HOUSES_SPEC
    }
}
